// The shared-memory collectives of one host's group: members as threads of
// this process (each maps the segment on its own, as processes do), their
// set-up exchange an in-memory all-gather. Checks all-reduce results against
// a plain reduction for every element type's kind, chunk-crossing and odd
// sizes, several inputs per member, in-place outputs; all-gathers of
// different sizes per member, empty ones and ones of many chunks, between
// all-reduces; and what a member that never comes or another host does.
#include <gtest/gtest.h>

#include <barrier>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "distributed/shared_memory_collectives.h"

namespace plugrt::distributed {
namespace {

// An all-gather among `members` threads: each round, every thread's bytes
// in member order. `tamper` may change what a round delivers.
class ThreadAllGather {
 public:
  explicit ThreadAllGather(int members)
      : barrier_(members),
        values_(static_cast<size_t>(members)),
        rounds_(static_cast<size_t>(members), 0) {}
  // Called by each member on what it got in each round.
  std::function<void(int member, int round, std::vector<std::string>&)> tamper;

  SharedMemoryCollectives::BackendAllGather For(int member) {
    return [this, member](std::string_view bytes) -> StatusOr<std::vector<std::string>> {
      values_[static_cast<size_t>(member)] = std::string(bytes);
      barrier_.arrive_and_wait();
      std::vector<std::string> all = values_;
      barrier_.arrive_and_wait();  // everyone has read before the next round writes
      if (tamper) tamper(member, rounds_[static_cast<size_t>(member)]++, all);
      return all;
    };
  }

 private:
  std::barrier<> barrier_;
  std::vector<std::string> values_;
  std::vector<int> rounds_;
};

std::vector<std::unique_ptr<SharedMemoryCollectives>> JoinAll(
    ThreadAllGather& gather, int members, SharedMemoryCollectives::Options options = {}) {
  std::vector<int> nodes;
  for (int m = 0; m < members; ++m) nodes.push_back(m * 2 + 1);  // any ascending ids
  std::vector<std::unique_ptr<SharedMemoryCollectives>> groups(static_cast<size_t>(members));
  std::vector<std::thread> threads;
  for (int m = 0; m < members; ++m) {
    threads.emplace_back([&, m] {
      auto joined = SharedMemoryCollectives::Join(nodes[static_cast<size_t>(m)], nodes,
                                                gather.For(m), nullptr, options);
      ASSERT_TRUE(joined.ok()) << joined.status().message();
      groups[static_cast<size_t>(m)] = std::move(*joined);
    });
  }
  for (auto& t : threads) t.join();
  return groups;
}

SharedMemoryCollectives::Options SmallSlots() {
  SharedMemoryCollectives::Options options;
  options.slot_bytes = 4096;  // many chunks even for small buffers
  options.timeout = std::chrono::milliseconds(20'000);
  return options;
}

// AllGather's bytes, collected: every member's, checked to come in order.
StatusOr<std::vector<std::string>> Gather(SharedMemoryCollectives& group,
                                          std::string_view bytes) {
  std::vector<std::string> got;
  PLUGRT_RETURN_IF_ERROR(group.AllGather(bytes, [&](size_t member, std::string_view b) {
    if (member != got.size()) return Internal("out of order");
    got.emplace_back(b);
    return OkStatus();
  }));
  return got;
}

// Every member reduces `inputs_per_member` buffers of `count` elements; the
// value of element i of input k of member m is make(m, k, i).
template <typename T, typename Make>
void CheckAllReduce(int members, size_t count, Reduction reduction, DataType type,
                    int inputs_per_member, bool in_place, Make make) {
  ThreadAllGather gather(members);
  auto groups = JoinAll(gather, members, SmallSlots());
  for (const auto& g : groups) ASSERT_NE(g, nullptr);
  std::vector<std::vector<std::vector<T>>> inputs(static_cast<size_t>(members));
  std::vector<std::vector<T>> outputs(static_cast<size_t>(members), std::vector<T>(count));
  std::vector<T> expected(count);
  const ReduceFunction reduce = ReduceFunctionFor(type, reduction);
  for (int m = 0; m < members; ++m) {
    for (int k = 0; k < inputs_per_member; ++k) {
      std::vector<T> values(count);
      for (size_t i = 0; i < count; ++i) values[i] = make(m, k, i);
      if (m == 0 && k == 0) {
        expected = values;
      } else {
        reduce(expected.data(), expected.data(), values.data(), count);
      }
      inputs[static_cast<size_t>(m)].push_back(std::move(values));
    }
  }
  // Twice: the second call starts where the first left the counters.
  for (int round = 0; round < 2; ++round) {
    std::vector<std::thread> threads;
    for (int m = 0; m < members; ++m) {
      threads.emplace_back([&, m] {
        auto& mine = inputs[static_cast<size_t>(m)];
        std::vector<T> first = mine[0];  // kept: an in-place call overwrites it
        std::vector<const void*> pointers;
        for (auto& v : mine) pointers.push_back(v.data());
        void* out = in_place ? mine[0].data() : outputs[static_cast<size_t>(m)].data();
        Status s = groups[static_cast<size_t>(m)]->AllReduce(reduction, type, pointers, out, count);
        ASSERT_TRUE(s.ok()) << s.message();
        if (in_place) {
          outputs[static_cast<size_t>(m)] = mine[0];
          mine[0] = first;
        }
      });
    }
    for (auto& t : threads) t.join();
    for (int m = 0; m < members; ++m) {
      const auto& got = outputs[static_cast<size_t>(m)];
      ASSERT_EQ(std::memcmp(got.data(), expected.data(), count * sizeof(T)), 0)
          << "member " << m << " round " << round;
    }
  }
}

TEST(SharedMemoryCollectivesTest, SumsFloatsOverChunksAndUnevenParts) {
  // 3 members, 4096-byte slots: 1024 floats per chunk, parts of 341/341/342.
  CheckAllReduce<float>(3, 5000, Reduction::kSum, DataType::kF32, 1, false,
                        [](int m, int, size_t i) { return static_cast<float>(m * 1000 + i % 97); });
}

TEST(SharedMemoryCollectivesTest, SeveralInputsPerMemberAndInPlace) {
  CheckAllReduce<double>(2, 3001, Reduction::kSum, DataType::kF64, 3, true,
                         // Dyadic values: every order of the sums is exact.
                         [](int m, int k, size_t i) { return 0.5 * m + k + i / 1024.0; });
}

TEST(SharedMemoryCollectivesTest, SignedIntegersWrapAround) {
  CheckAllReduce<int32_t>(2, 777, Reduction::kSum, DataType::kS32, 1, false, [](int, int, size_t) {
    return std::numeric_limits<int32_t>::max();
  });
  CheckAllReduce<int8_t>(4, 10000, Reduction::kProduct, DataType::kS8, 1, false,
                         [](int m, int, size_t i) { return static_cast<int8_t>(m + i); });
}

TEST(SharedMemoryCollectivesTest, MinAndMaxPropagateNan) {
  auto make = [](int m, int, size_t i) {
    return (i % 5 == 0 && m == 1) ? std::numeric_limits<float>::quiet_NaN()
                                  : static_cast<float>((m * 7 + i) % 13);
  };
  CheckAllReduce<float>(2, 2049, Reduction::kMax, DataType::kF32, 1, false, make);
  CheckAllReduce<float>(2, 2049, Reduction::kMin, DataType::kF32, 1, false, make);
  CheckAllReduce<uint64_t>(3, 100, Reduction::kMin, DataType::kU64, 2, false,
                           [](int m, int k, size_t i) { return uint64_t{1000} * m + k - i; });
}

TEST(SharedMemoryCollectivesTest, MembersOnAnotherHostGetTheBackend) {
  ThreadAllGather gather(2);
  // Round 0 exchanges the members' shared-memory domains: member 1 says it
  // is elsewhere, so the group says no on both members.
  gather.tamper = [](int, int round, std::vector<std::string>& all) {
    if (round == 0) all[1] += " elsewhere";
  };
  auto groups = JoinAll(gather, 2);
  EXPECT_EQ(groups[0], nullptr);
  EXPECT_EQ(groups[1], nullptr);
}

// Node 3 never comes, to an all-reduce or an all-gather: the call ends in
// the timeout naming the operation and the node, and the group refuses what
// follows with the same error.
TEST(SharedMemoryCollectivesTest, AMemberThatNeverComesEndsInTheTimeoutAndBreaksTheGroup) {
  for (const bool gather_first : {false, true}) {
    SCOPED_TRACE(gather_first ? "all-gather" : "all-reduce");
    ThreadAllGather gather(2);
    SharedMemoryCollectives::Options options = SmallSlots();
    options.timeout = std::chrono::milliseconds(300);
    auto groups = JoinAll(gather, 2, options);
    ASSERT_NE(groups[0], nullptr);
    std::vector<float> in(100, 1.0f), out(100);
    const Status s =
        gather_first
            ? Gather(*groups[0], "bytes").status()
            : groups[0]->AllReduce(Reduction::kSum, DataType::kF32, {in.data()}, out.data(), 100);
    EXPECT_EQ(s.code(), StatusCode::kDeadlineExceeded) << s.message();
    const std::string what = gather_first ? "all-gather" : "all-reduce";
    EXPECT_NE(s.message().find("shared-memory " + what + " over nodes [1, 3]"), std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("node 3 did not take part"), std::string::npos) << s.message();
    Status again = groups[0]->AllReduce(Reduction::kSum, DataType::kF32, {in.data()}, out.data(), 1);
    EXPECT_EQ(again.code(), StatusCode::kDeadlineExceeded);
    EXPECT_EQ(Gather(*groups[0], "more").status().code(), StatusCode::kDeadlineExceeded);
  }
}

TEST(SharedMemoryCollectivesTest, TheSegmentsNameIsGoneOnceJoined) {
  ThreadAllGather gather(2);
  std::string name;
  gather.tamper = [&](int member, int round, std::vector<std::string>& all) {
    if (member == 0 && round == 1) name = all[0];
  };
  auto groups = JoinAll(gather, 2);
  ASSERT_NE(groups[0], nullptr);
  ASSERT_FALSE(name.empty());
  EXPECT_FALSE(std::filesystem::exists("/dev/shm" + name)) << name;
}

// Member m's bytes for all-gather round r: sizes differ by member and round
// (empty, inside the first chunk, across it, many chunks of 4096-byte slots).
std::string GatherBytes(int m, int round) {
  static const size_t kSizes[] = {0, 1, 4088, 4089, 4096, 9000, 70001};
  const size_t size = kSizes[(m * 3 + round) % 7];
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(m * 31 + round * 7 + i * 13);
  return bytes;
}

TEST(SharedMemoryCollectivesTest, AllGathersOfEverySizeBetweenAllReduces) {
  for (const int members : {2, 3}) {
    SCOPED_TRACE(members);
    ThreadAllGather gather(members);
    auto groups = JoinAll(gather, members, SmallSlots());
    for (const auto& g : groups) ASSERT_NE(g, nullptr);
    const size_t count = 3000;  // 3 chunks of the all-reduce between gathers
    std::vector<std::thread> threads;
    for (int m = 0; m < members; ++m) {
      threads.emplace_back([&, m] {
        SharedMemoryCollectives& group = *groups[static_cast<size_t>(m)];
        for (int round = 0; round < 14; ++round) {
          StatusOr<std::vector<std::string>> all = Gather(group, GatherBytes(m, round));
          ASSERT_TRUE(all.ok()) << all.status().message();
          ASSERT_EQ(all->size(), static_cast<size_t>(members));
          for (int from = 0; from < members; ++from) {
            ASSERT_EQ((*all)[static_cast<size_t>(from)], GatherBytes(from, round))
                << "member " << m << " round " << round << " from " << from;
          }
          if (round % 3 != 0) continue;
          std::vector<float> in(count, static_cast<float>(m + 1)), out(count);
          Status s = group.AllReduce(Reduction::kSum, DataType::kF32, {in.data()}, out.data(),
                                     count);
          ASSERT_TRUE(s.ok()) << s.message();
          const float sum = static_cast<float>(members * (members + 1) / 2);
          for (float v : out) ASSERT_EQ(v, sum);
        }
      });
    }
    for (auto& t : threads) t.join();
  }
}

// What `take` returns ends the call with it; the group stays usable (every
// member went through the same steps).
TEST(SharedMemoryCollectivesTest, AnErrorFromTakeIsTheCallsAndTheGroupGoesOn) {
  ThreadAllGather gather(2);
  auto groups = JoinAll(gather, 2, SmallSlots());
  for (const auto& g : groups) ASSERT_NE(g, nullptr);
  std::vector<std::thread> threads;
  for (int m = 0; m < 2; ++m) {
    threads.emplace_back([&, m] {
      SharedMemoryCollectives& group = *groups[static_cast<size_t>(m)];
      Status refused = group.AllGather(std::string(9000, 'x'), [](size_t, std::string_view) {
        return InvalidArgument("not these bytes");
      });
      EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument);
      StatusOr<std::vector<std::string>> next =
          Gather(group, std::string(3, static_cast<char>('a' + m)));
      ASSERT_TRUE(next.ok()) << next.status().message();
      EXPECT_EQ((*next)[0], "aaa");
      EXPECT_EQ((*next)[1], "bbb");
    });
  }
  for (auto& t : threads) t.join();
}

}  // namespace
}  // namespace plugrt::distributed
