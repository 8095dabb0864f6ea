// plugrt kernel plugins: a custom call's attributes in the kernel ABI's
// typed form (PLUGRT_KernelAttr), converted once when the program compiles
// from what the call decoded (CustomCallAttributes, custom_call_frame.h):
// the dictionary a handler sees is its fields in order; backend_config as a
// string is kept as given.
#ifndef PLUGRT_KERNELS_ABI_KERNEL_ATTRIBUTES_H_
#define PLUGRT_KERNELS_ABI_KERNEL_ATTRIBUTES_H_

#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kernels_abi/custom_call_frame.h"
#include "plugrt/kernel_c_api.h"
#include "stablehlo/ir.h"

namespace plugrt::kernels_abi {

class KernelAttributes {
 public:
  // INVALID_ARGUMENT (naming the attribute) for a value the ABI cannot
  // express: a dense literal of an element type without a kernel type.
  static StatusOr<std::unique_ptr<const KernelAttributes>> Convert(
      const CustomCallAttributes& attributes);

  KernelAttributes(const KernelAttributes&) = delete;
  KernelAttributes& operator=(const KernelAttributes&) = delete;

  const std::string& backend_config() const { return backend_config_; }
  std::span<const PLUGRT_KernelAttr> dictionary() const { return dictionary_; }
  // The top-level attribute `name`, or null.
  const PLUGRT_KernelAttr* Find(std::string_view name) const;

 private:
  KernelAttributes() = default;
  Status ConvertOne(const std::string& name, const shlo::Attribute& attr, PLUGRT_KernelAttr& out);
  Status ConvertFields(const std::vector<shlo::NamedAttribute>& fields,
                       std::vector<PLUGRT_KernelAttr>& out);
  const char* Keep(std::string text);

  std::string backend_config_;
  std::vector<PLUGRT_KernelAttr> dictionary_;
  // Storage the attributes point into; deques keep element addresses when
  // they grow.
  std::deque<std::string> strings_;
  std::deque<std::vector<int64_t>> ints_;
  std::deque<std::vector<double>> floats_;
  std::deque<std::vector<std::byte>> bytes_;
  std::deque<std::vector<PLUGRT_KernelAttr>> children_;
};

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_KERNEL_ATTRIBUTES_H_
