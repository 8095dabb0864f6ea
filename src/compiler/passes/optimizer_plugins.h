// plugrt passes: optimizer plugins (include/plugrt/optimizer_c_api.h).
//
// Loaded once per client from shared libraries; the optimizers registered for
// the client's device type run, in registration order, on each program the
// client compiles (RunOptimizers), and their configs' switches join the
// user's (Switches).
#ifndef PLUGRT_COMPILER_PASSES_OPTIMIZER_PLUGINS_H_
#define PLUGRT_COMPILER_PASSES_OPTIMIZER_PLUGINS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "compiler/pass_config.h"
#include "plugrt/optimizer_c_api.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

inline constexpr const char* kOptimizerPluginsEnv = "PLUGRT_OPTIMIZER_PLUGINS";

struct RegisteredOptimizer {
  std::string name;
  std::string plugin_path;
  PLUGRT_ModuleFormat format = PLUGRT_ModuleFormat_TEXT;
  PassSwitches switches;
  void* state = nullptr;  // create's result, or the registration's user_data
  void (*destroy)(void*) = nullptr;
  PLUGRT_OptimizeFn optimize = nullptr;

  // "optimizer 'name' (path)", for messages.
  std::string Describe() const;
};

// What the compile tells an optimizer besides the module.
struct OptimizerItemInfo {
  std::vector<int64_t> donated_arguments;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
};

class OptimizerPlugins {
 public:
  // Loads each library of `paths` in order (a path named twice loads once)
  // and keeps the optimizers registered for `device_type` (without case;
  // "host" names "cpu"). Errors name the path: NOT_FOUND for a missing file
  // or init function, FAILED_PRECONDITION for an incompatible API version,
  // INVALID_ARGUMENT for a malformed registration, ALREADY_EXISTS for a name
  // registered twice, the init function's own code and message. Nothing stays
  // loaded after an error.
  static StatusOr<std::shared_ptr<OptimizerPlugins>> Load(const std::vector<std::string>& paths,
                                                          std::string_view device_type);

  ~OptimizerPlugins();
  OptimizerPlugins(const OptimizerPlugins&) = delete;
  OptimizerPlugins& operator=(const OptimizerPlugins&) = delete;

  const std::vector<RegisteredOptimizer>& optimizers() const { return optimizers_; }
  const std::string& device_type() const { return device_type_; }

  // Runs `optimizer` on `module`: serializes it in the optimizer's format,
  // calls it, and reads, verifies and returns its answer (nullptr: it left the
  // module as it was). Errors name the optimizer and its plugin.
  StatusOr<std::unique_ptr<shlo::Module>> Run(const RegisteredOptimizer& optimizer,
                                              const shlo::Module& module,
                                              const OptimizerItemInfo& info) const;

 private:
  explicit OptimizerPlugins(std::string device_type) : device_type_(std::move(device_type)) {}
  Status LoadOne(const std::string& path);

  std::string device_type_;
  std::vector<void*> libraries_;
  std::vector<RegisteredOptimizer> optimizers_;
};

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_OPTIMIZER_PLUGINS_H_
