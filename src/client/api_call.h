// plugrt client (internal): the one way every wrapper calls a PJRT function.
//
//   auto args = NewArgs<PJRT_Device_LocalHardwareId_Args>();
//   args.device = device;
//   PLUGRT_RETURN_IF_ERROR(Call(api, args));
//
// NewArgs zeroes the struct and sets struct_size; Call finds the function
// from the args type, checks that the plugin's table is long enough to have
// the slot and that it is set (UNIMPLEMENTED naming the function and the
// plugin's version otherwise), calls it and turns the PJRT_Error into a
// Status.
#ifndef PLUGRT_CLIENT_API_CALL_H_
#define PLUGRT_CLIENT_API_CALL_H_

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "client/error.h"
#include "common/pjrt_functions.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::internal {

// A PJRT_Program over `code` in `format`; both must outlive the call it is
// passed to. (The ABI's code pointer is non-const because other calls write
// through it; the compile entries only read.)
inline PJRT_Program ProgramFor(std::string_view code, std::string_view format) {
  PJRT_Program program;
  std::memset(&program, 0, sizeof(program));
  program.struct_size = PJRT_Program_STRUCT_SIZE;
  program.code = const_cast<char*>(code.data());
  program.code_size = code.size();
  program.format = format.data();
  program.format_size = format.size();
  return program;
}

// What the client knows of each PJRT function, generated from the one list
// (common/pjrt_functions.h): its name, where its slot ends in the table, the
// struct_size the client passes, and the slot itself.
template <typename Args>
struct ApiSlot;

#define PLUGRT_API_SLOT_(Name, last_original, null_handle)                              \
  template <>                                                                          \
  struct ApiSlot<Name##_Args> {                                                        \
    static constexpr std::string_view kName = #Name;                                   \
    static constexpr size_t kEnd = offsetof(PJRT_Api, Name) + sizeof(PJRT_Api::Name);  \
    static constexpr size_t kArgsSize = Name##_Args_STRUCT_SIZE;                       \
    static Name* Get(const PJRT_Api* api) { return api->Name; }                        \
  };
PLUGRT_PJRT_FUNCTIONS(PLUGRT_API_SLOT_)
#undef PLUGRT_API_SLOT_

// Whether `api`'s table has the slot ending at byte `end` (the rest of the
// check, non-null, needs the typed slot).
inline bool TableCovers(const PJRT_Api* api, size_t end) { return api->struct_size >= end; }

// The UNIMPLEMENTED error for a slot the plugin lacks: beyond its table
// (`beyond_table`) or left null.
Status MissingSlot(const PJRT_Api* api, std::string_view name, bool beyond_table);

// A zeroed args struct of this client's size for the function.
template <typename Args>
Args NewArgs() {
  static_assert(std::is_trivially_copyable_v<Args>);
  Args args;
  std::memset(&args, 0, sizeof(args));
  args.struct_size = ApiSlot<Args>::kArgsSize;
  return args;
}

template <typename Args>
Status Call(const PJRT_Api* api, Args& args) {
  using Slot = ApiSlot<Args>;
  if (api == nullptr) return FailedPrecondition(Slot::kName, " called without a plugin (null table)");
  if (!TableCovers(api, Slot::kEnd)) return MissingSlot(api, Slot::kName, true);
  auto* fn = Slot::Get(api);
  if (fn == nullptr) return MissingSlot(api, Slot::kName, false);
  return StatusFromPjrtError(api, fn(&args));
}

// A std::string from a plugin's (pointer, size) pair; empty for nullptr.
inline std::string StringFromC(const char* data, size_t size) {
  return data == nullptr ? std::string() : std::string(data, size);
}

}  // namespace plugrt::internal

#endif  // PLUGRT_CLIENT_API_CALL_H_
