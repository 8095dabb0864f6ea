// plugrt CPU backend: the options PJRT_Client_Create and
// PJRT_TopologyDescription_Create accept.
#ifndef PLUGRT_CPU_CPU_OPTIONS_H_
#define PLUGRT_CPU_CPU_OPTIONS_H_

#include "common/status.h"
#include "sdk/types.h"

namespace plugrt::cpu {

inline constexpr int kMaxCpuDevices = 1024;

struct CpuOptions {
  // "cpu_device_count" (int64, 1..kMaxCpuDevices): virtual devices to create.
  int num_devices = 1;
  // "threads" (int64, 1..kMaxThreads): threads one device's execution may
  // use for its large kernels; 0 (absent): the cores divided among the
  // devices, at least 1.
  int threads = 0;
};

inline constexpr int kMaxThreads = 4096;

// INVALID_ARGUMENT naming the option for unknown names, wrong value types and
// values out of range.
StatusOr<CpuOptions> ParseCpuOptions(const sdk::Attributes& options);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_OPTIONS_H_
