// plugrt: compile options, the C++ form of the serialized
// xla.CompileOptionsProto that PJRT_Client_Compile and PJRT_Compile receive.
//
// The struct is plain C++; its protobuf codec (compile_options_codec.cc,
// beside this header, in the plugrt_compile_options library) keeps every
// protobuf type out of this header and its users.
#ifndef PLUGRT_COMPILE_OPTIONS_COMPILE_OPTIONS_H_
#define PLUGRT_COMPILE_OPTIONS_COMPILE_OPTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

// Which device runs each (replica, computation) pair; computations are what
// PJRT calls partitions.
struct DeviceAssignment {
  int replicas = 0;
  int computations = 0;
  // Device ids, replica-major: ids[replica * computations + computation].
  std::vector<int64_t> ids;

  int64_t device_id(int replica, int computation) const {
    return ids[static_cast<size_t>(replica) * computations + computation];
  }
};

// The shape and layout the caller promises for one program argument.
struct ArgumentLayout {
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  // Dimension order in memory, fastest-varying first; none: the compiler
  // chooses.
  std::optional<std::vector<int64_t>> minor_to_major;
};

struct CompileOptions {
  // None: the program decides (its mhlo.num_replicas / mhlo.num_partitions
  // attributes, else 1).
  std::optional<int64_t> num_replicas;
  std::optional<int64_t> num_partitions;
  // With num_partitions > 1: one copy of the program per partition (SPMD)
  // rather than a different program per partition (MPMD).
  bool use_spmd_partitioning = false;
  // Ask the compiler to choose shardings itself.
  bool use_auto_spmd_partitioning = false;
  // The device a single-device program is built for; -1: not set.
  int64_t device_ordinal = -1;
  // Build an executable that may run on any one device (execute_device).
  bool compile_portable_executable = false;
  // Arguments arrive as one tuple.
  bool parameter_is_tupled_arguments = false;
  // None: the backend's default assignment.
  std::optional<DeviceAssignment> device_assignment;
  // Empty: no layouts given. Otherwise one per program argument.
  std::vector<ArgumentLayout> argument_layouts;
  // Backend-specific options by name (env_option_overrides, field 7, as
  // upstream's plugins read it). The CPU plugin reads kPassesOverride,
  // kDumpToOverride and kPrintAfterOverride; it refuses other "plugrt_" names
  // and ignores names of other backends.
  using OptionOverride = std::variant<std::string, bool, int64_t, double>;
  std::map<std::string, OptionOverride> env_option_overrides;
};

// "cse=off,..." (compiler/pass_config.h): the user's pass switches.
inline constexpr const char* kPassesOverride = "plugrt_passes";
// A directory: the compile writes its pass report (passes.txt) there, and the
// module after each pass kPrintAfterOverride names.
inline constexpr const char* kDumpToOverride = "plugrt_dump_to";
// Pass names separated by ',' ("all": every pass) whose output module goes to
// kDumpToOverride as after.NN.PASS.mlir.
inline constexpr const char* kPrintAfterOverride = "plugrt_print_after";
// What to do with constants the program file left out (HLO text's
// constant({...}), MLIR's dense_resource<__elided__>): "refuse" (the
// default), "zeros", "random" or "random:SEED" (compiler/importers/
// read_options.h). For timing programs printed without their weights.
inline constexpr const char* kFillElidedOverride = "plugrt_fill_elided";

// Reads a serialized xla.CompileOptionsProto. Empty bytes give the defaults;
// fields plugrt does not read are skipped. Malformed bytes and inconsistent
// values (negative counts, a device assignment whose size disagrees with the
// counts, an invalid layout) are INVALID_ARGUMENT naming the problem; shapes
// plugrt cannot represent (tuples, dynamic dimensions) are UNIMPLEMENTED.
// Defined in plugrt_compile_options.
StatusOr<CompileOptions> DecodeCompileOptions(std::string_view bytes);

// Writes `options` as a serialized xla.CompileOptionsProto (empty for the
// defaults). Defined in plugrt_compile_options.
std::string EncodeCompileOptions(const CompileOptions& options);

// "f32[2,3]" and, with a layout, "f32[2,3]{0,1}": for error messages.
std::string ArgumentLayoutString(const ArgumentLayout& layout);

}  // namespace plugrt

#endif  // PLUGRT_COMPILE_OPTIONS_COMPILE_OPTIONS_H_
