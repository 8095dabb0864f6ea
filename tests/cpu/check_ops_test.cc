// The corpus's check ops (src/cpu/exec/check_ops.cc; semantics in the
// corpus README) on values just inside and just outside what each allows.
// The conformance floors count programs these checks pass, so a check grown
// lenient (or strict) must fail here first. Programs run as the conformance
// runner runs them: compiled and executed through the dlopen-loaded plugin.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "client/client.h"
#include "client/executable.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

Status Run(const std::string& text) {
  static StatusOr<std::unique_ptr<Client>> client = testing::CreateHarnessCpuClient();
  if (!client.ok()) return client.status();
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, (*client)->Compile(text));
  PLUGRT_ASSIGN_OR_RETURN(auto outputs, executable.Execute({}));
  (void)outputs;
  return OkStatus();
}

// A program comparing `actual` with `expected`, both constants of `type`,
// through `check`, where %a and %b name the two values.
std::string Program(const std::string& type, const std::string& actual,
                    const std::string& expected, const std::string& check) {
  return "func.func @main() {\n"
         "  %a = stablehlo.constant dense<" + actual + "> : " + type + "\n"
         "  %b = stablehlo.constant dense<" + expected + "> : " + type + "\n"
         "  " + check + "\n"
         "  func.return\n"
         "}\n";
}

// The custom-call form of testdata/: `@target(%a, %b)`.
std::string CustomCall(const std::string& target, const std::string& type,
                       const std::string& actual, const std::string& expected) {
  return Program(type, actual, expected,
                 "stablehlo.custom_call @" + target + "(%a, %b) {has_side_effect = true} : (" +
                     type + ", " + type + ") -> ()");
}

::testing::AssertionResult Passes(const std::string& text) {
  Status status = Run(text);
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.ToString() << "\nin\n" << text;
}

// Fails as a mismatch: ABORTED, naming the check and the element.
::testing::AssertionResult Mismatches(const std::string& text, const std::string& check) {
  Status status = Run(text);
  if (status.ok()) return ::testing::AssertionFailure() << "passed:\n" << text;
  if (status.code() != StatusCode::kAborted ||
      status.message().find(check + " failed") == std::string::npos) {
    return ::testing::AssertionFailure()
           << "wanted ABORTED \"" << check << " failed...\", got " << status.ToString();
  }
  return ::testing::AssertionSuccess();
}

// Refused before it runs: INVALID_ARGUMENT saying `message`.
::testing::AssertionResult Refused(const std::string& text, const std::string& message) {
  Status status = Run(text);
  if (status.ok()) return ::testing::AssertionFailure() << "passed:\n" << text;
  if (status.code() != StatusCode::kInvalidArgument ||
      status.message().find(message) == std::string::npos) {
    return ::testing::AssertionFailure() << "wanted INVALID_ARGUMENT \"" << message << "\", got "
                                         << status.ToString();
  }
  return ::testing::AssertionSuccess();
}

// ---- check.expect_eq: bit for bit, except that any NaN equals any NaN ------

TEST(CheckOpsTest, ExpectEqIsExact) {
  const std::string eq = "check.expect_eq";
  EXPECT_TRUE(Passes(CustomCall(eq, "tensor<3xi32>", "[1, -2, 3]", "[1, -2, 3]")));
  EXPECT_TRUE(Mismatches(CustomCall(eq, "tensor<3xi32>", "[1, -2, 3]", "[1, -2, 4]"), eq));
  EXPECT_TRUE(Mismatches(CustomCall(eq, "tensor<2xi1>", "[true, false]", "[true, true]"), eq));
  // One ULP apart, and the two zeros: different bits.
  EXPECT_TRUE(Mismatches(CustomCall(eq, "tensor<f32>", "0x3F800001", "0x3F800000"), eq));
  EXPECT_TRUE(Mismatches(CustomCall(eq, "tensor<f32>", "0.0", "-0.0"), eq));
  // NaNs of different payloads are equal; NaN is not a number's equal.
  EXPECT_TRUE(Passes(CustomCall(eq, "tensor<f32>", "0x7FC00000", "0x7FC00001")));
  EXPECT_TRUE(Mismatches(CustomCall(eq, "tensor<f32>", "0x7FC00000", "1.0"), eq));
  EXPECT_TRUE(Mismatches(CustomCall(eq, "tensor<f32>", "1.0", "0x7FC00000"), eq));
  EXPECT_TRUE(Mismatches(CustomCall(eq, "tensor<complex<f32>>", "(1.0, 2.0)", "(1.0, -2.0)"), eq));
  // The dialect form.
  EXPECT_TRUE(Passes(Program("tensor<2xi64>", "[5, 6]", "[5, 6]", "check.expect_eq %a, %b : tensor<2xi64>")));
  EXPECT_TRUE(Mismatches(
      Program("tensor<2xi64>", "[5, 6]", "[5, 7]", "check.expect_eq %a, %b : tensor<2xi64>"), eq));
}

TEST(CheckOpsTest, ExpectEqConstIsExact) {
  const std::string eq = "check.expect_eq_const";
  auto check = [](const std::string& type, const std::string& actual, const std::string& expected) {
    return Program(type, actual, actual,
                   "check.expect_eq_const %a, dense<" + expected + "> : " + type);
  };
  EXPECT_TRUE(Passes(check("tensor<2xi64>", "[1, 2]", "[1, 2]")));
  EXPECT_TRUE(Mismatches(check("tensor<2xi64>", "[1, 2]", "[1, 3]"), eq));
  EXPECT_TRUE(Mismatches(check("tensor<f64>", "0.0", "-0.0"), eq));
  EXPECT_TRUE(Passes(check("tensor<f32>", "0x7FC00000", "0x7FC00000")));
  EXPECT_TRUE(Mismatches(check("tensor<f32>", "0x7FC00000", "0.0"), eq));
}

// ---- check.expect_close: at most 3 ULP, counted in the element's format ----

TEST(CheckOpsTest, ExpectCloseAllowsThreeUlp) {
  const std::string close = "check.expect_close";
  auto call = [&](const std::string& type, const std::string& a, const std::string& b) {
    return CustomCall(close, type, a, b);
  };
  EXPECT_TRUE(Passes(call("tensor<f32>", "0x3F800003", "0x3F800000")));
  EXPECT_TRUE(Mismatches(call("tensor<f32>", "0x3F800004", "0x3F800000"), close));
  EXPECT_TRUE(Passes(call("tensor<f32>", "0x3F800000", "0x3F800003")));
  EXPECT_TRUE(Mismatches(call("tensor<f32>", "0x3F800000", "0x3F800004"), close));
  // Below 1.0 the ULP halves: ULP are steps of the encoding, not a width
  // taken from the expected value.
  EXPECT_TRUE(Passes(call("tensor<f32>", "0x3F7FFFFD", "0x3F800000")));
  EXPECT_TRUE(Mismatches(call("tensor<f32>", "0x3F7FFFFC", "0x3F800000"), close));
  // Each format's own ULP.
  EXPECT_TRUE(Passes(call("tensor<f16>", "0x3C03", "0x3C00")));
  EXPECT_TRUE(Mismatches(call("tensor<f16>", "0x3C04", "0x3C00"), close));
  EXPECT_TRUE(Passes(call("tensor<bf16>", "0x3F83", "0x3F80")));
  EXPECT_TRUE(Mismatches(call("tensor<bf16>", "0x3F84", "0x3F80"), close));
  EXPECT_TRUE(Passes(call("tensor<f64>", "0x3FF0000000000003", "0x3FF0000000000000")));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", "0x3FF0000000000004", "0x3FF0000000000000"), close));
  // The first element matches, the second does not.
  EXPECT_TRUE(Mismatches(call("tensor<2xf32>", "[1.0, 0x40000004]", "[1.0, 2.0]"), close));
}

TEST(CheckOpsTest, ExpectCloseOnNonFiniteValues) {
  const std::string close = "check.expect_close";
  auto call = [&](const std::string& a, const std::string& b) {
    return CustomCall(close, "tensor<f32>", a, b);
  };
  const std::string inf = "0x7F800000", minus_inf = "0xFF800000", max = "0x7F7FFFFF";
  const std::string nan = "0x7FC00000", other_nan = "0xFFC00001";
  EXPECT_TRUE(Passes(call(inf, inf)));
  EXPECT_TRUE(Passes(call(minus_inf, minus_inf)));
  EXPECT_TRUE(Mismatches(call(inf, minus_inf), close));
  // One step of the encoding from the largest float, yet not close.
  EXPECT_TRUE(Mismatches(call(inf, max), close));
  EXPECT_TRUE(Mismatches(call(max, inf), close));
  EXPECT_TRUE(Passes(call(nan, other_nan)));
  EXPECT_TRUE(Mismatches(call(nan, "1.0"), close));
  EXPECT_TRUE(Mismatches(call("1.0", nan), close));
  EXPECT_TRUE(Mismatches(call(nan, inf), close));
}

TEST(CheckOpsTest, ExpectCloseOnComplexChecksBothParts) {
  const std::string close = "check.expect_close";
  const std::string type = "tensor<complex<f32>>";
  // 1.00000036 and 1.00000048 are the floats 3 and 4 ULP above 1.
  EXPECT_TRUE(Passes(CustomCall(close, type, "(1.00000036, 1.00000036)", "(1.0, 1.0)")));
  EXPECT_TRUE(Mismatches(CustomCall(close, type, "(1.00000048, 1.0)", "(1.0, 1.0)"), close));
  EXPECT_TRUE(Mismatches(CustomCall(close, type, "(1.0, 1.00000048)", "(1.0, 1.0)"), close));
  EXPECT_TRUE(Mismatches(CustomCall(close, type, "(1.0, 1.0)", "(1.0, -1.0)"), close));
}

TEST(CheckOpsTest, ExpectCloseHonoursMaxUlpDifference) {
  const std::string close = "check.expect_close";
  auto check = [](const std::string& actual, const std::string& attribute) {
    return Program("tensor<f16>", actual, "0x3C00",
                   "check.expect_close %a, %b" + attribute + " : tensor<f16>, tensor<f16>");
  };
  EXPECT_TRUE(Passes(check("0x3C03", "")));
  EXPECT_TRUE(Mismatches(check("0x3C04", ""), close));
  EXPECT_TRUE(Passes(check("0x3C05", ", max_ulp_difference = 5")));
  EXPECT_TRUE(Mismatches(check("0x3C06", ", max_ulp_difference = 5"), close));
  EXPECT_TRUE(Passes(check("0x3C00", ", max_ulp_difference = 0")));
  EXPECT_TRUE(Mismatches(check("0x3C01", ", max_ulp_difference = 0"), close));
}

// ---- check.expect_almost_eq: absolute difference, 1e-3 for the custom call --

TEST(CheckOpsTest, ExpectAlmostEqCustomCallAllowsOneThousandth) {
  const std::string almost = "check.expect_almost_eq";
  auto call = [&](const std::string& type, const std::string& a, const std::string& b) {
    return CustomCall(almost, type, a, b);
  };
  EXPECT_TRUE(Passes(call("tensor<f64>", "1.0009", "1.0")));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", "1.0011", "1.0"), almost));
  EXPECT_TRUE(Passes(call("tensor<f64>", "0.9991", "1.0")));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", "0.9989", "1.0"), almost));
  EXPECT_TRUE(Passes(call("tensor<f32>", "1.0009", "1.0")));
  EXPECT_TRUE(Mismatches(call("tensor<f32>", "1.0011", "1.0"), almost));
  // Absolute, not relative: 5e-4 of 1000 is too far.
  EXPECT_TRUE(Passes(call("tensor<f64>", "1000.0009", "1000.0")));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", "1000.5", "1000.0"), almost));
  // Nor is the tolerance a share of small values.
  EXPECT_TRUE(Passes(call("tensor<f64>", "0.0009", "0.0")));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", "0.0011", "0.0"), almost));
  EXPECT_TRUE(Mismatches(call("tensor<3xf64>", "[1.0, 2.0, 3.0011]", "[1.0, 2.0, 3.0]"), almost));
}

TEST(CheckOpsTest, ExpectAlmostEqOnNonFiniteAndComplexValues) {
  const std::string almost = "check.expect_almost_eq";
  auto call = [&](const std::string& type, const std::string& a, const std::string& b) {
    return CustomCall(almost, type, a, b);
  };
  const std::string inf = "0x7FF0000000000000", minus_inf = "0xFFF0000000000000";
  const std::string nan = "0x7FF8000000000000";
  EXPECT_TRUE(Passes(call("tensor<f64>", inf, inf)));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", inf, minus_inf), almost));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", inf, "1.0e308"), almost));
  EXPECT_TRUE(Passes(call("tensor<f64>", nan, nan)));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", nan, "0.0"), almost));
  EXPECT_TRUE(Mismatches(call("tensor<f64>", "0.0", nan), almost));
  const std::string c = "tensor<complex<f64>>";
  EXPECT_TRUE(Passes(call(c, "(1.0, 2.0009)", "(1.0, 2.0)")));
  EXPECT_TRUE(Mismatches(call(c, "(1.0, 2.0011)", "(1.0, 2.0)"), almost));
  EXPECT_TRUE(Mismatches(call(c, "(1.0011, 2.0)", "(1.0, 2.0)"), almost));
}

// ---- the check dialect's almost_eq forms: 1e-4 unless `tolerance` says ------

TEST(CheckOpsTest, ExpectAlmostEqDialectDefaultsToOneTenThousandth) {
  const std::string almost = "check.expect_almost_eq";
  auto check = [](const std::string& actual, const std::string& expected,
                  const std::string& attribute) {
    return Program("tensor<f64>", actual, expected,
                   "check.expect_almost_eq %a, %b" + attribute + " : tensor<f64>");
  };
  EXPECT_TRUE(Passes(check("1.00009", "1.0", "")));
  EXPECT_TRUE(Mismatches(check("1.00011", "1.0", ""), almost));
  EXPECT_TRUE(Passes(check("5.09", "5.0", ", tolerance = 0.1")));
  EXPECT_TRUE(Mismatches(check("5.11", "5.0", ", tolerance = 0.1"), almost));
  EXPECT_TRUE(Mismatches(check("4.89", "5.0", ", tolerance = 0.1"), almost));
}

TEST(CheckOpsTest, ExpectAlmostEqConstHonoursTolerance) {
  const std::string almost = "check.expect_almost_eq_const";
  auto check = [](const std::string& type, const std::string& actual, const std::string& expected,
                  const std::string& attribute) {
    return Program(type, actual, actual,
                   "check.expect_almost_eq_const %a, dense<" + expected + "> : " + type + attribute);
  };
  const std::string f64 = "tensor<f64>";
  EXPECT_TRUE(Passes(check(f64, "1.00009", "1.0", "")));
  EXPECT_TRUE(Mismatches(check(f64, "1.00011", "1.0", ""), almost));
  EXPECT_TRUE(Passes(check(f64, "5.09", "5.0", " {tolerance = 0.1 : f64}")));
  EXPECT_TRUE(Mismatches(check(f64, "5.11", "5.0", " {tolerance = 0.1 : f64}"), almost));
  EXPECT_TRUE(Passes(check("tensor<2xf32>", "[1.0, 2.00009]", "[1.0, 2.0]", "")));
  EXPECT_TRUE(Mismatches(check("tensor<2xf32>", "[1.0, 2.0002]", "[1.0, 2.0]", ""), almost));
  EXPECT_TRUE(Mismatches(check(f64, "0x7FF0000000000000", "0xFFF0000000000000", ""), almost));
  EXPECT_TRUE(Mismatches(check(f64, "0x7FF8000000000000", "1.0", ""), almost));
}

// ---- shapes and types must agree -------------------------------------------

// The verifier refuses them (the comparison would too: see the
// serialized_eq test below, which the verifier cannot see through).
TEST(CheckOpsTest, ShapeOrTypeMismatchIsNeverAPass) {
  const std::string refusal = "the compared values have the same type";
  for (const std::string target :
       {"check.expect_eq", "check.expect_close", "check.expect_almost_eq"}) {
    auto call = [&](const std::string& actual, const std::string& expected) {
      return "func.func @main() {\n"
             "  %a = stablehlo.constant dense<1.0> : " + actual + "\n"
             "  %b = stablehlo.constant dense<1.0> : " + expected + "\n"
             "  stablehlo.custom_call @" + target + "(%a, %b) {has_side_effect = true} : (" +
             actual + ", " + expected + ") -> ()\n"
             "  func.return\n}\n";
    };
    EXPECT_TRUE(Refused(call("tensor<2xf32>", "tensor<3xf32>"), refusal)) << target;
    EXPECT_TRUE(Refused(call("tensor<2xf32>", "tensor<2xf64>"), refusal)) << target;
    EXPECT_TRUE(Refused(call("tensor<2xf32>", "tensor<1x2xf32>"), refusal)) << target;
  }
}

// ---- check.expect_serialized_eq: bit for bit against interpreter.probe ------

std::string Probed(const std::string& type, const std::string& probed, const std::string& compared,
                   const std::string& check_type) {
  return "func.func @main() {\n"
         "  %a = stablehlo.constant dense<" + probed + "> : " + type + "\n"
         "  %p = interpreter.probe %a, probe_id = \"p\" : " + type + "\n"
         "  %b = stablehlo.constant dense<" + compared + "> : " + check_type + "\n"
         "  check.expect_serialized_eq %b, probe_id = \"p\" : " + check_type + "\n"
         "  func.return\n"
         "}\n";
}

TEST(CheckOpsTest, ExpectSerializedEqComparesWithTheProbe) {
  const std::string serialized = "check.expect_serialized_eq";
  const std::string f32 = "tensor<2xf32>";
  EXPECT_TRUE(Passes(Probed(f32, "[1.0, 2.0]", "[1.0, 2.0]", f32)));
  EXPECT_TRUE(Mismatches(Probed(f32, "[1.0, 2.0]", "[1.0, 0x40000001]", f32), serialized));
  EXPECT_TRUE(Mismatches(Probed(f32, "[1.0, 0.0]", "[1.0, -0.0]", f32), serialized));
  EXPECT_TRUE(Passes(Probed(f32, "[1.0, 0x7FC00000]", "[1.0, 0x7FC00001]", f32)));
  EXPECT_TRUE(Mismatches(Probed("tensor<3xi1>", "[true, false, true]", "[true, true, true]",
                                "tensor<3xi1>"),
                         serialized));
  // Recorded as f32, compared as f64; recorded as 2 elements, compared as 3.
  EXPECT_TRUE(Mismatches(Probed(f32, "[1.0, 2.0]", "[1.0, 2.0]", "tensor<2xf64>"), serialized));
  EXPECT_TRUE(Mismatches(Probed(f32, "[1.0, 2.0]", "[1.0, 2.0, 3.0]", "tensor<3xf32>"),
                         serialized));
}

// Each run of a probe records one iteration; `iter` picks which.
std::string ProbedLoop(const std::string& checks) {
  return R"(func.func @main() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %two = stablehlo.constant dense<2> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %i, %sum = stablehlo.while(%arg0 = %zero, %arg1 = %zero) : tensor<i64>, tensor<i64>
  cond {
    %c = stablehlo.compare LT, %arg0, %two : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = stablehlo.add %arg1, %one : tensor<i64>
    %p = interpreter.probe %s, probe_id = "loop" : tensor<i64>
    %n = stablehlo.add %arg0, %one : tensor<i64>
    stablehlo.return %n, %p : tensor<i64>, tensor<i64>
  }
)" + checks + "  func.return\n}\n";
}

TEST(CheckOpsTest, ExpectSerializedEqPicksTheIteration) {
  const std::string serialized = "check.expect_serialized_eq";
  EXPECT_TRUE(Passes(ProbedLoop(
      "  check.expect_serialized_eq %one, probe_id = \"loop\", iter = 0 : tensor<i64>\n"
      "  check.expect_serialized_eq %two, probe_id = \"loop\", iter = 1 : tensor<i64>\n")));
  EXPECT_TRUE(Mismatches(
      ProbedLoop("  check.expect_serialized_eq %two, probe_id = \"loop\", iter = 0 : tensor<i64>\n"),
      serialized));
  EXPECT_TRUE(Mismatches(
      ProbedLoop("  check.expect_serialized_eq %one, probe_id = \"loop\", iter = 1 : tensor<i64>\n"),
      serialized));
  // No third iteration, no such probe.
  EXPECT_TRUE(Mismatches(
      ProbedLoop("  check.expect_serialized_eq %three, probe_id = \"loop\", iter = 2 : tensor<i64>\n"),
      serialized));
  EXPECT_TRUE(Mismatches(
      ProbedLoop("  check.expect_serialized_eq %one, probe_id = \"none\" : tensor<i64>\n"),
      serialized));
}

}  // namespace
}  // namespace plugrt
