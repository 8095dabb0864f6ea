// plugrt client: what an Execute call may ask of the plugin beyond its
// arguments, and (internal) its PJRT_ExecuteOptions form.
#ifndef PLUGRT_CLIENT_EXECUTE_OPTIONS_H_
#define PLUGRT_CLIENT_EXECUTE_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "client/device.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

struct ExecuteOptions {
  // Nonzero: shared by all parts of one multi-device launch.
  int launch_id = 0;
  // Arguments the plugin must not donate (alias into outputs).
  std::vector<int64_t> non_donatable_input_indices;
  // Set: run on this one addressable device only (one argument list).
  std::optional<Device> execute_device;
};

namespace internal {

// The PJRT_ExecuteOptions for one Execute call over `num_devices` devices,
// with everything it points to owned here; valid while this object lives
// (the call's duration).
class CExecuteOptions {
 public:
  static StatusOr<CExecuteOptions> Build(const ExecuteOptions& options, size_t num_devices);
  CExecuteOptions(CExecuteOptions&&) = default;
  CExecuteOptions& operator=(CExecuteOptions&&) = default;

  PJRT_ExecuteOptions* get() { return &c_; }

 private:
  CExecuteOptions() = default;

  PJRT_ExecuteOptions c_{};
  std::vector<int64_t> non_donatable_;
};

}  // namespace internal
}  // namespace plugrt

#endif  // PLUGRT_CLIENT_EXECUTE_OPTIONS_H_
