// plugrt distributed: Gloo's rendezvous store over a plugrt KeyValueStore
// (for the CPU plugin: the PJRT key-value callbacks the framework passed to
// PJRT_Client_Create), with every key under a prefix.
#ifndef PLUGRT_DISTRIBUTED_GLOO_STORE_H_
#define PLUGRT_DISTRIBUTED_GLOO_STORE_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <gloo/rendezvous/store.h>

#include "common/key_value_store.h"

namespace plugrt::distributed {

// Gloo reports store failures only by exception: errors of the underlying
// store are thrown as gloo::IoException with its message.
class GlooStore final : public gloo::rendezvous::Store {
 public:
  GlooStore(std::shared_ptr<KeyValueStore> store, std::string prefix,
            std::chrono::milliseconds timeout)
      : store_(std::move(store)), prefix_(std::move(prefix)), timeout_(timeout) {}

  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

 private:
  std::shared_ptr<KeyValueStore> store_;
  std::string prefix_;
  std::chrono::milliseconds timeout_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_GLOO_STORE_H_
