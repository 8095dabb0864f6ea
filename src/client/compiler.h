// plugrt client: Compiler, ahead-of-time compilation for a topology without
// a client (PJRT_TopologyDescription_Create + PJRT_Compile).
//
//   PLUGRT_ASSIGN_OR_RETURN(Compiler compiler, Compiler::Create(plugin, "cpu:4"));
//   PLUGRT_ASSIGN_OR_RETURN(Executable executable, compiler.Compile(program_text, options));
//   PLUGRT_ASSIGN_OR_RETURN(std::string bytes, executable.Serialize());
//   // ship `bytes`; later Client::DeserializeAndLoad on a client of a
//   // matching topology (as many devices or more) loads them to run.
#ifndef PLUGRT_CLIENT_COMPILER_H_
#define PLUGRT_CLIENT_COMPILER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client/executable.h"
#include "client/topology.h"
#include "compile_options/compile_options.h"
#include "common/named_value.h"
#include "common/status.h"

namespace plugrt {

class Plugin;

// Move-only; keeps its plugin and topology for its lifetime.
class Compiler {
 public:
  // A compiler for the topology the plugin calls `topology_name` (for the
  // CPU plugin "cpu" or "cpu:N"), created with `options`.
  static StatusOr<Compiler> Create(std::shared_ptr<Plugin> plugin, std::string_view topology_name,
                                   const std::vector<NamedValue>& options = {});
  // A compiler for a topology the caller already has (created, deserialized
  // or a client's).
  Compiler(std::shared_ptr<Plugin> plugin, TopologyDescription topology);

  Compiler(Compiler&&) noexcept = default;
  Compiler& operator=(Compiler&&) noexcept = default;
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  const TopologyDescription& topology() const { return topology_; }

  // Compiles `program` (format "mlir": StableHLO) for the topology. The
  // result is not loaded on any device: query its metadata or Serialize()
  // it. It keeps the plugin's library in use, not this compiler.
  StatusOr<Executable> Compile(std::string_view program, const CompileOptions& options = {},
                               std::string_view format = "mlir") const;
  // Same, with `compile_options` a serialized xla.CompileOptionsProto passed
  // through as it is.
  StatusOr<Executable> CompileWithSerializedOptions(std::string_view program,
                                                    std::string_view format,
                                                    std::string_view compile_options) const;

 private:
  std::shared_ptr<Plugin> plugin_;
  TopologyDescription topology_;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_COMPILER_H_
