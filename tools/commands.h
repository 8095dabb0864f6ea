// plugrt CLI: the subcommands and what they share.
#ifndef PLUGRT_TOOLS_COMMANDS_H_
#define PLUGRT_TOOLS_COMMANDS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/client.h"
#include "common/status.h"

namespace CLI {
class App;
}

namespace plugrt::tools {

// Options every subcommand that talks to a plugin takes.
struct PluginOptions {
  std::string plugin_path;       // a name or path (FindPlugin); empty: the CPU plugin
  std::optional<int> devices;    // --devices N: cpu_device_count create option
  // --kernels PATH (repeatable): kernel plugins, the kernel_plugins create
  // option (paths joined with ':').
  std::vector<std::string> kernels;
  // --optimizers PATH (repeatable): optimizer plugins, the optimizer_plugins
  // create option.
  std::vector<std::string> optimizers;
  // Not a flag: `plugrt conformance-file` sets it. The conformance_harness
  // create option is passed when the plugin's attributes announce it (the
  // CPU plugin's do), so that the corpus' check.* and interpreter.* ops
  // compile; other plugins get no option they do not know.
  bool conformance_harness = false;
};
void AddPluginOptions(CLI::App& command, PluginOptions& options);
// The --kernels flag alone (for commands with their own plugin flags).
void AddKernelsOption(CLI::App& command, std::vector<std::string>& kernels);
// The kernel_plugins create option for `kernels`; none when it is empty.
void AddKernelPluginsOption(const std::vector<std::string>& kernels,
                            std::vector<NamedValue>& create_options);
// The --optimizers flag alone.
void AddOptimizersOption(CLI::App& command, std::vector<std::string>& optimizers);
// The create option `name` (kernel_plugins, optimizer_plugins) listing
// `paths` joined with ':'; none when `paths` is empty.
void AddPathListOption(const char* name, const std::vector<std::string>& paths,
                       std::vector<NamedValue>& create_options);

// The built-in CPU plugin: $PLUGRT_CPU_PLUGIN if set, else the one in the
// install's lib/plugrt/ (InstallPluginDirectories), else the library beside
// this executable's folder (build/bin/plugrt -> build/lib/libplugrt_cpu.so).
std::string DefaultPluginPath();

// Loads the plugin and creates a client as `options` say.
StatusOr<std::unique_ptr<Client>> OpenClient(const PluginOptions& options);

// The executable in `path` loaded onto `client`: a serialized executable
// (bytes starting with kSerializedExecutableMagic, as `plugrt compile`
// writes) is handed to DeserializeAndLoad; anything else is program text,
// with @`entry` made the entry function, and is compiled as `read` says.
// Errors name `path`.
inline constexpr std::string_view kSerializedExecutableMagic = "PLUGRTEX";
struct ProgramReadFlags {
  // --fill-elided: how constants the file left out are filled (compile
  // option kFillElidedOverride); empty: refused.
  std::string fill_elided;
  // --format: the PJRT program format ("mlir": StableHLO/MHLO text or
  // bytecode or HLO text, told by content; "hlo" / "hlo_with_config": a
  // serialized HloModuleProto[WithConfig], which content cannot tell).
  std::string format = "mlir";
};
StatusOr<LoadedExecutable> LoadProgramFile(const Client& client, const std::string& path,
                                           const std::string& entry = "main",
                                           const ProgramReadFlags& read = {});
// Compiles `program` (the contents of `path`) as `read` says; errors name
// `path` (run, inspect and bench).
StatusOr<LoadedExecutable> CompileProgram(const Client& client, std::string_view program,
                                          const std::string& path,
                                          const ProgramReadFlags& read = {});
// The --fill-elided option of run, inspect, bench and convert.
void AddFillElidedOption(CLI::App* command, std::string& fill_elided);
// --fill-elided and --format (run, inspect).
void AddProgramReadOptions(CLI::App* command, ProgramReadFlags& read);

// Each Register* adds one subcommand; its callback stores the exit code.
void RegisterDevicesCommand(CLI::App& app, int& exit_code);
void RegisterRunCommand(CLI::App& app, int& exit_code);
void RegisterCompileCommand(CLI::App& app, int& exit_code);
void RegisterInspectCommand(CLI::App& app, int& exit_code);
void RegisterBenchCommand(CLI::App& app, int& exit_code);
void RegisterConvertCommand(CLI::App& app, int& exit_code);
void RegisterGradCommand(CLI::App& app, int& exit_code);
void RegisterPluginsCommand(CLI::App& app, int& exit_code);
void RegisterLaunchCommand(CLI::App& app, int& exit_code);
void RegisterServeCommand(CLI::App& app, int& exit_code);
// `completion bash`: register it last, it describes the others.
void RegisterCompletionCommand(CLI::App& app, int& exit_code);
// `conformance`, and the hidden `conformance-file` it runs each file in.
void RegisterConformanceCommands(CLI::App& app, int& exit_code);
void RegisterConformanceFileCommand(CLI::App& app, int& exit_code);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_COMMANDS_H_
