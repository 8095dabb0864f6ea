// plugrt kernel plugins: the resources handlers keep in a client, by
// (container, name), each with the delete function its creator gave.
//
// Guarantees (kernel_c_api.h states them to plugins): create runs at most
// once per live key even when handlers race (the others wait for it); a
// resource a call looked up stays alive until that call ends (the call holds
// a reference); the delete function runs exactly once, when the last
// reference goes: after an explicit Delete and the calls holding it, or at
// DeleteAll (the client's destruction).
#ifndef PLUGRT_KERNELS_ABI_KERNEL_RESOURCES_H_
#define PLUGRT_KERNELS_ABI_KERNEL_RESOURCES_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "common/status.h"
#include "plugrt/kernel_c_api.h"

namespace plugrt::kernels_abi {

// One created resource; its destructor runs the delete function.
class KernelResource {
 public:
  KernelResource(void* object, PLUGRT_KernelResourceDelete delete_fn)
      : object_(object), delete_fn_(delete_fn) {}
  ~KernelResource();
  KernelResource(const KernelResource&) = delete;
  KernelResource& operator=(const KernelResource&) = delete;
  void* object() const { return object_; }

 private:
  void* object_;
  PLUGRT_KernelResourceDelete delete_fn_;
};

class KernelResourceStore {
 public:
  // Runs `create` when (container, name) is absent: it returns the new
  // object, or fails with a status (nothing is stored then).
  using CreateFn = std::function<StatusOr<void*>()>;
  StatusOr<std::shared_ptr<KernelResource>> LookupOrCreate(const std::string& container,
                                                           const std::string& name,
                                                           const CreateFn& create,
                                                           PLUGRT_KernelResourceDelete delete_fn);
  // NOT_FOUND when absent.
  Status Delete(const std::string& container, const std::string& name);
  // Drops every resource (delete functions run as their last users finish).
  void DeleteAll();
  ~KernelResourceStore() { DeleteAll(); }

 private:
  // A key's slot: its lock serializes creation of that key only, so a
  // create function may itself look up other resources.
  struct Slot {
    std::mutex mutex;
    std::shared_ptr<KernelResource> resource;
  };
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Slot>> slots_;
};

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_KERNEL_RESOURCES_H_
