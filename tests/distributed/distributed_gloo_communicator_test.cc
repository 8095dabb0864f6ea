// The Gloo communicator in one process: two nodes, each on a thread of its
// own, reduce and gather through Gloo's TCP transport over loopback, and
// Gloo's event-loop threads run SCHED_BATCH, so that a loop woken by a
// peer's bytes never preempts a thread in the middle of sending on the same
// pair (bound to one core, that cost every operation a scheduler tick: 4 ms).
#include <gtest/gtest.h>
#include <sched.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "distributed/file_key_value_store.h"
#include "distributed/gloo_communicator.h"
#include "testutil/temp_dir.h"

namespace plugrt::distributed {
namespace {

int BatchThreadsOfThisProcess() {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    const pid_t tid = static_cast<pid_t>(std::atoi(entry.path().filename().c_str()));
    if (sched_getscheduler(tid) == SCHED_BATCH) ++count;
  }
  return count;
}

TEST(GlooCommunicatorTest, TwoNodesReduceAndGatherAndTheLoopsNeverPreemptASender) {
  const testing::TempDir dir("gloo-communicator");
  StatusOr<std::unique_ptr<FileKeyValueStore>> opened = FileKeyValueStore::Open(dir.path());
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::shared_ptr<KeyValueStore> store = std::move(*opened);
  EXPECT_EQ(BatchThreadsOfThisProcess(), 0);

  constexpr size_t kCount = 1000;
  std::vector<std::vector<float>> outputs(2, std::vector<float>(kCount));
  std::vector<std::string> gathered(2);
  std::vector<Status> statuses(4);
  std::vector<int> batch_threads(2, 0);
  std::vector<std::thread> nodes;
  for (int node = 0; node < 2; ++node) {
    nodes.emplace_back([&, node] {
      GlooCommunicator::Options options;
      options.node_id = node;
      options.num_nodes = 2;
      options.timeout = std::chrono::milliseconds(30'000);
      GlooCommunicator communicator(store, options);
      std::vector<float> input(kCount);
      for (size_t i = 0; i < kCount; ++i) input[i] = static_cast<float>(i * (node + 1));
      const std::vector<const void*> inputs = {input.data()};
      statuses[node] = communicator.AllReduce("sum", {0, 1}, Reduction::kSum, DataType::kF32,
                                              inputs, outputs[node].data(), kCount, nullptr);
      const std::string mine(static_cast<size_t>(node + 1), static_cast<char>('a' + node));
      statuses[2 + node] = communicator.AllGather(
          "gather", {0, 1}, mine, [&](size_t index, std::string_view bytes) {
            gathered[node] += std::to_string(index) + ":" + std::string(bytes) + ";";
            return OkStatus();
          });
      // This node's communicator, and its device's loop thread, are alive.
      batch_threads[node] = BatchThreadsOfThisProcess();
    });
  }
  for (std::thread& t : nodes) t.join();
  for (const Status& s : statuses) ASSERT_TRUE(s.ok()) << s.ToString();
  for (int node = 0; node < 2; ++node) {
    for (size_t i = 0; i < kCount; ++i) ASSERT_EQ(outputs[node][i], 3.0f * i) << node << ", " << i;
    EXPECT_EQ(gathered[node], "0:a;1:bb;");
    EXPECT_GE(batch_threads[node], 1) << "node " << node << ": no SCHED_BATCH loop thread";
  }
}

}  // namespace
}  // namespace plugrt::distributed
