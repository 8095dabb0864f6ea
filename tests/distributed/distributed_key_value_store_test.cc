// The key-value stores of multi-process runs (src/distributed/, and the
// client's in-process one), through the KeyValueStore interface: the same
// behaviour from each, and what is particular to files and Redis. Also the
// heartbeat monitor that watches the nodes of a job through a store.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "client/key_value_store.h"
#include "distributed/coordinator_store.h"
#include "distributed/file_key_value_store.h"
#include "distributed/heartbeat.h"
#include "distributed/key_value_store_url.h"
#include "distributed/redis_key_value_store.h"
#include "testutil/redis_server.h"
#include "testutil/test_certificates.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

using distributed::FileKeyValueStore;
using distributed::OpenKeyValueStore;
using distributed::RedisKeyValueStore;

// One backend: makes store objects that share their data (two objects play
// two processes).
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string skip_reason() const { return ""; }
  virtual std::shared_ptr<KeyValueStore> Open() = 0;
};

class InMemoryBackend : public Backend {
 public:
  std::shared_ptr<KeyValueStore> Open() override { return store_; }

 private:
  std::shared_ptr<KeyValueStore> store_ = std::make_shared<InMemoryKeyValueStore>();
};

class FileBackend : public Backend {
 public:
  std::shared_ptr<KeyValueStore> Open() override {
    auto store = OpenKeyValueStore("file:" + dir_);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::shared_ptr<KeyValueStore>(std::move(*store)) : nullptr;
  }

 private:
  const plugrt::testing::TempDir temp_dir_{"dist-kv-file"};
  const std::string dir_ = temp_dir_.path();
};

class RedisBackend : public Backend {
 public:
  std::string skip_reason() const override { return server_.ok() ? "" : server_.error(); }
  std::shared_ptr<KeyValueStore> Open() override {
    auto store = OpenKeyValueStore(server_.address() + "/test:");
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::shared_ptr<KeyValueStore>(std::move(*store)) : nullptr;
  }
  testing::RedisServer& server() { return server_; }

 private:
  testing::RedisServer server_;
};

// A job's coordinator: the first handle is node 0's own store (it serves the
// values), the second a node connected to it over gRPC.
class CoordinatorBackend : public Backend {
 public:
  std::shared_ptr<KeyValueStore> Open() override {
    if (coordinator_ == nullptr) {
      distributed::CoordinatorStore::Options options;
      options.num_nodes = 2;
      auto started = distributed::CoordinatorStore::Start(options);
      EXPECT_TRUE(started.ok()) << started.status().ToString();
      if (!started.ok()) return nullptr;
      coordinator_ = std::move(*started);
      return coordinator_;
    }
    auto store = distributed::GrpcKeyValueStore::Connect(
        "127.0.0.1:" + std::to_string(coordinator_->port()), 1, std::chrono::seconds(10));
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::shared_ptr<KeyValueStore>(std::move(*store)) : nullptr;
  }

 private:
  std::shared_ptr<distributed::CoordinatorStore> coordinator_;
};

class KeyValueStoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "memory") backend_ = std::make_unique<InMemoryBackend>();
    if (GetParam() == "file") backend_ = std::make_unique<FileBackend>();
    if (GetParam() == "redis") backend_ = std::make_unique<RedisBackend>();
    if (GetParam() == "coordinator") backend_ = std::make_unique<CoordinatorBackend>();
    if (!backend_->skip_reason().empty()) GTEST_SKIP() << backend_->skip_reason();
    a_ = backend_->Open();
    b_ = backend_->Open();
    ASSERT_NE(a_, nullptr);
    ASSERT_NE(b_, nullptr);
  }
  std::unique_ptr<Backend> backend_;
  std::shared_ptr<KeyValueStore> a_, b_;
};

TEST_P(KeyValueStoreTest, PutThenGetFromAnotherHandle) {
  // Binary values (a NUL inside) and keys with separators survive.
  const std::string value("bytes\0with nul", 14);
  ASSERT_TRUE(a_->Put("job/node:0/topology", value).ok());
  StatusOr<std::string> got = b_->TryGet("job/node:0/topology");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, value);
  got = b_->Get("job/node:0/topology", 1000);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, value);
  // An empty value is a value.
  ASSERT_TRUE(a_->Put("empty", "").ok());
  got = b_->TryGet("empty");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, "");
}

TEST_P(KeyValueStoreTest, PutOverwrites) {
  ASSERT_TRUE(a_->Put("k", "first").ok());
  ASSERT_TRUE(b_->Put("k", "second").ok());
  EXPECT_EQ(*a_->TryGet("k"), "second");
}

TEST_P(KeyValueStoreTest, TryGetOfAnAbsentKeyIsNotFound) {
  StatusOr<std::string> got = a_->TryGet("never-written");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kNotFound);
  EXPECT_NE(got.status().message().find("never-written"), std::string::npos);
}

TEST_P(KeyValueStoreTest, GetTimesOutNamingTheKey) {
  StatusOr<std::string> got = a_->Get("late-key", 50);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(got.status().message().find("late-key"), std::string::npos);
}

TEST_P(KeyValueStoreTest, GetWaitsForAPutFromAnotherThread) {
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_TRUE(b_->Put("arrives", "later").ok());
  });
  StatusOr<std::string> got = a_->Get("arrives", 10'000);
  writer.join();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, "later");
}

INSTANTIATE_TEST_SUITE_P(Stores, KeyValueStoreTest,
                         ::testing::Values("memory", "file", "redis", "coordinator"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(FileKeyValueStoreTest, ValuesAreWholeFilesAndKeysAreEscaped) {
  const plugrt::testing::TempDir temp_dir("dist-kv-escape");
  const std::string& dir = temp_dir.path();
  auto store = FileKeyValueStore::Open(dir);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_TRUE((*store)->Put("../outside/.x", "v").ok());
  // The key stays one file inside the directory, whatever it holds.
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(dir).parent_path() / "outside"));
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(entry.path().parent_path(), std::filesystem::path(dir));
    EXPECT_NE(entry.path().filename().string()[0], '.');  // no temporary left behind
  }
  EXPECT_EQ(files, 1);
  EXPECT_EQ(*(*store)->TryGet("../outside/.x"), "v");
  EXPECT_EQ((*store)->TryGet("").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*store)->Put(std::string(500, 'k'), "v").code(), StatusCode::kInvalidArgument);
}

TEST(FileKeyValueStoreTest, AnUnwritableDirectoryIsUnavailable) {
  auto store = FileKeyValueStore::Open("/proc/wt-dist-no-such-dir/kv");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(store.status().message().find("/proc/wt-dist-no-such-dir/kv"), std::string::npos);
}

TEST(RedisKeyValueStoreTest, ServerGoneIsUnavailableNamingTheAddress) {
  testing::RedisServer server;
  if (!server.ok()) GTEST_SKIP() << server.error();
  auto store = RedisKeyValueStore::Connect("127.0.0.1", server.port(), "", 1000);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_TRUE((*store)->Put("k", "v").ok());
  server.Stop();
  const std::string port = std::to_string(server.port());
  StatusOr<std::string> got = (*store)->Get("k2", 5000);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kUnavailable) << got.status().ToString();
  EXPECT_NE(got.status().message().find("127.0.0.1:" + port), std::string::npos);
  Status put = (*store)->Put("k", "v");
  EXPECT_EQ(put.code(), StatusCode::kUnavailable) << put.ToString();
}

TEST(RedisKeyValueStoreTest, NoServerIsUnavailable) {
  const int port = testing::FreeLoopbackPort();
  auto store = RedisKeyValueStore::Connect("127.0.0.1", port, "", 1000);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(store.status().message().find(std::to_string(port)), std::string::npos);
}

TEST(RedisKeyValueStoreTest, PrefixesKeepJobsApart) {
  testing::RedisServer server;
  if (!server.ok()) GTEST_SKIP() << server.error();
  auto one = OpenKeyValueStore(server.address() + "/job1:");
  auto two = OpenKeyValueStore(server.address() + "/job2:");
  ASSERT_TRUE(one.ok() && two.ok());
  ASSERT_TRUE((*one)->Put("k", "1").ok());
  EXPECT_EQ((*two)->TryGet("k").status().code(), StatusCode::kNotFound);
}

TEST(CoordinatorStoreTest, ATakenPortIsUnavailableNamingTheAddressAndItsSource) {
  auto first = distributed::CoordinatorStore::Start({});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  distributed::CoordinatorStore::Options options;
  options.listen = "127.0.0.1:" + std::to_string((*first)->port());
  options.source = "OMPI_MCA_orte_hnp_uri";
  auto second = distributed::CoordinatorStore::Start(options);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find(options.listen), std::string::npos)
      << second.status().ToString();
  EXPECT_NE(second.status().message().find("OMPI_MCA_orte_hnp_uri"), std::string::npos);
}

TEST(CoordinatorStoreTest, ANodeWithoutACoordinatorGivesUpNamingTheAddress) {
  // A port nothing listens on: bound and released by a store of our own.
  int port = 0;
  {
    auto store = distributed::CoordinatorStore::Start({});
    ASSERT_TRUE(store.ok());
    port = (*store)->port();
  }
  const std::string address = "127.0.0.1:" + std::to_string(port);
  auto store =
      distributed::GrpcKeyValueStore::Connect(address, 1, std::chrono::milliseconds(300));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(store.status().message().find(address), std::string::npos)
      << store.status().ToString();
}

TEST(CoordinatorStoreTest, CallsAfterTheCoordinatorIsGoneFailNamingIt) {
  distributed::CoordinatorStore::Options options;
  options.num_nodes = 2;
  options.idle = std::chrono::milliseconds(0);  // stop at once, goodbye or not
  auto coordinator = distributed::CoordinatorStore::Start(options);
  ASSERT_TRUE(coordinator.ok());
  const std::string address = "127.0.0.1:" + std::to_string((*coordinator)->port());
  auto node = distributed::GrpcKeyValueStore::Connect(address, 1, std::chrono::seconds(10),
                                                      std::chrono::milliseconds(2000));
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  ASSERT_TRUE((*node)->Put("k", "v").ok());
  coordinator->reset();
  Status put = (*node)->Put("k", "w");
  EXPECT_EQ(put.code(), StatusCode::kUnavailable) << put.ToString();
  EXPECT_NE(put.message().find(address), std::string::npos) << put.ToString();
  StatusOr<std::string> got = (*node)->Get("k2", 60'000);
  EXPECT_FALSE(got.ok());
}

TEST(CoordinatorStoreTest, TheCoordinatorServesUntilEveryNodeHasSaidGoodbye) {
  distributed::CoordinatorStore::Options options;
  options.num_nodes = 3;
  options.linger = std::chrono::minutes(10);
  options.idle = std::chrono::minutes(10);
  auto coordinator = distributed::CoordinatorStore::Start(options);
  ASSERT_TRUE(coordinator.ok());
  const std::string address = "127.0.0.1:" + std::to_string((*coordinator)->port());
  std::vector<std::unique_ptr<distributed::GrpcKeyValueStore>> nodes;
  for (int n = 1; n <= 2; ++n) {
    auto node = distributed::GrpcKeyValueStore::Connect(address, n, std::chrono::seconds(10));
    ASSERT_TRUE(node.ok()) << node.status().ToString();
    nodes.push_back(std::move(*node));
  }
  // Node 0 shuts down first; the others still finish their work through it
  // and then leave, which lets it stop (within the test's own time, not the
  // ten minutes of linger).
  std::thread stopping([&] { coordinator->reset(); });
  for (auto& node : nodes) {
    EXPECT_TRUE(node->Put("plugrt/heartbeat/late", "left").ok());
    EXPECT_EQ(*node->TryGet("plugrt/heartbeat/late"), "left");
    node.reset();
  }
  stopping.join();
}

class CoordinatorTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    certs_ = testing::MakeTestCertificates(dir_.path());
    if (!certs_.error.empty()) GTEST_SKIP() << certs_.error;
  }

  // A coordinator of 2 nodes with the server's certificate; with `mutual`,
  // it also requires client certificates signed by the test CA.
  std::unique_ptr<distributed::CoordinatorStore> Start(bool mutual) {
    distributed::CoordinatorStore::Options options;
    options.num_nodes = 2;
    options.idle = std::chrono::milliseconds(0);
    options.tls.cert_file = certs_.server_cert;
    options.tls.key_file = certs_.server_key;
    if (mutual) options.tls.ca_file = certs_.ca;
    auto started = distributed::CoordinatorStore::Start(options);
    EXPECT_TRUE(started.ok()) << started.status().ToString();
    return started.ok() ? std::move(*started) : nullptr;
  }

  StatusOr<std::unique_ptr<distributed::GrpcKeyValueStore>> Connect(
      const distributed::CoordinatorStore& coordinator, remote::TlsConfig tls) {
    return distributed::GrpcKeyValueStore::Connect(
        "127.0.0.1:" + std::to_string(coordinator.port()), 1, std::chrono::milliseconds(2000),
        std::chrono::milliseconds(5000), tls);
  }

  testing::TempDir dir_{"coordinator-tls"};
  testing::TestCertificates certs_;
};

TEST_F(CoordinatorTlsTest, AServerCertificateTheClientTrusts) {
  auto coordinator = Start(/*mutual=*/false);
  ASSERT_NE(coordinator, nullptr);
  remote::TlsConfig trusting;
  trusting.ca_file = certs_.ca;
  auto node = Connect(*coordinator, trusting);
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  ASSERT_TRUE((*node)->Put("k", "over tls").ok());
  EXPECT_EQ(*coordinator->Get("k", 1000), "over tls");
  // A client in clear text reaches a server that speaks only TLS: refused,
  // naming the peer.
  auto plain = Connect(*coordinator, {});
  ASSERT_FALSE(plain.ok());
  EXPECT_EQ(plain.status().code(), StatusCode::kUnauthenticated) << plain.status().ToString();
  EXPECT_NE(plain.status().message().find("127.0.0.1:" + std::to_string(coordinator->port())),
            std::string::npos);
  // A client trusting another CA refuses the server.
  remote::TlsConfig stranger;
  stranger.ca_file = dir_.path() + "/other-ca.pem";
  auto distrusting = Connect(*coordinator, stranger);
  ASSERT_FALSE(distrusting.ok());
  EXPECT_EQ(distrusting.status().code(), StatusCode::kUnauthenticated);
}

TEST_F(CoordinatorTlsTest, MutualTlsRefusesAWrongOrMissingClientCertificate) {
  auto coordinator = Start(/*mutual=*/true);
  ASSERT_NE(coordinator, nullptr);
  remote::TlsConfig good;
  good.ca_file = certs_.ca;
  good.cert_file = certs_.client_cert;
  good.key_file = certs_.client_key;
  auto node = Connect(*coordinator, good);
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  ASSERT_TRUE((*node)->Put("mutual", "yes").ok());
  EXPECT_EQ(*(*node)->TryGet("mutual"), "yes");
  remote::TlsConfig wrong = good;
  wrong.cert_file = certs_.stranger_cert;
  wrong.key_file = certs_.stranger_key;
  remote::TlsConfig missing;
  missing.ca_file = certs_.ca;
  for (const remote::TlsConfig& tls : {wrong, missing}) {
    auto refused = Connect(*coordinator, tls);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), StatusCode::kUnauthenticated)
        << refused.status().ToString();
    EXPECT_NE(refused.status().message().find("127.0.0.1:"), std::string::npos);
  }
}

TEST_F(CoordinatorTlsTest, ClearTextOffLoopbackNeedsConsentAndUnusableFilesAreNamed) {
  distributed::CoordinatorStore::Options options;
  options.listen = "0.0.0.0:0";
  auto refused = distributed::CoordinatorStore::Start(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("PLUGRT_ALLOW_INSECURE=1"), std::string::npos)
      << refused.status().ToString();
  options.tls.allow_insecure = true;
  EXPECT_TRUE(distributed::CoordinatorStore::Start(options).ok());
  options.tls.cert_file = certs_.server_cert;
  options.tls.key_file = dir_.path() + "/no-such.key";
  auto unreadable = distributed::CoordinatorStore::Start(options);
  ASSERT_FALSE(unreadable.ok());
  EXPECT_EQ(unreadable.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unreadable.status().message().find("no-such.key"), std::string::npos);
  // A client would send the job's keys in clear text off loopback.
  auto client = distributed::GrpcKeyValueStore::Connect("198.18.0.1:29500", 1,
                                                        std::chrono::milliseconds(100));
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kFailedPrecondition);
}

TEST(KeyValueStoreUrlTest, MalformedAddressesAreNamed) {
  for (const char* address : {"http://x", "redis://nohostport", "redis://h:notaport", "redis://:1",
                              "file:", ""}) {
    auto store = OpenKeyValueStore(address);
    ASSERT_FALSE(store.ok()) << address;
    EXPECT_EQ(store.status().code(), StatusCode::kInvalidArgument) << address;
  }
}

// ---- heartbeats ---------------------------------------------------------------

distributed::HeartbeatMonitor::Options BeatOptions(int node) {
  distributed::HeartbeatMonitor::Options options;
  options.node_id = node;
  options.num_nodes = 2;
  options.hostname = "host" + std::to_string(node);
  options.interval = std::chrono::milliseconds(20);
  options.timeout = std::chrono::milliseconds(300);
  return options;
}

// Lost({node}) once it is not OK, or OK after 10 s of asking.
Status WaitUntilLost(const distributed::HeartbeatMonitor& monitor, int node) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < give_up) {
    Status lost = monitor.Lost({node});
    if (!lost.ok()) return lost;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return OkStatus();
}

TEST(HeartbeatTest, ANodeThatLeavesIsNamedAsLeft) {
  auto store = std::make_shared<InMemoryKeyValueStore>();
  auto watcher = distributed::HeartbeatMonitor::Start(store, BeatOptions(0));
  ASSERT_TRUE(watcher.ok()) << watcher.status().ToString();
  auto leaver = distributed::HeartbeatMonitor::Start(store, BeatOptions(1));
  ASSERT_TRUE(leaver.ok()) << leaver.status().ToString();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE((*watcher)->Lost({0, 1}).ok());
  leaver->reset();  // its client shut down
  Status lost = WaitUntilLost(**watcher, 1);
  EXPECT_EQ(lost.code(), StatusCode::kUnavailable) << lost.ToString();
  EXPECT_NE(lost.message().find("node 1 (host host1, pid "), std::string::npos) << lost.message();
  EXPECT_NE(lost.message().find("has left the job"), std::string::npos) << lost.message();
}

TEST(HeartbeatTest, ANodeWhoseBeatStopsChangingIsLostAfterTheTimeout) {
  auto store = std::make_shared<InMemoryKeyValueStore>();
  // Node 1 beat once, from another machine (no process to look up), then
  // fell silent.
  ASSERT_TRUE(store->Put("plugrt/heartbeat/1", "7 4242 elsewhere far-host").ok());
  auto watcher = distributed::HeartbeatMonitor::Start(store, BeatOptions(0));
  ASSERT_TRUE(watcher.ok()) << watcher.status().ToString();
  Status lost = WaitUntilLost(**watcher, 1);
  EXPECT_EQ(lost.code(), StatusCode::kUnavailable) << lost.ToString();
  EXPECT_NE(lost.message().find("node 1 (host far-host, pid 4242) stopped answering"),
            std::string::npos)
      << lost.message();
  // Nodes not asked about are not blamed.
  EXPECT_TRUE((*watcher)->Lost({0}).ok());
}

TEST(HeartbeatTest, ATimeoutNotAboveTheIntervalIsRefused) {
  auto options = BeatOptions(0);
  options.timeout = options.interval;
  auto monitor =
      distributed::HeartbeatMonitor::Start(std::make_shared<InMemoryKeyValueStore>(), options);
  EXPECT_EQ(monitor.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace plugrt
