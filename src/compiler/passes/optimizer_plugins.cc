#include "compiler/passes/optimizer_plugins.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include "common/plugin_library.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/read_program.h"
#include "compiler/importers/bytecode/writer.h"
#include "stablehlo/printer.h"
#include "stablehlo/verifier.h"

// The ABI's opaque types: what the runtime keeps for one init call and one
// optimize call.
struct PLUGRT_OptimizerRegistrar {
  std::function<plugrt::Status(const PLUGRT_OptimizerRegistration&)> add;
  plugrt::Status first_error;
};

struct PLUGRT_OptimizerOutput {
  bool has_module = false;
  std::string module;
  plugrt::Status error;
};

namespace plugrt::passes {
namespace {

StatusCode CodeOf(PLUGRT_OptimizerCode code) {
  const int value = static_cast<int>(code);
  // Codes outside PJRT's range read as UNKNOWN rather than as nonsense.
  return value > 0 && value <= 16 ? static_cast<StatusCode>(value) : StatusCode::kUnknown;
}

PLUGRT_OptimizerCode Register(PLUGRT_OptimizerRegistrar* registrar,
                              const PLUGRT_OptimizerRegistration* registration) {
  if (registrar == nullptr) return PLUGRT_OptimizerCode_INVALID_ARGUMENT;
  Status status =
      registration == nullptr
          ? InvalidArgument("Register: the registration is NULL")
          : registrar->add(*registration);
  if (status.ok()) return PLUGRT_OptimizerCode_OK;
  if (registrar->first_error.ok()) registrar->first_error = status;
  return static_cast<PLUGRT_OptimizerCode>(status.code());
}

void SetModule(PLUGRT_OptimizerOutput* output, const void* data, size_t size) {
  if (output == nullptr) return;
  if (data == nullptr && size > 0) {
    output->error = InvalidArgument("Output_SetModule: data is NULL with size ", size);
    return;
  }
  output->has_module = true;
  output->module.assign(static_cast<const char*>(data), size);
}

void SetError(PLUGRT_OptimizerOutput* output, PLUGRT_OptimizerCode code, const char* message) {
  if (output == nullptr) return;
  StatusCode status_code = CodeOf(code);
  if (code == PLUGRT_OptimizerCode_OK) status_code = StatusCode::kUnknown;
  output->error = Status(status_code, message != nullptr ? message : "(no message)");
}

const PLUGRT_OptimizerApi* Api() {
  static const PLUGRT_OptimizerApi api = {
      PLUGRT_OPTIMIZER_STRUCT_SIZE(PLUGRT_OptimizerApi, Output_SetError),
      PLUGRT_OPTIMIZER_API_MAJOR,
      PLUGRT_OPTIMIZER_API_MINOR,
      PLUGRT_OPTIMIZER_API_PATCH,
      &Register,
      &SetModule,
      &SetError,
  };
  return &api;
}

// Reads `registration` (of the plugin's struct_size) into a copy of our own
// layout, fields the plugin lacks left zero.
StatusOr<PLUGRT_OptimizerRegistration> ReadRegistration(const PLUGRT_OptimizerRegistration& r) {
  constexpr size_t kMinimum = PLUGRT_OPTIMIZER_STRUCT_SIZE(PLUGRT_OptimizerRegistration, optimize);
  if (r.struct_size < kMinimum) {
    return InvalidArgument("registration struct_size is ", r.struct_size, "; at least ", kMinimum,
                           " (PLUGRT_OPTIMIZER_REGISTRATION_STRUCT_SIZE) is needed");
  }
  PLUGRT_OptimizerRegistration copy{};
  std::memcpy(&copy, &r, std::min(r.struct_size, sizeof(copy)));
  return copy;
}

}  // namespace

std::string RegisteredOptimizer::Describe() const {
  return StrCat("optimizer '", name, "' (", plugin_path, ")");
}

StatusOr<std::shared_ptr<OptimizerPlugins>> OptimizerPlugins::Load(
    const std::vector<std::string>& paths, std::string_view device_type) {
  std::shared_ptr<OptimizerPlugins> plugins(new OptimizerPlugins(PlatformKey(device_type)));
  for (size_t i = 0; i < paths.size(); ++i) {
    if (std::find(paths.begin(), paths.begin() + static_cast<ptrdiff_t>(i), paths[i]) !=
        paths.begin() + static_cast<ptrdiff_t>(i)) {
      continue;
    }
    PLUGRT_RETURN_IF_ERROR(plugins->LoadOne(paths[i]));
  }
  return plugins;
}

Status OptimizerPlugins::LoadOne(const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(void* library, OpenPluginLibrary("optimizer", path));
  libraries_.push_back(library);  // closed by the destructor, also on error
  auto init = reinterpret_cast<PLUGRT_OptimizerPluginInitFn>(
      dlsym(library, PLUGRT_OPTIMIZER_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) {
    return NotFound("optimizer plugin '", path, "' exports no ",
                    PLUGRT_OPTIMIZER_PLUGIN_INIT_SYMBOL,
                    " (is it a plugrt optimizer plugin? include/plugrt/optimizer_c_api.h)");
  }
  PLUGRT_OptimizerRegistrar registrar;
  registrar.add = [&](const PLUGRT_OptimizerRegistration& given) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PLUGRT_OptimizerRegistration r, ReadRegistration(given));
    const std::string name = r.name != nullptr ? r.name : "";
    if (r.api_major != PLUGRT_OPTIMIZER_API_MAJOR || r.api_minor > PLUGRT_OPTIMIZER_API_MINOR) {
      return FailedPrecondition("optimizer '", name, "' was built for optimizer API ",
                                r.api_major, ".", r.api_minor, ".", r.api_patch,
                                "; this runtime has ", PLUGRT_OPTIMIZER_API_MAJOR, ".",
                                PLUGRT_OPTIMIZER_API_MINOR, ".", PLUGRT_OPTIMIZER_API_PATCH,
                                " (same major and a minor no newer needed)");
    }
    if (name.empty()) return InvalidArgument("an optimizer registration has no name");
    if (r.device_type == nullptr || *r.device_type == '\0') {
      return InvalidArgument("optimizer '", name, "' names no device type");
    }
    if (r.optimize == nullptr) return InvalidArgument("optimizer '", name, "' has no optimize");
    if (r.module_format != PLUGRT_ModuleFormat_TEXT &&
        r.module_format != PLUGRT_ModuleFormat_BYTECODE) {
      return InvalidArgument("optimizer '", name, "' asks for module format ",
                             static_cast<int>(r.module_format), "; 0 (text) or 1 (bytecode)");
    }
    if (PlatformKey(r.device_type) != device_type_) return OkStatus();
    for (const RegisteredOptimizer& existing : optimizers_) {
      if (existing.name == name) {
        return MakeError(StatusCode::kAlreadyExists, "optimizer '", name, "' for device type ", device_type_,
                             " is already registered by '", existing.plugin_path, "'");
      }
    }
    RegisteredOptimizer entry;
    entry.name = name;
    entry.plugin_path = path;
    entry.format = r.module_format;
    if (r.configs != nullptr) {
      StatusOr<PassSwitches> switches = SwitchesFromConfigs(*r.configs);
      if (!switches.ok()) {
        return InvalidArgument("optimizer '", name, "': ", switches.status().message());
      }
      entry.switches = *switches;
    }
    entry.state = r.user_data;
    entry.destroy = r.destroy;
    entry.optimize = r.optimize;
    if (r.create != nullptr) {
      entry.state = r.create(r.user_data);
      if (entry.state == nullptr) {
        return Internal("optimizer '", name, "': create returned NULL");
      }
    }
    optimizers_.push_back(std::move(entry));
    return OkStatus();
  };
  Status status;
  try {
    const PLUGRT_OptimizerCode code = init(Api(), &registrar);
    if (!registrar.first_error.ok()) {
      status = registrar.first_error;
    } else if (code != PLUGRT_OptimizerCode_OK) {
      status = Status(CodeOf(code), StrCat(PLUGRT_OPTIMIZER_PLUGIN_INIT_SYMBOL, " failed"));
    }
  } catch (...) {
    status = Internal(PLUGRT_OPTIMIZER_PLUGIN_INIT_SYMBOL, " ",
                      CurrentExceptionText());
  }
  if (!status.ok()) {
    return Status(status.code(), StrCat("optimizer plugin '", path, "': ", status.message()));
  }
  return OkStatus();
}

OptimizerPlugins::~OptimizerPlugins() {
  // destroy is the plugins' code: it runs while the library is loaded.
  for (RegisteredOptimizer& optimizer : optimizers_) {
    if (optimizer.destroy != nullptr) optimizer.destroy(optimizer.state);
  }
  for (auto it = libraries_.rbegin(); it != libraries_.rend(); ++it) dlclose(*it);
}

StatusOr<std::unique_ptr<shlo::Module>> OptimizerPlugins::Run(
    const RegisteredOptimizer& optimizer, const shlo::Module& module,
    const OptimizerItemInfo& info) const {
  auto named = [&](const Status& status) {
    return Status(status.code(), StrCat(optimizer.Describe(), ": ", status.message()));
  };
  std::string serialized;
  if (optimizer.format == PLUGRT_ModuleFormat_BYTECODE) {
    StatusOr<std::string> bytes = shlo::WriteBytecodeModule(module, "");
    if (!bytes.ok()) return named(bytes.status());
    serialized = std::move(*bytes);
  } else {
    serialized = shlo::PrintModule(module);
  }
  const shlo::Function* entry = module.EntryFunction();
  if (entry == nullptr) return named(InvalidArgument("the program has no entry function"));
  std::vector<std::string> argument_types, result_types;
  for (const shlo::Type& type : entry->input_types) argument_types.push_back(type.ToString());
  for (const shlo::Type& type : entry->result_types) result_types.push_back(type.ToString());
  std::vector<const char*> argument_ptrs, result_ptrs;
  for (const std::string& type : argument_types) argument_ptrs.push_back(type.c_str());
  for (const std::string& type : result_types) result_ptrs.push_back(type.c_str());

  PLUGRT_OptimizerItem item{};
  item.struct_size = PLUGRT_OPTIMIZER_ITEM_STRUCT_SIZE;
  item.device_type = device_type_.c_str();
  item.entry_function = entry->name.c_str();
  item.num_arguments = argument_ptrs.size();
  item.argument_types = argument_ptrs.data();
  item.num_results = result_ptrs.size();
  item.result_types = result_ptrs.data();
  item.num_donated_arguments = info.donated_arguments.size();
  item.donated_arguments = info.donated_arguments.data();
  item.num_replicas = info.num_replicas;
  item.num_partitions = info.num_partitions;

  PLUGRT_OptimizerOutput output;
  try {
    optimizer.optimize(optimizer.state, serialized.c_str(), serialized.size(), &item, &output);
  } catch (...) {
    return named(Internal("optimize ", CurrentExceptionText()));
  }
  if (!output.error.ok()) return named(output.error);
  if (!output.has_module) return std::unique_ptr<shlo::Module>();
  const std::string file_name = StrCat("<", optimizer.name, " output>");
  StatusOr<std::unique_ptr<shlo::Module>> rewritten = shlo::ReadProgram(output.module, file_name);
  if (!rewritten.ok()) {
    return named(InvalidArgument("returned a module that cannot be read: ",
                                 rewritten.status().message()));
  }
  Status verified = shlo::VerifyModule(**rewritten);
  if (!verified.ok()) {
    return named(InvalidArgument("returned an invalid module: ", verified.message()));
  }
  return std::move(*rewritten);
}

}  // namespace plugrt::passes
