// plugrt tests: small helpers for calling a PJRT_Api table directly through
// the C ABI (argument structs, error inspection).
#ifndef PLUGRT_TESTS_TESTUTIL_CAPI_HELPERS_H_
#define PLUGRT_TESTS_TESTUTIL_CAPI_HELPERS_H_

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "pjrt_c_api.h"

namespace plugrt::testing {

// A zeroed struct with the given struct_size.
template <typename T>
T MakeCStruct(size_t struct_size) {
  T value;
  std::memset(static_cast<void*>(&value), 0, sizeof(T));
  value.struct_size = struct_size;
  return value;
}

struct CErrorInfo {
  bool ok = true;
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string message;
};

// Reads code and message of `error` through `api`, then destroys it.
inline CErrorInfo TakeCError(const PJRT_Api* api, PJRT_Error* error) {
  CErrorInfo info;
  if (error == nullptr) return info;
  info.ok = false;
  auto code = MakeCStruct<PJRT_Error_GetCode_Args>(PJRT_Error_GetCode_Args_STRUCT_SIZE);
  code.error = error;
  PJRT_Error* code_error = api->PJRT_Error_GetCode(&code);
  EXPECT_EQ(code_error, nullptr);
  info.code = code.code;
  auto message = MakeCStruct<PJRT_Error_Message_Args>(PJRT_Error_Message_Args_STRUCT_SIZE);
  message.error = error;
  api->PJRT_Error_Message(&message);
  info.message.assign(message.message, message.message_size);
  auto destroy = MakeCStruct<PJRT_Error_Destroy_Args>(PJRT_Error_Destroy_Args_STRUCT_SIZE);
  destroy.error = error;
  api->PJRT_Error_Destroy(&destroy);
  return info;
}

// Expects `error` to have `code` and a message containing both parts.
inline void ExpectCError(const PJRT_Api* api, PJRT_Error* error, PJRT_Error_Code code,
                         const std::string& part1, const std::string& part2 = "") {
  CErrorInfo info = TakeCError(api, error);
  ASSERT_FALSE(info.ok) << "expected an error containing " << part1;
  EXPECT_EQ(info.code, code) << info.message;
  EXPECT_NE(info.message.find(part1), std::string::npos) << info.message;
  EXPECT_NE(info.message.find(part2), std::string::npos) << info.message;
}

}  // namespace plugrt::testing

// Args of `fn` with its 0.94 struct_size.
#define PLUGRT_C_ARGS(fn) ::plugrt::testing::MakeCStruct<fn##_Args>(fn##_Args_STRUCT_SIZE)

#endif  // PLUGRT_TESTS_TESTUTIL_CAPI_HELPERS_H_
