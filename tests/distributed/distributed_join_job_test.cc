// A process joining its job from its launcher's environment: the create
// options it gets, the store node 0 serves and the others reach, and what the
// caller set winning. Environments are maps; the stores are real (gRPC on
// loopback).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client/key_value_store.h"
#include "distributed/coordinator_store.h"
#include "distributed/join_job.h"

namespace plugrt::distributed {
namespace {

using Env = std::map<std::string, std::string, std::less<>>;

EnvironmentLookup Lookup(Env env) {
  return [env = std::move(env)](std::string_view name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
}

std::optional<int64_t> IntOption(const std::vector<NamedValue>& options, std::string_view name) {
  const NamedValue* value = FindNamedValue(options, name);
  if (value == nullptr || !std::holds_alternative<int64_t>(value->value)) return std::nullopt;
  return std::get<int64_t>(value->value);
}

// A free loopback port (bound by a store of our own, then released).
int FreePort() {
  auto store = CoordinatorStore::Start({});
  EXPECT_TRUE(store.ok());
  return store.ok() ? (*store)->port() : 0;
}

Env Torchrun(int rank, int port) {
  return {{"RANK", std::to_string(rank)}, {"WORLD_SIZE", "2"},
          {"LOCAL_RANK", std::to_string(rank)}, {"LOCAL_WORLD_SIZE", "2"},
          {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::to_string(port)}};
}

TEST(JoinJobTest, APlainRunChangesNothing) {
  std::vector<NamedValue> options;
  std::shared_ptr<KeyValueStore> store;
  auto joined = JoinJob(options, store, Lookup({}));
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_FALSE(joined->has_value());
  EXPECT_TRUE(options.empty());
  EXPECT_EQ(store, nullptr);
}

TEST(JoinJobTest, NodeZeroServesTheStoreAndTheOthersReachIt) {
  const int port = FreePort();
  std::vector<NamedValue> options0, options1;
  std::shared_ptr<KeyValueStore> store0, store1;
  // Node 1 may start first: it waits for node 0's store.
  std::thread node1([&] {
    auto joined = JoinJob(options1, store1, Lookup(Torchrun(1, port)));
    ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  });
  auto joined = JoinJob(options0, store0, Lookup(Torchrun(0, port)));
  node1.join();
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  ASSERT_TRUE(joined->has_value());
  EXPECT_EQ((*joined)->local_size, 2);
  EXPECT_EQ(IntOption(options0, "node_id"), 0);
  EXPECT_EQ(IntOption(options1, "node_id"), 1);
  EXPECT_EQ(IntOption(options0, "num_nodes"), 2);
  ASSERT_NE(store0, nullptr);
  ASSERT_NE(store1, nullptr);
  ASSERT_TRUE(store1->Put("from-1", "hello").ok());
  EXPECT_EQ(*store0->Get("from-1", 10'000), "hello");
  ASSERT_TRUE(store0->Put("from-0", "world").ok());
  EXPECT_EQ(*store1->Get("from-0", 10'000), "world");
  // Two processes share the host: each gets at most its share of the cores.
  if (std::optional<int64_t> threads = IntOption(options0, "threads")) {
    EXPECT_GE(*threads, 1);
    EXPECT_LT(*threads, std::thread::hardware_concurrency());
  }
  store1.reset();  // node 1 leaves, so node 0's store stops at once
}

TEST(JoinJobTest, WhatTheCallerSetWins) {
  std::vector<NamedValue> options = {NamedValue{"node_id", int64_t{1}},
                                     NamedValue{"threads", int64_t{7}}};
  auto given = std::make_shared<InMemoryKeyValueStore>();
  std::shared_ptr<KeyValueStore> store = given;
  // With the store given, node 1 neither serves nor waits for a coordinator.
  auto joined = JoinJob(options, store, Lookup(Torchrun(0, FreePort())));
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_EQ((*joined)->node_id, 1);
  EXPECT_EQ(store, given);
  EXPECT_EQ(IntOption(options, "node_id"), 1);
  EXPECT_EQ(IntOption(options, "threads"), 7);
  EXPECT_EQ(IntOption(options, "num_nodes"), 2);
  EXPECT_EQ(options.size(), 3u);
}

TEST(JoinJobTest, AStoreInClearTextOffLoopbackNeedsConsent) {
  Env env = Torchrun(0, 29500);
  env["MASTER_ADDR"] = "10.255.255.1";
  env["LOCAL_WORLD_SIZE"] = "1";
  env["LOCAL_RANK"] = "0";
  std::vector<NamedValue> options;
  std::shared_ptr<KeyValueStore> store;
  auto joined = JoinJob(options, store, Lookup(env));
  ASSERT_FALSE(joined.ok());
  EXPECT_EQ(joined.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(joined.status().message().find("PLUGRT_ALLOW_INSECURE"), std::string::npos)
      << joined.status().ToString();
  EXPECT_NE(joined.status().message().find("10.255.255.1:29500"), std::string::npos);
  EXPECT_EQ(store, nullptr);
}

TEST(JoinJobTest, ANodeWhoseCoordinatorNeverComesFailsWithinTheTimeout) {
  std::vector<NamedValue> options = {NamedValue{"distributed_timeout_ms", int64_t{300}}};
  std::shared_ptr<KeyValueStore> store;
  auto joined = JoinJob(options, store, Lookup(Torchrun(1, FreePort())));
  ASSERT_FALSE(joined.ok());
  EXPECT_EQ(joined.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(joined.status().message().find("coordinator"), std::string::npos)
      << joined.status().ToString();
}

}  // namespace
}  // namespace plugrt::distributed
