// plugrt tests: checks on what a call returned, in one place.
//  - PLUGRT_EXPECT_OK / PLUGRT_ASSERT_OK (plugrt::Status or StatusOr) and
//    PLUGRT_ASSERT_OK_AND_ASSIGN;
//  - EXPECT_PJRT_OK / ASSERT_PJRT_OK (api, expr): a PJRT_Error* returned
//    through the C ABI of `api` is null; a non-null error is read (code and
//    message, in the failure) and destroyed.
#ifndef PLUGRT_TESTS_TESTUTIL_STATUS_MATCHERS_H_
#define PLUGRT_TESTS_TESTUTIL_STATUS_MATCHERS_H_

#include <gtest/gtest.h>

#include <utility>

#include "common/status.h"
#include "testutil/capi_helpers.h"

namespace plugrt::testing {
inline Status ToStatus(const Status& s) { return s; }
template <typename T>
Status ToStatus(const StatusOr<T>& s) {
  return s.status();
}
}  // namespace plugrt::testing

#define PLUGRT_EXPECT_OK(expr)                                            \
  do {                                                                    \
    const ::plugrt::Status plugrt_s_ = ::plugrt::testing::ToStatus(expr); \
    EXPECT_TRUE(plugrt_s_.ok()) << plugrt_s_.ToString();                  \
  } while (0)
#define PLUGRT_ASSERT_OK(expr)                                            \
  do {                                                                    \
    const ::plugrt::Status plugrt_s_ = ::plugrt::testing::ToStatus(expr); \
    ASSERT_TRUE(plugrt_s_.ok()) << plugrt_s_.ToString();                  \
  } while (0)
#define PLUGRT_ASSERT_OK_AND_ASSIGN(lhs, expr) \
  PLUGRT_ASSERT_OK_AND_ASSIGN_IMPL_(PLUGRT_CONCAT_(plugrt_test_or_, __LINE__), lhs, expr)
#define PLUGRT_ASSERT_OK_AND_ASSIGN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                      \
  ASSERT_TRUE(tmp.ok()) << tmp.status().ToString();       \
  lhs = std::move(tmp).value()

#define EXPECT_PJRT_OK(api, expr)                                                          \
  do {                                                                                     \
    const ::plugrt::testing::CErrorInfo plugrt_info_ =                                     \
        ::plugrt::testing::TakeCError((api), (expr));                                      \
    EXPECT_TRUE(plugrt_info_.ok) << plugrt_info_.code << ": " << plugrt_info_.message;    \
  } while (0)
#define ASSERT_PJRT_OK(api, expr)                                                          \
  do {                                                                                     \
    const ::plugrt::testing::CErrorInfo plugrt_info_ =                                     \
        ::plugrt::testing::TakeCError((api), (expr));                                      \
    ASSERT_TRUE(plugrt_info_.ok) << plugrt_info_.code << ": " << plugrt_info_.message;    \
  } while (0)

#endif  // PLUGRT_TESTS_TESTUTIL_STATUS_MATCHERS_H_
