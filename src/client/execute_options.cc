#include "client/execute_options.h"

#include <cstring>

namespace plugrt::internal {

StatusOr<CExecuteOptions> CExecuteOptions::Build(const ExecuteOptions& options,
                                                 size_t num_devices) {
  (void)num_devices;
  CExecuteOptions built;
  std::memset(&built.c_, 0, sizeof(built.c_));
  built.c_.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE;
  built.c_.launch_id = options.launch_id;
  built.non_donatable_ = options.non_donatable_input_indices;
  built.c_.non_donatable_input_indices = built.non_donatable_.data();
  built.c_.num_non_donatable_input_indices = built.non_donatable_.size();
  return built;
}

}  // namespace plugrt::internal
