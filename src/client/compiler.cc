#include "client/compiler.h"

#include <cstring>
#include <utility>

#include "client/api_call.h"
#include "client/plugin.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;

StatusOr<Compiler> Compiler::Create(std::shared_ptr<Plugin> plugin, std::string_view topology_name,
                                    const std::vector<NamedValue>& options) {
  if (plugin == nullptr) return InvalidArgument("Compiler::Create needs a plugin");
  PLUGRT_ASSIGN_OR_RETURN(TopologyDescription topology,
                          TopologyDescription::Create(plugin, topology_name, options));
  return Compiler(std::move(plugin), std::move(topology));
}

Compiler::Compiler(std::shared_ptr<Plugin> plugin, TopologyDescription topology)
    : plugin_(std::move(plugin)), topology_(std::move(topology)) {}

StatusOr<Executable> Compiler::Compile(std::string_view program, const CompileOptions& options,
                                        std::string_view format) const {
  const std::string encoded = EncodeCompileOptions(options);
  return CompileWithSerializedOptions(program, format, encoded);
}

StatusOr<Executable> Compiler::CompileWithSerializedOptions(
    std::string_view program_text, std::string_view format,
    std::string_view compile_options) const {
  if (plugin_ == nullptr || topology_.raw() == nullptr) {
    return FailedPrecondition("Compiler has no topology (moved from?)");
  }
  const PJRT_Api* api = plugin_->api();
  PJRT_Program program = internal::ProgramFor(program_text, format);

  auto args = NewArgs<PJRT_Compile_Args>();
  args.topology = topology_.raw();
  args.program = &program;
  args.compile_options = compile_options.data();
  args.compile_options_size = compile_options.size();
  args.client = nullptr;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  if (args.executable == nullptr) return Internal("plugin's PJRT_Compile returned a null executable");
  return Executable(plugin_, api, args.executable);
}

}  // namespace plugrt
