// plugrt kernel plugins: the runtime's side of the kernel ABI
// (include/plugrt/kernel_c_api.h): the function table handed to plugins,
// the status and registrar objects behind the ABI's opaque types, and the
// context of one call.
#ifndef PLUGRT_KERNELS_ABI_KERNEL_API_H_
#define PLUGRT_KERNELS_ABI_KERNEL_API_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kernels_abi/custom_call_frame.h"
#include "kernels_abi/kernel_attributes.h"
#include "kernels_abi/kernel_resources.h"
#include "plugrt/kernel_c_api.h"

// The ABI's opaque types (declared in the global namespace by the C header).
struct PLUGRT_Status {
  PLUGRT_KernelCode code = PLUGRT_KernelCode_OK;
  std::string message;
};

struct PLUGRT_KernelRegistrar {
  // Adds one registration whose version and fields were checked.
  std::function<plugrt::Status(const PLUGRT_KernelRegistration&)> add;
  // The first registration that failed, reported when the init function
  // returns even if the plugin ignored the returned status.
  plugrt::Status first_error;
};

namespace plugrt::kernels_abi {

// The table every plugin gets; it lives as long as the process.
const PLUGRT_KernelApi* KernelApi();

// A PLUGRT_Status for `status`; null when it is OK.
PLUGRT_Status* NewKernelStatus(const Status& status);
// `status` as a Status (OK for null); deletes it.
Status TakeKernelStatus(PLUGRT_Status* status);

// The context of one call: the frame in the kernel ABI's form (its buffers
// as PLUGRT_KernelInput / Output, its attributes), the client's resources,
// the call's scratch memory and the resources it holds, its failure.
struct KernelCallContext : PLUGRT_KernelContext {
  KernelCallContext(const CustomCallFrame& frame, const KernelAttributes& attributes,
                    KernelResourceStore& resources, std::string_view platform);
  ~KernelCallContext();
  KernelCallContext(const KernelCallContext&) = delete;
  KernelCallContext& operator=(const KernelCallContext&) = delete;

  const CustomCallFrame& frame;
  const KernelAttributes* attributes;
  std::vector<PLUGRT_KernelInput> inputs;
  std::vector<PLUGRT_KernelOutput> outputs;
  KernelResourceStore& resources;
  std::string platform;
  struct Temp {
    void* data;
    size_t alignment;
  };
  std::vector<Temp> temps;
  std::vector<std::shared_ptr<KernelResource>> held;
  std::unique_ptr<PLUGRT_Status> failure;
};

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_KERNEL_API_H_
