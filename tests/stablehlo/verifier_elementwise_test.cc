// Verifier rules of the elementwise ops (verifier_elementwise.cc): element
// type classes (I1, I2), same-type rules (C1) and the per-op rules of abs,
// real, imag, is_finite, convert, bitcast_convert, reduce_precision, compare,
// complex, select, clamp, constant, iota and map.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "testutil/verify_text.h"

namespace plugrt::shlo {
namespace {

using testutil::ExpectValid;
using testutil::ExpectViolation;
using testutil::GenericOpProgram;
using testutil::kOpAt;
using testutil::MainProgram;

// "stablehlo.<name>" in generic form over tensor<2x<element>> operands.
std::string Elementwise(std::string_view name, int arity, std::string_view element,
                        std::string_view result_element = "") {
  const std::string t = StrCat("tensor<2x", element, ">");
  const std::string r =
      result_element.empty() ? t : StrCat("tensor<2x", result_element, ">");
  return GenericOpProgram(name, std::vector<std::string_view>(arity, t), r);
}

// ------------------------------------------------------ same-type table ops

struct ClassCase {
  const char* name;
  int arity;
  const char* good;  // an element type the op takes
  const char* bad;   // one it does not ("" when it takes every type)
  const char* rule;  // the class the message names
};

constexpr ClassCase kClassCases[] = {
    {"add", 2, "i1", "", ""},
    {"and", 2, "i1", "f32", "boolean or integer"},
    {"atan2", 2, "f64", "i32", "floating-point or complex"},
    {"cbrt", 1, "complex<f32>", "i32", "floating-point or complex"},
    {"ceil", 1, "bf16", "complex<f32>", "floating-point type"},
    {"cosine", 1, "f16", "i8", "floating-point or complex"},
    {"count_leading_zeros", 1, "ui8", "i1", "integer type"},
    {"divide", 2, "ui32", "i1", "integer, floating-point or complex"},
    {"exponential", 1, "complex<f64>", "i64", "floating-point or complex"},
    {"exponential_minus_one", 1, "f32", "ui16", "floating-point or complex"},
    {"floor", 1, "f64", "i32", "floating-point type"},
    {"log", 1, "f32", "i1", "floating-point or complex"},
    {"log_plus_one", 1, "f32", "i32", "floating-point or complex"},
    {"logistic", 1, "f32", "i32", "floating-point or complex"},
    {"maximum", 2, "complex<f32>", "", ""},
    {"minimum", 2, "i1", "", ""},
    {"multiply", 2, "ui64", "", ""},
    {"negate", 1, "ui32", "i1", "integer, floating-point or complex"},
    {"not", 1, "i1", "f32", "boolean or integer"},
    {"or", 2, "i64", "bf16", "boolean or integer"},
    {"popcnt", 1, "i16", "f32", "integer type"},
    {"power", 2, "i32", "i1", "integer, floating-point or complex"},
    {"remainder", 2, "f32", "i1", "integer, floating-point or complex"},
    {"round_nearest_afz", 1, "f32", "i32", "floating-point type"},
    {"round_nearest_even", 1, "f16", "complex<f64>", "floating-point type"},
    {"rsqrt", 1, "f32", "i32", "floating-point or complex"},
    {"shift_left", 2, "i32", "f32", "integer type"},
    {"shift_right_arithmetic", 2, "ui8", "i1", "integer type"},
    {"shift_right_logical", 2, "i64", "f64", "integer type"},
    {"sign", 1, "i32", "ui32", "signed integer, floating-point or complex"},
    {"sine", 1, "f32", "i32", "floating-point or complex"},
    {"sqrt", 1, "complex<f32>", "i32", "floating-point or complex"},
    {"subtract", 2, "i8", "i1", "integer, floating-point or complex"},
    {"tan", 1, "f32", "i32", "floating-point or complex"},
    {"tanh", 1, "f32", "ui8", "floating-point or complex"},
    {"xor", 2, "i1", "f32", "boolean or integer"},
};

TEST(VerifierElementwise, EachOpTakesItsElementTypes) {
  for (const ClassCase& c : kClassCases) {
    SCOPED_TRACE(c.name);
    ExpectValid(Elementwise(c.name, c.arity, c.good));
    if (*c.bad == '\0') continue;
    ExpectViolation(Elementwise(c.name, c.arity, c.bad), kOpAt,
                    StrCat("stablehlo.", c.name, ": violated rule (I1)"), c.rule,
                    StrCat("got tensor<2x", c.bad, ">"));
  }
}

TEST(VerifierElementwise, EachOpWantsTheSameTypeThroughout) {
  for (const ClassCase& c : kClassCases) {
    SCOPED_TRACE(c.name);
    // A result whose element type differs from the operands'.
    const char* other = std::string_view(c.good) == "f64" ? "f32" : "f64";
    ExpectViolation(Elementwise(c.name, c.arity, c.good, other), kOpAt, "(C1)",
                    c.arity == 1 ? "`operand` and `result` have the same type"
                                 : "`lhs`, `rhs` and `result` have the same type",
                    StrCat("result tensor<2x", other, ">"));
  }
}

TEST(VerifierElementwise, BinaryOperandsMustAgree) {
  ExpectViolation(GenericOpProgram("add", {"tensor<2xf32>", "tensor<3xf32>"}, "tensor<2xf32>"),
                  kOpAt, "(C1)", "rhs tensor<3xf32>");
  // The second operand's class is I2.
  ExpectViolation(GenericOpProgram("and", {"tensor<2xi32>", "tensor<2xf32>"}, "tensor<2xi32>"),
                  kOpAt, "(I2)", "`rhs` is a tensor of boolean or integer type");
}

TEST(VerifierElementwise, DynamicDimsAndPrettyFormAreAccepted) {
  ExpectValid(
      GenericOpProgram("multiply", {"tensor<?x3xf32>", "tensor<2x?xf32>"}, "tensor<2x3xf32>"));
  ExpectValid(MainProgram("%a: tensor<4xi32>", "%0 = stablehlo.popcnt %a : tensor<4xi32>",
                          "tensor<4xi32>"));
  ExpectViolation(
      MainProgram("%a: tensor<4xi32>", "%0 = stablehlo.sqrt %a : tensor<4xi32>", "tensor<4xi32>"),
      kOpAt, "stablehlo.sqrt", "(I1)");
}

// ------------------------------------------------------------ abs, real, imag

TEST(VerifierElementwise, AbsGivesTheRealTypeOfComplex) {
  ExpectValid(Elementwise("abs", 1, "i32"));
  ExpectValid(Elementwise("abs", 1, "complex<f64>", "f64"));
  ExpectViolation(Elementwise("abs", 1, "ui32"), kOpAt, "(I1)",
                  "signed integer, floating-point or complex");
  ExpectViolation(Elementwise("abs", 1, "complex<f32>"), kOpAt, "(C2)",
                  "expected f32, got complex<f32>");
  ExpectViolation(GenericOpProgram("abs", {"tensor<2xf32>"}, "tensor<3xf32>"), kOpAt, "(C1)",
                  "shape(`result`) = shape(`operand`)", "result tensor<3xf32>");
}

TEST(VerifierElementwise, RealAndImagExtractTheComponentType) {
  ExpectValid(Elementwise("real", 1, "complex<f32>", "f32"));
  ExpectValid(Elementwise("imag", 1, "complex<f64>", "f64"));
  ExpectValid(Elementwise("real", 1, "bf16"));
  ExpectViolation(Elementwise("imag", 1, "complex<f32>", "f64"), kOpAt, "stablehlo.imag", "(C2)",
                  "expected f32, got f64");
  ExpectViolation(Elementwise("real", 1, "i32"), kOpAt, "(I1)", "floating-point or complex");
  ExpectViolation(GenericOpProgram("real", {"tensor<2xcomplex<f32>>"}, "tensor<2x1xf32>"), kOpAt,
                  "(C1)");
}

// ------------------------------------------------------- is_finite, convert

TEST(VerifierElementwise, IsFiniteMapsFloatsToBooleans) {
  ExpectValid(Elementwise("is_finite", 1, "f32", "i1"));
  ExpectViolation(Elementwise("is_finite", 1, "i32", "i1"), kOpAt, "(I1)",
                  "`x` is a tensor of floating-point type");
  ExpectViolation(Elementwise("is_finite", 1, "f32", "f32"), kOpAt, "(structure)",
                  "`y` is a tensor of boolean type");
  ExpectViolation(GenericOpProgram("is_finite", {"tensor<2xf32>"}, "tensor<3xi1>"), kOpAt, "(C1)",
                  "y tensor<3xi1>");
}

TEST(VerifierElementwise, ConvertKeepsTheShape) {
  ExpectValid(Elementwise("convert", 1, "i32", "complex<f32>"));
  ExpectValid(Elementwise("convert", 1, "f32", "i1"));
  ExpectViolation(GenericOpProgram("convert", {"tensor<2xi32>"}, "tensor<2x1xf32>"), kOpAt,
                  "stablehlo.convert", "(C1)", "result tensor<2x1xf32>");
}

// ------------------------------------------------------------ bitcast_convert

std::string Bitcast(std::string_view from, std::string_view to) {
  return GenericOpProgram("bitcast_convert", {from}, to);
}

TEST(VerifierElementwise, BitcastConvertFollowsTheBitWidths) {
  ExpectValid(Bitcast("tensor<2xf32>", "tensor<2xi32>"));
  ExpectValid(Bitcast("tensor<2xf32>", "tensor<2x4xi8>"));
  ExpectValid(Bitcast("tensor<2x4xi8>", "tensor<2xf32>"));
  ExpectValid(Bitcast("tensor<f64>", "tensor<2xf32>"));
  ExpectValid(Bitcast("tensor<2x?xi8>", "tensor<2xf32>"));
  ExpectValid(Bitcast("tensor<3xcomplex<f32>>", "tensor<3xcomplex<f32>>"));
  ExpectViolation(Bitcast("tensor<2xf32>", "tensor<3xi32>"), kOpAt, "(C1)", "equal bit widths");
  ExpectViolation(Bitcast("tensor<2xf32>", "tensor<2x2xi8>"), kOpAt, "(C1)", "narrower result",
                  "result tensor<2x2xi8>");
  ExpectViolation(Bitcast("tensor<2xf32>", "tensor<8xi8>"), kOpAt, "(C1)", "narrower result");
  ExpectViolation(Bitcast("tensor<2x2xi8>", "tensor<2xf32>"), kOpAt, "(C1)", "wider result",
                  "operand tensor<2x2xi8>");
  ExpectViolation(Bitcast("tensor<i8>", "tensor<f32>"), kOpAt, "(C1)", "wider result");
  ExpectViolation(Bitcast("tensor<2xf64>", "tensor<2xcomplex<f32>>"), kOpAt, "(C2)",
                  "complex and non-complex");
}

// ----------------------------------------------------------- reduce_precision

std::string ReducePrecision(std::string_view element, std::string_view attributes) {
  const std::string t = StrCat("tensor<2x", element, ">");
  return MainProgram(
      StrCat("%a: ", t),
      StrCat("%0 = \"stablehlo.reduce_precision\"(%a) {", attributes, "} : (", t, ") -> ", t), t);
}

TEST(VerifierElementwise, ReducePrecisionBounds) {
  ExpectValid(ReducePrecision("f32", "exponent_bits = 5 : i32, mantissa_bits = 0 : i32"));
  ExpectValid(MainProgram("%a: tensor<2xf32>",
                          "%0 = stablehlo.reduce_precision %a, format = e5m2 : tensor<2xf32>",
                          "tensor<2xf32>"));
  ExpectViolation(ReducePrecision("f32", "exponent_bits = 0 : i32, mantissa_bits = 2 : i32"), kOpAt,
                  "(C2)", "`exponent_bits` >= 1", "got 0");
  ExpectViolation(ReducePrecision("f32", "exponent_bits = 8 : i32, mantissa_bits = -1 : i32"),
                  kOpAt, "(C3)", "`mantissa_bits` >= 0", "got -1");
  ExpectViolation(ReducePrecision("i32", "exponent_bits = 8 : i32, mantissa_bits = 2 : i32"), kOpAt,
                  "(I1)", "floating-point type");
  ExpectViolation(ReducePrecision("f32", "exponent_bits = 8 : i32"), kOpAt, "(structure)",
                  "'mantissa_bits' is required");
}

// -------------------------------------------------------------------- compare

std::string Compare(std::string_view element, std::string_view attributes,
                    std::string_view result = "tensor<2xi1>") {
  const std::string t = StrCat("tensor<2x", element, ">");
  return MainProgram(StrCat("%a: ", t, ", %b: ", t),
                     StrCat("%0 = \"stablehlo.compare\"(%a, %b) {", attributes, "} : (", t, ", ", t,
                            ") -> ", result),
                     result);
}

constexpr const char* kLt = "comparison_direction = #stablehlo<comparison_direction LT>";

std::string WithType(std::string_view type) {
  return StrCat(kLt, ", compare_type = #stablehlo<comparison_type ", type, ">");
}

TEST(VerifierElementwise, CompareTypeFitsTheElementType) {
  ExpectValid(Compare("f32", WithType("FLOAT")));
  ExpectValid(Compare("f32", WithType("TOTALORDER")));
  ExpectValid(Compare("i32", WithType("SIGNED")));
  ExpectValid(Compare("ui32", WithType("UNSIGNED")));
  ExpectValid(Compare("i1", WithType("UNSIGNED")));
  ExpectValid(Compare("complex<f32>", WithType("FLOAT")));
  ExpectValid(Compare("i32", WithType("NOTYPE")));
  ExpectValid(Compare("i32", kLt));
  ExpectValid(MainProgram("%a: tensor<2xf32>, %b: tensor<2xf32>",
                          "%0 = stablehlo.compare  GE, %a, %b,  TOTALORDER : (tensor<2xf32>, "
                          "tensor<2xf32>) -> tensor<2xi1>",
                          "tensor<2xi1>"));
  ExpectViolation(Compare("i32", WithType("FLOAT")), kOpAt, "stablehlo.compare", "(C3)",
                  "element type i32 takes SIGNED, got FLOAT");
  ExpectViolation(Compare("ui8", WithType("SIGNED")), kOpAt, "(C3)", "takes UNSIGNED");
  ExpectViolation(Compare("f32", WithType("UNSIGNED")), kOpAt, "(C3)", "takes FLOAT or TOTALORDER");
  ExpectViolation(Compare("complex<f64>", WithType("TOTALORDER")), kOpAt, "(C3)",
                  "takes FLOAT, got TOTALORDER");
}

TEST(VerifierElementwise, CompareOperandsAndResult) {
  ExpectViolation(MainProgram("%a: tensor<2xf32>, %b: tensor<2xf64>",
                              StrCat("%0 = \"stablehlo.compare\"(%a, %b) {", kLt,
                                     "} : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xi1>"),
                              "tensor<2xi1>"),
                  kOpAt, "(C1)", "same element type", "rhs tensor<2xf64>");
  ExpectViolation(Compare("f32", kLt, "tensor<3xi1>"), kOpAt, "(C2)", "result tensor<3xi1>");
  ExpectViolation(Compare("f32", kLt, "tensor<2xf32>"), kOpAt, "(structure)",
                  "`result` is a tensor of boolean type");
  ExpectViolation(Compare("f32", "comparison_direction = #stablehlo<comparison_direction XY>"),
                  kOpAt, "(I3)", "got XY");
  ExpectViolation(Compare("f32", ""), kOpAt, "(structure)", "'comparison_direction' is required");
}

// -------------------------------------------------------------------- complex

TEST(VerifierElementwise, ComplexBuildsFromTwoRealTensors) {
  ExpectValid(Elementwise("complex", 2, "f32", "complex<f32>"));
  ExpectValid(Elementwise("complex", 2, "f64", "complex<f64>"));
  ExpectViolation(Elementwise("complex", 2, "bf16", "complex<f32>"), kOpAt, "(I1)",
                  "`lhs` is a tensor of type f32 or f64");
  ExpectViolation(Elementwise("complex", 2, "f32", "complex<f64>"), kOpAt, "(C3)",
                  "expected complex<f32>, got complex<f64>");
  ExpectViolation(
      GenericOpProgram("complex", {"tensor<2xf32>", "tensor<2xf64>"}, "tensor<2xcomplex<f32>>"),
      kOpAt, "(C1)", "rhs tensor<2xf64>");
  ExpectViolation(
      GenericOpProgram("complex", {"tensor<2xf32>", "tensor<2xf32>"}, "tensor<4xcomplex<f32>>"),
      kOpAt, "(C2)", "shape(`result`) = shape(`lhs`)");
}

// ------------------------------------------------------------- select, clamp

std::string Ternary(std::string_view name, std::string_view a, std::string_view b,
                    std::string_view c, std::string_view result) {
  return GenericOpProgram(name, {a, b, c}, result);
}

TEST(VerifierElementwise, SelectPredicateAndBranches) {
  ExpectValid(Ternary("select", "tensor<i1>", "tensor<2xf32>", "tensor<2xf32>", "tensor<2xf32>"));
  ExpectValid(Ternary("select", "tensor<2xi1>", "tensor<2xi32>", "tensor<2xi32>",
                      "tensor<2xi32>"));
  ExpectViolation(
      Ternary("select", "tensor<2xi32>", "tensor<2xi32>", "tensor<2xi32>", "tensor<2xi32>"), kOpAt,
      "(I1)", "`pred` is a tensor of type i1");
  ExpectViolation(
      Ternary("select", "tensor<3xi1>", "tensor<2xf32>", "tensor<2xf32>", "tensor<2xf32>"), kOpAt,
      "(C1)", "pred tensor<3xi1>");
  ExpectViolation(
      Ternary("select", "tensor<i1>", "tensor<2xf32>", "tensor<2xf64>", "tensor<2xf32>"), kOpAt,
      "(C2)", "on_false tensor<2xf64>");
}

TEST(VerifierElementwise, ClampBounds) {
  ExpectValid(Ternary("clamp", "tensor<f32>", "tensor<3xf32>", "tensor<f32>", "tensor<3xf32>"));
  ExpectValid(Ternary("clamp", "tensor<3xi32>", "tensor<3xi32>", "tensor<3xi32>",
                      "tensor<3xi32>"));
  ExpectViolation(
      Ternary("clamp", "tensor<2xf32>", "tensor<3xf32>", "tensor<f32>", "tensor<3xf32>"), kOpAt,
      "stablehlo.clamp", "(C1)", "min tensor<2xf32>");
  ExpectViolation(
      Ternary("clamp", "tensor<f32>", "tensor<3xf32>", "tensor<1xf32>", "tensor<3xf32>"), kOpAt,
      "(C2)", "max tensor<1xf32>");
  ExpectViolation(Ternary("clamp", "tensor<i32>", "tensor<3xf32>", "tensor<f32>", "tensor<3xf32>"),
                  kOpAt, "(C3)", "min tensor<i32>");
  ExpectViolation(Ternary("clamp", "tensor<f32>", "tensor<3xf32>", "tensor<f32>", "tensor<3xf64>"),
                  kOpAt, "(C4)", "result tensor<3xf64>");
}

// -------------------------------------------------------------- constant, iota

TEST(VerifierElementwise, ConstantValueHasTheResultType) {
  ExpectValid(MainProgram("", "%0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>",
                          "tensor<2xf32>"));
  ExpectValid(
      MainProgram("",
                  "%0 = \"stablehlo.constant\"() {value = dense<1> : tensor<2xi32>} : () -> "
                  "tensor<2xi32>",
                  "tensor<2xi32>"));
  ExpectViolation(
      MainProgram("",
                  "%0 = \"stablehlo.constant\"() {value = dense<1.0> : tensor<2xf32>} : () -> "
                  "tensor<3xf32>",
                  "tensor<3xf32>"),
      kOpAt, "stablehlo.constant", "(C1)", "value tensor<2xf32>, output tensor<3xf32>");
  ExpectViolation(
      MainProgram("",
                  "%0 = \"stablehlo.constant\"() {value = dense<1> : tensor<2xi32>} : () -> "
                  "tensor<2xi64>",
                  "tensor<2xi64>"),
      kOpAt, "(C1)");
  ExpectViolation(
      MainProgram("", "%0 = \"stablehlo.constant\"() : () -> tensor<2xi64>", "tensor<2xi64>"),
      kOpAt, "(structure)", "'value' is required");
}

std::string Iota(std::string_view attributes, std::string_view type) {
  return MainProgram("", StrCat("%0 = \"stablehlo.iota\"() {", attributes, "} : () -> ", type),
                     type);
}

TEST(VerifierElementwise, IotaDimensionInRange) {
  ExpectValid(Iota("iota_dimension = 1 : i64", "tensor<4x5xi32>"));
  ExpectValid(MainProgram("", "%0 = stablehlo.iota dim = 0 : tensor<4xf32>", "tensor<4xf32>"));
  ExpectViolation(Iota("iota_dimension = 2 : i64", "tensor<4x5xi32>"), kOpAt, "stablehlo.iota",
                  "(C1)", "iota_dimension 2, rank 2");
  ExpectViolation(Iota("iota_dimension = -1 : i64", "tensor<4xi32>"), kOpAt, "(C1)",
                  "iota_dimension -1");
  ExpectViolation(Iota("iota_dimension = 0 : i64", "tensor<4xi1>"), kOpAt, "(structure)",
                  "integer, floating-point or complex");
  ExpectViolation(Iota("", "tensor<4xi32>"), kOpAt, "(structure)", "'iota_dimension' is required");
}

// ------------------------------------------------------------------------ map

std::string Map(std::string_view block_args, std::string_view body_type,
                std::string_view dimensions, std::string_view b_type = "tensor<2x2xi64>") {
  return StrCat(R"(
func.func @main(%a: tensor<2x2xi64>, %b: )", b_type, R"() -> tensor<2x2xi64> {
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0()", block_args, R"():
    %1 = stablehlo.constant dense<0> : )", body_type, R"(
    stablehlo.return %1 : )", body_type, R"(
  }) {dimensions = )", dimensions, R"(} : (tensor<2x2xi64>, )", b_type, R"() -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}
)");
}

constexpr const char* kMapArgs = "%x: tensor<i64>, %y: tensor<i64>";

TEST(VerifierElementwise, MapDimensionsAndComputation) {
  ExpectValid(Map(kMapArgs, "tensor<i64>", "array<i64: 0, 1>"));
  ExpectValid(Map(kMapArgs, "tensor<i64>", "dense<[0, 1]> : tensor<2xi64>"));
  ExpectViolation(Map(kMapArgs, "tensor<i64>", "array<i64: 1, 0>"), kOpAt, "stablehlo.map", "(C3)",
                  "dimensions [1, 0], rank 2");
  ExpectViolation(Map(kMapArgs, "tensor<i64>", "array<i64: 0>"), kOpAt, "(C3)");
  ExpectViolation(Map("%x: tensor<i64>, %y: tensor<i32>", "tensor<i64>", "array<i64: 0, 1>"), kOpAt,
                  "(C4)", "takes (tensor<i64>, tensor<i32>)");
  ExpectViolation(Map(kMapArgs, "tensor<2xi64>", "array<i64: 0, 1>"), kOpAt, "(C4)",
                  "returns (tensor<2xi64>), expected (tensor<i64>)");
  ExpectViolation(Map(kMapArgs, "tensor<i64>", "array<i64: 0, 1>", "tensor<2x3xi64>"), kOpAt,
                  "(C1)", "input #1 tensor<2x3xi64>");
}

}  // namespace
}  // namespace plugrt::shlo
