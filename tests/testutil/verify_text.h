// Verifier tests: parse a program given as text and run the verifier on it.
#ifndef PLUGRT_TESTS_TESTUTIL_VERIFY_TEXT_H_
#define PLUGRT_TESTS_TESTUTIL_VERIFY_TEXT_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/importers/mlir/parser.h"
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

// Where the op of a MainProgram stands.
inline constexpr std::string_view kOpAt = "test.mlir:3:3";

// A @main taking `args` whose body is `op` (at line 3, column 3, defining
// %0) and a return of `ret` of type `result`.
inline std::string MainProgram(std::string_view args, std::string_view op,
                               std::string_view result, std::string_view ret = "%0") {
  return StrCat("\nfunc.func @main(", args, ") -> ", result, " {\n  ", op, "\n  return ", ret,
                " : ", result, "\n}\n");
}

// A MainProgram whose op is `%0 = "stablehlo.<name>"(%a, %b, ...) {<attrs>}`
// over arguments %a, %b, ... of types `operands`, returning `result`.
inline std::string GenericOpProgram(std::string_view name,
                                    const std::vector<std::string_view>& operands,
                                    std::string_view result, std::string_view attrs = "") {
  std::string args, values, types;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string value = StrCat("%", std::string(1, static_cast<char>('a' + i)));
    const std::string_view comma = i == 0 ? "" : ", ";
    args += StrCat(comma, value, ": ", operands[i]);
    values += StrCat(comma, value);
    types += StrCat(comma, operands[i]);
  }
  const std::string dictionary = attrs.empty() ? "" : StrCat(" {", attrs, "}");
  return MainProgram(args,
                     StrCat("%0 = \"stablehlo.", name, "\"(", values, ")", dictionary, " : (",
                            types, ") -> ", result),
                     result);
}

inline void ExpectValid(std::string_view text) {
  Status status = VerifyText(text);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\nfor:\n" << text;
}

}  // namespace plugrt::testutil

#endif  // PLUGRT_TESTS_TESTUTIL_VERIFY_TEXT_H_
