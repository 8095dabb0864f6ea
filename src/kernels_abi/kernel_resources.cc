#include "kernels_abi/kernel_resources.h"

#include <functional>
#include <vector>

namespace plugrt::kernels_abi {

KernelResource::~KernelResource() {
  if (delete_fn_ == nullptr) return;
  // Plugin code: an exception must not leave a destructor, and there is no
  // caller left to report it to.
  try {
    delete_fn_(object_);
  } catch (...) {
  }
}

StatusOr<std::shared_ptr<KernelResource>> KernelResourceStore::LookupOrCreate(
    const std::string& container, const std::string& name, const CreateFn& create,
    PLUGRT_KernelResourceDelete delete_fn) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<Slot>& entry = slots_[{container, name}];
    if (entry == nullptr) entry = std::make_shared<Slot>();
    slot = entry;
  }
  std::lock_guard<std::mutex> lock(slot->mutex);
  if (slot->resource != nullptr) return slot->resource;
  StatusOr<void*> object = create();
  if (!object.ok()) return object.status();
  auto resource = std::make_shared<KernelResource>(*object, delete_fn);
  {
    // Stored only if the key still names this slot (a Delete or DeleteAll
    // that ran meanwhile wins: the caller still gets its resource, which
    // dies with its last reference).
    std::lock_guard<std::mutex> store_lock(mutex_);
    auto it = slots_.find({container, name});
    if (it != slots_.end() && it->second == slot) slot->resource = resource;
  }
  return resource;
}

Status KernelResourceStore::Delete(const std::string& container, const std::string& name) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = slots_.find({container, name});
    if (it == slots_.end()) {
      return NotFound("no kernel resource '", name, "' in container '", container, "'");
    }
    slot = std::move(it->second);
    slots_.erase(it);
  }
  std::shared_ptr<KernelResource> resource;
  {
    std::lock_guard<std::mutex> lock(slot->mutex);
    resource = std::move(slot->resource);
  }
  if (resource == nullptr) {
    return NotFound("no kernel resource '", name, "' in container '", container, "'");
  }
  return OkStatus();  // `resource` goes here unless a call still holds it
}

void KernelResourceStore::DeleteAll() {
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Slot>> slots;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    slots.swap(slots_);
  }
  for (auto& [key, slot] : slots) {
    std::shared_ptr<KernelResource> resource;
    {
      std::lock_guard<std::mutex> lock(slot->mutex);
      resource = std::move(slot->resource);
    }
  }
}

}  // namespace plugrt::kernels_abi
