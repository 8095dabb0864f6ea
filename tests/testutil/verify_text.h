// Verifier tests: parse a program given as text and run the verifier on it.
#ifndef PLUGRT_TESTS_TESTUTIL_VERIFY_TEXT_H_
#define PLUGRT_TESTS_TESTUTIL_VERIFY_TEXT_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "stablehlo/parser.h"
#include "stablehlo/verifier.h"

namespace plugrt::testutil {

// The verifier's answer for `text`, parsed as file "test.mlir". A parse
// error is returned as it is (tests of the verifier expect programs that
// parse).
inline Status VerifyText(std::string_view text) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(text, "test.mlir");
  if (!module.ok()) return Status(module.status().code(), "parse error: " + module.status().message());
  return shlo::VerifyModule(**module);
}

// Expects the verifier to reject `text` with a message containing each of
// `parts` (e.g. "test.mlir:3:10", "(C2)").
template <typename... Parts>
void ExpectViolation(std::string_view text, const Parts&... parts) {
  Status status = VerifyText(text);
  ASSERT_FALSE(status.ok()) << "the verifier accepted:\n" << text;
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  EXPECT_EQ(status.message().find("parse error"), std::string::npos) << status.ToString();
  for (std::string_view part : {std::string_view(parts)...}) {
    EXPECT_NE(status.message().find(part), std::string::npos)
        << "missing '" << part << "' in: " << status.ToString();
  }
}

inline void ExpectValid(std::string_view text) {
  Status status = VerifyText(text);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\nfor:\n" << text;
}

}  // namespace plugrt::testutil

#endif  // PLUGRT_TESTS_TESTUTIL_VERIFY_TEXT_H_
