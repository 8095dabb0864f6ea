#include "distributed/shared_memory_collectives.h"

#include <fcntl.h>
#include <sched.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <random>

#include "common/log.h"
#include "distributed/host_identity.h"
#include "distributed/kept_buffer.h"
#include "distributed/node_group.h"

namespace plugrt::distributed {
namespace {

constexpr uint64_t kMagic = 0x31524c41'54524c50ull;  // "PLRTALR1"
// Header: magic, member count, slot bytes; the sleepers count on a line of
// its own; then one 128-byte line per member counter (no false sharing,
// adjacent-line prefetch included); slots from the next page on.
constexpr size_t kSleepersOffset = 128;
constexpr size_t kCountersOffset = 256;
constexpr size_t kCounterStride = 128;
constexpr size_t kPage = 4096;
// How long a wait spins (pausing), then spins yielding the core (to any
// other runnable thread: processes may share cores), before it sleeps on
// the futex, whose wake-up costs tens of microseconds; and how long one
// sleep lasts before the wait looks at its deadline and the heartbeat.
constexpr auto kSpin = std::chrono::microseconds(20);
constexpr auto kYield = std::chrono::microseconds(2000);
constexpr timespec kSleep{0, 20'000'000};
constexpr auto kHeartbeatEvery = std::chrono::milliseconds(100);

size_t DataOffset(size_t members) {
  return (kCountersOffset + members * kCounterStride + kPage - 1) / kPage * kPage;
}

size_t SegmentBytes(size_t members, size_t slot_bytes) {
  return DataOffset(members) + 2 * members * slot_bytes;
}

std::atomic_ref<uint32_t> AtomicAt(uint32_t* word) { return std::atomic_ref<uint32_t>(*word); }

// Outputs from this size on are written with non-temporal stores: they
// would not stay in the cache anyway, and such stores skip reading each
// line before overwriting it (a third of the memory traffic otherwise).
constexpr size_t kStreamFrom = size_t{4} << 20;

// memcpy, with non-temporal stores where the CPU has them (SSE2).
void StreamCopy(char* dst, const char* src, size_t n) {
#if defined(__SSE2__)
  const size_t head = std::min(n, static_cast<size_t>(-reinterpret_cast<uintptr_t>(dst) & 15));
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  n -= head;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    for (size_t k = 0; k < 64; k += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + k));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + k), v);
    }
  }
  std::memcpy(dst + i, src + i, n - i);
#else
  std::memcpy(dst, src, n);
#endif
}

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The segment, mapped; unmapped on destruction unless released.
struct Mapping {
  void* base = nullptr;
  size_t bytes = 0;
  Mapping() = default;
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() {
    if (base != nullptr) ::munmap(base, bytes);
  }
};

StatusOr<std::unique_ptr<Mapping>> MapSegment(const std::string& name, bool create,
                                              size_t bytes) {
  const int fd = ::shm_open(name.c_str(), create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR, 0600);
  if (fd < 0) {
    return MakeError(StatusCode::kUnavailable, "shm_open(", name, "): ", std::strerror(errno));
  }
  if (create && ::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    const int error = errno;
    ::close(fd);
    return MakeError(StatusCode::kUnavailable, "sizing shared memory ", name, " to ", bytes, " bytes: ",
                       std::strerror(error));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || static_cast<size_t>(info.st_size) != bytes) {
    ::close(fd);
    return MakeError(StatusCode::kUnavailable, "shared memory ", name, " is not ", bytes, " bytes");
  }
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int error = errno;
  ::close(fd);
  if (base == MAP_FAILED) {
    return MakeError(StatusCode::kUnavailable, "mapping shared memory ", name, ": ", std::strerror(error));
  }
  auto mapping = std::make_unique<Mapping>();
  mapping->base = base;
  mapping->bytes = bytes;
  return mapping;
}

bool AllEqual(const std::vector<std::string>& values) {
  return std::all_of(values.begin(), values.end(),
                     [&](const std::string& v) { return v == values.front(); });
}

}  // namespace

std::string SharedMemoryDomain() {
  const std::string mounts = BootAndNamespace("mnt");
  char host[256] = {0};
  ::gethostname(host, sizeof(host) - 1);
  return mounts.empty() ? "" : StrCat(mounts, " ", host);
}

StatusOr<std::unique_ptr<SharedMemoryCollectives>> SharedMemoryCollectives::Join(
    int node_id, const std::vector<int>& nodes, const BackendAllGather& all_gather,
    std::shared_ptr<HeartbeatMonitor> heartbeat, Options options) {
  const auto found = std::find(nodes.begin(), nodes.end(), node_id);
  if (found == nodes.end()) return InvalidArgument("node ", node_id, " is not in its group");
  const int rank = static_cast<int>(found - nodes.begin());
  const size_t members = nodes.size();
  options.slot_bytes = std::max<size_t>(kPage, options.slot_bytes / kPage * kPage);
  const size_t bytes = SegmentBytes(members, options.slot_bytes);

  // 1. One host? An empty domain (unknown) shares with no one.
  const std::string domain = SharedMemoryDomain();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> domains, all_gather(domain));
  if (domain.empty() || !AllEqual(domains)) return std::unique_ptr<SharedMemoryCollectives>();

  // 2. The lowest member makes the segment and tells its name ("" when it
  // could not).
  std::unique_ptr<Mapping> mapping;
  std::string name;
  if (rank == 0) {
    std::random_device random;
    name = StrCat("/plugrt-", ::getpid(), "-", random(), random());
    StatusOr<std::unique_ptr<Mapping>> made = MapSegment(name, /*create=*/true, bytes);
    if (made.ok()) {
      mapping = std::move(*made);
      char* base = static_cast<char*>(mapping->base);
      std::memcpy(base, &kMagic, sizeof(kMagic));
      const uint64_t shape[2] = {members, options.slot_bytes};
      std::memcpy(base + 8, shape, sizeof(shape));
    } else {
      Log(LogLevel::kInfo, "distributed", StrCat("shared-memory collectives: ", made.status().message()));
      ::shm_unlink(name.c_str());
      name.clear();
    }
  }
  // The name goes as soon as every member has said whether it mapped it.
  struct Unlink {
    std::string name;
    ~Unlink() {
      if (!name.empty()) ::shm_unlink(name.c_str());
    }
  } unlink{name};  // empty but on the member that made it
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> names, all_gather(name));
  name = names.front();

  // 3. The others map it and check it is the one the lowest member made.
  std::string mapped = "ok";
  if (name.empty()) {
    mapped = "not made";
  } else if (rank != 0) {
    StatusOr<std::unique_ptr<Mapping>> opened = MapSegment(name, /*create=*/false, bytes);
    uint64_t header[3] = {0, 0, 0};
    if (opened.ok()) std::memcpy(header, (*opened)->base, sizeof(header));
    if (!opened.ok()) {
      mapped = std::string(opened.status().message());
    } else if (header[0] != kMagic || header[1] != members || header[2] != options.slot_bytes) {
      mapped = StrCat(name, " holds another layout");
    } else {
      mapping = std::move(*opened);
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> outcomes, all_gather(mapped));
  for (size_t m = 0; m < outcomes.size(); ++m) {
    if (outcomes[m] == "ok") continue;
    Log(LogLevel::kInfo, "distributed",
        StrCat("shared-memory collectives not used: node ", nodes[m], ": ", outcomes[m]));
    return std::unique_ptr<SharedMemoryCollectives>();
  }
  void* base = mapping->base;
  mapping->base = nullptr;  // the group owns it now
  return std::unique_ptr<SharedMemoryCollectives>(new SharedMemoryCollectives(
      nodes, rank, std::move(heartbeat), options, base, bytes));
}

SharedMemoryCollectives::SharedMemoryCollectives(std::vector<int> nodes, int rank,
                                             std::shared_ptr<HeartbeatMonitor> heartbeat,
                                             Options options, void* base, size_t bytes)
    : nodes_(std::move(nodes)),
      rank_(rank),
      heartbeat_(std::move(heartbeat)),
      options_(options),
      base_(base),
      bytes_(bytes) {}

SharedMemoryCollectives::~SharedMemoryCollectives() { ::munmap(base_, bytes_); }

uint32_t* SharedMemoryCollectives::Counter(int member) const {
  return reinterpret_cast<uint32_t*>(static_cast<char*>(base_) + kCountersOffset +
                                     static_cast<size_t>(member) * kCounterStride);
}

char* SharedMemoryCollectives::Slot(uint64_t set, int member) const {
  const size_t index = static_cast<size_t>(set & 1) * nodes_.size() + static_cast<size_t>(member);
  return static_cast<char*>(base_) + DataOffset(nodes_.size()) + index * options_.slot_bytes;
}

uint32_t* SharedMemoryCollectives::Sleepers() const {
  return reinterpret_cast<uint32_t*>(static_cast<char*>(base_) + kSleepersOffset);
}

void SharedMemoryCollectives::Post(uint32_t step) {
  uint32_t* counter = Counter(rank_);
  AtomicAt(counter).store(step, std::memory_order_seq_cst);
  if (AtomicAt(Sleepers()).load(std::memory_order_seq_cst) != 0) {
    ::syscall(SYS_futex, counter, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
  }
}

Status SharedMemoryCollectives::WaitAll(uint32_t step,
                                      std::chrono::steady_clock::time_point deadline) {
  uint32_t* sleepers = Sleepers();
  for (int member = 0; member < static_cast<int>(nodes_.size()); ++member) {
    if (member == rank_) continue;
    uint32_t* counter = Counter(member);
    auto reached = [&](uint32_t value) { return static_cast<int32_t>(value - step) >= 0; };
    uint32_t value = AtomicAt(counter).load(std::memory_order_acquire);
    if (reached(value)) continue;
    const auto start = std::chrono::steady_clock::now();
    for (auto spent = std::chrono::steady_clock::duration(); spent < kYield && !reached(value);
         spent = std::chrono::steady_clock::now() - start) {
      for (int i = 0; i < 64 && !reached(value); ++i) {
        CpuRelax();
        value = AtomicAt(counter).load(std::memory_order_acquire);
      }
      if (spent >= kSpin && !reached(value)) {
        ::sched_yield();
        value = AtomicAt(counter).load(std::memory_order_acquire);
      }
    }
    auto checked = std::chrono::steady_clock::now();
    while (!reached(value)) {
      AtomicAt(sleepers).fetch_add(1, std::memory_order_seq_cst);
      ::syscall(SYS_futex, counter, FUTEX_WAIT, value, &kSleep, nullptr, 0);
      AtomicAt(sleepers).fetch_sub(1, std::memory_order_seq_cst);
      value = AtomicAt(counter).load(std::memory_order_acquire);
      if (reached(value)) break;
      const auto now = std::chrono::steady_clock::now();
      if (now - checked >= kHeartbeatEvery) {
        checked = now;
        if (heartbeat_ != nullptr) {
          Status lost = heartbeat_->Lost(nodes_);
          if (!lost.ok()) return lost;
        }
      }
      if (now >= deadline) {
        return MakeError(StatusCode::kDeadlineExceeded, "node ", nodes_[static_cast<size_t>(member)],
                         " did not take part within ", options_.timeout.count(), " ms");
      }
    }
  }
  std::atomic_thread_fence(std::memory_order_acquire);
  return OkStatus();
}

Status SharedMemoryCollectives::AllReduce(Reduction reduction, DataType type,
                                        const std::vector<const void*>& inputs, void* output,
                                        size_t count) {
  if (!failed_.ok()) return failed_;
  if (inputs.empty()) return InvalidArgument("an all-reduce needs at least one input");
  if (count == 0) return OkStatus();
  const size_t element = DataTypeBytes(type);
  const ReduceFunction reduce = ReduceFunctionFor(type, reduction);
  const size_t members = nodes_.size();
  const size_t chunk_elements = options_.slot_bytes / element;
  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  char* out = static_cast<char*>(output);
  auto fail = [&](const Status& status) { return Fail("all-reduce", status); };
  auto part = [&](size_t n, size_t member) { return n * member / members; };
  const bool stream = count * element >= kStreamFrom;
  auto copy = [stream](char* dst, const char* src, size_t bytes) {
    if (stream) {
      StreamCopy(dst, src, bytes);
    } else if (bytes > 0) {
      std::memcpy(dst, src, bytes);
    }
  };
  for (size_t begin = 0; begin < count; begin += chunk_elements) {
    const size_t n = std::min(chunk_elements, count - begin);
    char* mine = nullptr;
    // 1. This member's inputs, reduced, into its slot (once the members
    // are done reading what this set held last).
    Status waited = NextChunk(deadline, &mine);
    if (!waited.ok()) return fail(waited);
    const uint64_t chunk = chunks_ - 1;
    const size_t offset = begin * element;
    std::memcpy(mine, static_cast<const char*>(inputs[0]) + offset, n * element);
    for (size_t k = 1; k < inputs.size(); ++k) {
      reduce(mine, mine, static_cast<const char*>(inputs[k]) + offset, n);
    }
    // 2. This member's part over every member's slot, into its own slot
    // (the others copy it from there) and then its output.
    waited = Step(deadline);
    if (!waited.ok()) return fail(waited);
    const size_t lo = part(n, static_cast<size_t>(rank_));
    const size_t hi = part(n, static_cast<size_t>(rank_) + 1);
    char* reduced = mine + lo * element;
    for (size_t m = 0; m < members && hi > lo; ++m) {
      if (static_cast<int>(m) == rank_) continue;
      reduce(reduced, reduced, Slot(chunk, static_cast<int>(m)) + lo * element, hi - lo);
    }
    Post(++step_);
    copy(out + offset + lo * element, reduced, (hi - lo) * element);
    // 3. The other members' parts.
    waited = WaitAll(step_, deadline);
    if (!waited.ok()) return fail(waited);
    for (size_t m = 0; m < members; ++m) {
      if (static_cast<int>(m) == rank_) continue;
      const size_t from = part(n, m), to = part(n, m + 1);
      copy(out + offset + from * element, Slot(chunk, static_cast<int>(m)) + from * element,
           (to - from) * element);
    }
    EndChunk();
  }
#if defined(__SSE2__)
  if (stream) _mm_sfence();
#endif
  return OkStatus();
}

Status SharedMemoryCollectives::Fail(std::string_view what, const Status& status) {
  failed_ = Status(status.code(), StrCat("shared-memory ", what, " over nodes ",
                                         NodesText(nodes_), ": ", status.message()));
  return failed_;
}

Status SharedMemoryCollectives::NextChunk(std::chrono::steady_clock::time_point deadline,
                                          char** slot) {
  const uint64_t set = chunks_ & 1;
  if (set_used_[set]) PLUGRT_RETURN_IF_ERROR(WaitAll(set_free_[set], deadline));
  *slot = Slot(chunks_++, rank_);
  return OkStatus();
}

Status SharedMemoryCollectives::Step(std::chrono::steady_clock::time_point deadline) {
  Post(++step_);
  return WaitAll(step_, deadline);
}

void SharedMemoryCollectives::EndChunk() {
  Post(++step_);
  const uint64_t set = (chunks_ - 1) & 1;
  set_used_[set] = true;
  set_free_[set] = step_;
}

Status SharedMemoryCollectives::AllGather(std::string_view bytes, const TakeBytes& take) {
  if (!failed_.ok()) return failed_;
  const size_t members = nodes_.size();
  const size_t slot = options_.slot_bytes;
  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  received_.resize(members);
  // The first chunk starts with every member's size; the data follows, a
  // slot's worth per chunk, until the largest member's is through.
  constexpr size_t kSizeBytes = sizeof(uint64_t);
  std::vector<size_t> sizes(members);
  size_t chunks = 1;
  for (size_t c = 0; c < chunks; ++c) {
    const size_t header = c == 0 ? kSizeBytes : 0;
    const size_t from = c == 0 ? 0 : slot - kSizeBytes + (c - 1) * slot;
    char* mine = nullptr;
    Status waited = NextChunk(deadline, &mine);
    if (!waited.ok()) return Fail("all-gather", waited);
    const uint64_t chunk = chunks_ - 1;
    if (c == 0) {
      const uint64_t size = bytes.size();
      std::memcpy(mine, &size, kSizeBytes);
    }
    const size_t n = from < bytes.size() ? std::min(slot - header, bytes.size() - from) : 0;
    if (n > 0) std::memcpy(mine + header, bytes.data() + from, n);
    waited = Step(deadline);
    if (!waited.ok()) return Fail("all-gather", waited);
    if (c == 0) {
      for (size_t m = 0; m < members; ++m) {
        uint64_t size = 0;
        std::memcpy(&size, Slot(chunk, static_cast<int>(m)), kSizeBytes);
        sizes[m] = static_cast<size_t>(size);
      }
      const size_t largest = *std::max_element(sizes.begin(), sizes.end());
      // Grown, not remade: what the strings held before is overwritten.
      for (size_t m = 0; m < members; ++m) {
        if (static_cast<int>(m) != rank_) received_[m].resize(sizes[m]);
      }
      chunks = (kSizeBytes + largest + slot - 1) / slot;
    }
    for (size_t m = 0; m < members; ++m) {
      if (static_cast<int>(m) == rank_ || from >= sizes[m]) continue;
      const size_t take_bytes = std::min(slot - header, sizes[m] - from);
      std::memcpy(received_[m].data() + from, Slot(chunk, static_cast<int>(m)) + header,
                  take_bytes);
    }
    EndChunk();
  }
  Status taken;
  for (size_t m = 0; m < members && taken.ok(); ++m) {
    taken = take(m, static_cast<int>(m) == rank_ ? bytes : std::string_view(received_[m]));
  }
  for (std::string& buffer : received_) LetGoIfLarge(buffer);
  return taken;
}

}  // namespace plugrt::distributed
