// The StableHLO parser: the whole conformance corpus parses, pretty forms
// become the generic form's attributes, dense literals are stored in the
// runtime storage format, bad input gets a located error, mutated input never
// crashes.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "stablehlo/ir.h"
#include "compiler/importers/mlir/parser.h"
#include "testutil/corpus.h"

namespace plugrt::shlo {
namespace {

namespace fs = std::filesystem;
using testutil::CorpusDir;
using testutil::MlirFiles;
using testutil::ReadFile;

std::unique_ptr<Module> MustParse(std::string_view text) {
  auto module = ParseModule(text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return nullptr;
  return std::move(*module);
}

// The ops of the first function's body.
const std::vector<std::unique_ptr<Operation>>& BodyOps(const Module& m) {
  return m.functions.front()->body->front().operations;
}

std::string ErrorOf(std::string_view text) {
  auto module = ParseModule(text, "bad.mlir");
  if (module.ok()) return "<parsed>";
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
  return module.status().message();
}

template <typename T>
T Element(const Attribute& attr, size_t i) {
  T value;
  std::memcpy(&value, attr.dense->bytes.data() + i * sizeof(T), sizeof(T));
  return value;
}

// ---------------------------------------------------------------- corpus

TEST(StablehloParserCorpus, EveryTestdataProgramParses) {
  auto files = MlirFiles(CorpusDir() / "testdata");
  if (files.empty()) GTEST_FAIL() << "corpus not found at " << CorpusDir();
  int parsed = 0;
  std::vector<std::string> failures;
  for (const auto& file : files) {
    auto module = ParseModule(ReadFile(file), file.string());
    if (module.ok() && (*module)->EntryFunction() != nullptr) {
      ++parsed;
    } else {
      failures.push_back(module.ok() ? file.string() + ": no entry function"
                                     : module.status().message());
    }
  }
  for (size_t i = 0; i < failures.size() && i < 20; ++i) ADD_FAILURE() << failures[i];
  EXPECT_EQ(parsed, static_cast<int>(files.size()));
  EXPECT_EQ(files.size(), 1962u);
}

TEST(StablehloParserCorpus, EveryInterpretSectionParses) {
  auto files = MlirFiles(CorpusDir() / "interpret");
  if (files.empty()) GTEST_FAIL() << "corpus not found at " << CorpusDir();
  int sections = 0, parsed = 0;
  std::vector<std::string> failures;
  for (const auto& file : files) {
    std::string text = ReadFile(file);
    for (const SourceSection& section : SplitSections(text)) {
      ++sections;
      auto module = ParseModule(section.text, file.string(), section.first_line);
      if (module.ok()) {
        ++parsed;
      } else {
        failures.push_back(module.status().message());
      }
    }
  }
  for (size_t i = 0; i < failures.size() && i < 20; ++i) ADD_FAILURE() << failures[i];
  EXPECT_EQ(parsed, sections);
  EXPECT_GT(sections, 500);
}

TEST(StablehloParserCorpus, SectionLocationsNameFileLines) {
  std::string text = "func.func @a() {\n  func.return\n}\n// -----\nfunc.func @b() {\n  %x = foo\n}\n";
  auto sections = SplitSections(text);
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[1].first_line, 5);
  EXPECT_TRUE(ParseModule(sections[0].text, "f.mlir", sections[0].first_line).ok());
  auto bad = ParseModule(sections[1].text, "f.mlir", sections[1].first_line);
  ASSERT_FALSE(bad.ok());
  // The op on file line 6 lacks its type; the parser finds out at line 7.
  EXPECT_NE(bad.status().message().find("f.mlir:7:1:"), std::string::npos)
      << bad.status().message();
}

// Fixed-seed truncations and byte flips of corpus files: each parse ends
// with a module or an error, never a crash or hang.
TEST(StablehloParserCorpus, MutatedProgramsNeverCrash) {
  auto files = MlirFiles(CorpusDir() / "testdata");
  auto interpret = MlirFiles(CorpusDir() / "interpret");
  files.insert(files.end(), interpret.begin(), interpret.end());
  if (files.empty()) GTEST_FAIL() << "corpus not found at " << CorpusDir();
  std::mt19937 rng(20240607);
  const char kBytes[] = "%@#<>[](){}:,=\"x-0123456789.e^!? \n";
  int errors = 0, successes = 0;
  for (int i = 0; i < 200; ++i) {
    std::string text = ReadFile(files[rng() % files.size()]);
    if (text.size() > 200000) text.resize(200000);
    if (text.empty()) continue;
    switch (i % 3) {
      case 0:
        text.resize(rng() % text.size());
        break;
      case 1:
        for (int k = 0; k < 8; ++k) text[rng() % text.size()] = kBytes[rng() % (sizeof(kBytes) - 1)];
        break;
      default:
        for (int k = 0; k < 4; ++k) text[rng() % text.size()] = static_cast<char>(rng() & 0xFF);
        break;
    }
    auto module = ParseModule(text, "mutated.mlir");
    if (module.ok()) {
      ++successes;
    } else {
      ++errors;
      EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(module.status().message().find("mutated.mlir:"), std::string::npos);
    }
  }
  EXPECT_EQ(errors + successes, 200);
  EXPECT_GT(errors, 0);
}

// ---------------------------------------------------------------- structure

TEST(StablehloParser, ModuleFunctionsAndAttributes) {
  auto m = MustParse(R"(
module @jit_main attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> {jax.arg_info = "x"}) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0 = call @helper(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func private @helper(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0:2 = "test.pair"(%arg0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    %1 = stablehlo.add %0#0, %0#1 : tensor<2xf32>
    func.return %1 : tensor<2xf32>
  }
})");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name, "jit_main");
  ASSERT_NE(FindAttribute(m->attributes, "mhlo.num_partitions"), nullptr);
  EXPECT_EQ(*AttrToInt(*FindAttribute(m->attributes, "mhlo.num_partitions")), 1);
  ASSERT_EQ(m->functions.size(), 2u);
  EXPECT_EQ(m->EntryFunction(), m->functions[0].get());
  const Function& main = *m->functions[0];
  EXPECT_TRUE(main.is_public);
  EXPECT_FALSE(m->functions[1]->is_public);
  EXPECT_EQ(main.input_types[0], Type::Tensor(ElementType::kF32, {2}));
  EXPECT_EQ(FindAttribute(main.arg_attributes[0], "jax.arg_info")->str, "x");
  EXPECT_NE(FindAttribute(main.result_attributes[0], "jax.result_info"), nullptr);
  const auto& ops = BodyOps(*m);
  EXPECT_EQ(ops[0]->code, OpCode::kFuncCall);
  EXPECT_EQ(ops[0]->attribute("callee")->str, "helper");
  EXPECT_EQ(ops[0]->operands[0], main.body->front().arguments[0].get());
  EXPECT_EQ(ops[1]->code, OpCode::kFuncReturn);
  EXPECT_EQ(ops[1]->operands[0], ops[0]->result(0));
  const auto& helper = m->functions[1]->body->front().operations;
  EXPECT_EQ(helper[0]->code, OpCode::kUnknown);
  EXPECT_EQ(helper[0]->results.size(), 2u);
  EXPECT_EQ(helper[1]->code, OpCode::kAdd);
  EXPECT_EQ(helper[1]->operands[1], helper[0]->result(1));
  EXPECT_EQ(helper[1]->location.line, 9);
  EXPECT_EQ(helper[1]->location.column, 5);
}

TEST(StablehloParser, BareFunctionsAndEmptyProgram) {
  auto m = MustParse("func.func @a() { func.return }\nfunc.func @b() { return }");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->name.empty());
  EXPECT_EQ(m->functions.size(), 2u);
  EXPECT_EQ(m->EntryFunction(), nullptr);  // two public functions, no @main
  auto empty = MustParse("// nothing here\n");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->functions.empty());
}

// ---------------------------------------------------------------- pretty forms

TEST(StablehloParser, PrettyFormsBecomeGenericAttributes) {
  auto m = MustParse(R"(
func.func @main(%x: tensor<2x3xf32>, %t: tuple<tensor<2xf64>, !stablehlo.token>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.slice %x [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %3 = stablehlo.compare  LT, %x, %0,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %4 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %5 = stablehlo.concatenate %x, %0, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %6 = stablehlo.pad %x, %c, low = [0, 1], high = [1, 0], interior = [0, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x8xf32>
  %7 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf64>, !stablehlo.token>) -> !stablehlo.token
  %8 = stablehlo.select %3, %x, %0 : tensor<2x3xi1>, tensor<2x3xf32>
  %9 = stablehlo.fft %x, type =  RFFT, length = [3] : (tensor<2x3xf32>) -> tensor<2x2xcomplex<f32>>
  %10 = stablehlo.reduce_precision %x, format = e5m10 : tensor<2x3xf32>
  %11:2 = stablehlo.rng_bit_generator %4, algorithm =  THREE_FRY : (tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
  stablehlo.custom_call @check.expect_eq(%x, %x) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
  func.return
})");
  ASSERT_TRUE(m);
  const auto& ops = BodyOps(*m);
  EXPECT_EQ(ops[0]->code, OpCode::kConstant);
  EXPECT_EQ(ops[0]->result(0)->type, Type::Scalar(ElementType::kF32));
  EXPECT_EQ(*AttrToIntList(*ops[1]->attribute("broadcast_dimensions")), std::vector<int64_t>{});
  EXPECT_EQ(*AttrToIntList(*ops[2]->attribute("permutation")), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(*AttrToIntList(*ops[3]->attribute("start_indices")), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(*AttrToIntList(*ops[3]->attribute("limit_indices")), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(*AttrToIntList(*ops[3]->attribute("strides")), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(ops[4]->attribute("comparison_direction")->str, "stablehlo.comparison_direction");
  EXPECT_EQ(*AttrToEnumValue(*ops[4]->attribute("comparison_direction")), "LT");
  EXPECT_EQ(*AttrToEnumValue(*ops[4]->attribute("compare_type")), "FLOAT");
  EXPECT_EQ(ops[4]->result(0)->type, Type::Tensor(ElementType::kI1, {2, 3}));
  EXPECT_EQ(*AttrToInt(*ops[5]->attribute("iota_dimension")), 1);
  EXPECT_EQ(ops[5]->operands.size(), 0u);
  EXPECT_EQ(*AttrToInt(*ops[6]->attribute("dimension")), 0);
  EXPECT_EQ(*AttrToIntList(*ops[7]->attribute("edge_padding_low")), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(*AttrToIntList(*ops[7]->attribute("edge_padding_high")), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(*AttrToIntList(*ops[7]->attribute("interior_padding")), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(*AttrToInt(*ops[8]->attribute("index")), 1);
  EXPECT_TRUE(ops[8]->result(0)->type.is_token());
  EXPECT_EQ(ops[9]->result(0)->type, Type::Tensor(ElementType::kF32, {2, 3}));
  EXPECT_EQ(*AttrToEnumValue(*ops[10]->attribute("fft_type")), "RFFT");
  EXPECT_EQ(*AttrToIntList(*ops[10]->attribute("fft_length")), (std::vector<int64_t>{3}));
  EXPECT_EQ(*AttrToInt(*ops[11]->attribute("exponent_bits")), 5);
  EXPECT_EQ(*AttrToInt(*ops[11]->attribute("mantissa_bits")), 10);
  EXPECT_EQ(*AttrToEnumValue(*ops[12]->attribute("rng_algorithm")), "THREE_FRY");
  EXPECT_EQ(ops[12]->results.size(), 2u);
  EXPECT_EQ(ops[13]->attribute("call_target_name")->str, "check.expect_eq");
  EXPECT_TRUE(*AttrToBool(*ops[13]->attribute("has_side_effect")));
  EXPECT_TRUE(ops[13]->results.empty());
}

TEST(StablehloParser, ReduceAppliesBuildsTheBodyRegion) {
  auto m = MustParse(R"(
func.func @main(%x: tensor<2x3xf32>, %c: tensor<f32>) -> tensor<2xf32> {
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
})");
  ASSERT_TRUE(m);
  const Operation& reduce = *BodyOps(*m)[0];
  EXPECT_EQ(reduce.code, OpCode::kReduce);
  EXPECT_EQ(reduce.operands.size(), 2u);
  EXPECT_EQ(*AttrToIntList(*reduce.attribute("dimensions")), std::vector<int64_t>{1});
  ASSERT_EQ(reduce.regions.size(), 1u);
  const Block& body = reduce.region(0).front();
  ASSERT_EQ(body.arguments.size(), 2u);
  EXPECT_EQ(body.arguments[0]->type, Type::Scalar(ElementType::kF32));
  ASSERT_EQ(body.operations.size(), 2u);
  EXPECT_EQ(body.operations[0]->code, OpCode::kMaximum);
  EXPECT_EQ(body.operations[0]->operands[0], body.arguments[0].get());
  EXPECT_EQ(body.operations[0]->operands[1], body.arguments[1].get());
  EXPECT_EQ(body.operations[1]->code, OpCode::kReturn);
  EXPECT_EQ(body.operations[1]->operands[0], body.operations[0]->result(0));
}

TEST(StablehloParser, ReduceWithReducerOrdersAccumulatorsFirst) {
  auto m = MustParse(R"(
func.func @main(%a: tensor<4xf32>, %b: tensor<4xi32>, %c: tensor<f32>, %d: tensor<i32>) {
  %1:2 = stablehlo.reduce(%a init: %c), (%b init: %d) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<i32>, %s: tensor<i32>)  {
    stablehlo.return %p, %s : tensor<f32>, tensor<i32>
  }
  func.return
})");
  ASSERT_TRUE(m);
  const Operation& reduce = *BodyOps(*m)[0];
  ASSERT_EQ(reduce.operands.size(), 4u);
  const Block& body = reduce.region(0).front();
  ASSERT_EQ(body.arguments.size(), 4u);
  EXPECT_EQ(body.arguments[0]->name, "p");
  EXPECT_EQ(body.arguments[1]->name, "r");
  EXPECT_EQ(body.arguments[2]->name, "q");
  EXPECT_EQ(body.arguments[3]->name, "s");
  EXPECT_EQ(body.operations[0]->operands[1], body.arguments[3].get());
}

TEST(StablehloParser, WhileAndGenericRegions) {
  auto m = MustParse(R"(
func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %0:2 = stablehlo.while(%i = %n, %acc = %n) : tensor<i64>, tensor<i64>
   cond {
    %p = stablehlo.compare  LT, %i, %acc,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    stablehlo.return %acc, %i : tensor<i64>, tensor<i64>
  }
  %1 = "stablehlo.sort"(%0#0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %2 = stablehlo.compare  GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %1 : tensor<i64>
})");
  ASSERT_TRUE(m);
  const Operation& loop = *BodyOps(*m)[0];
  EXPECT_EQ(loop.code, OpCode::kWhile);
  ASSERT_EQ(loop.regions.size(), 2u);
  EXPECT_EQ(loop.region(0).front().arguments.size(), 2u);
  EXPECT_EQ(loop.region(1).front().operations[0]->operands[0],
            loop.region(1).front().arguments[1].get());
  const Operation& sort = *BodyOps(*m)[1];
  EXPECT_EQ(sort.code, OpCode::kSort);
  EXPECT_EQ(*AttrToInt(*sort.attribute("dimension")), 0);
  EXPECT_TRUE(*AttrToBool(*sort.attribute("is_stable")));
  EXPECT_EQ(sort.operands[0], loop.result(0));
  EXPECT_EQ(sort.region(0).front().arguments.size(), 2u);
}

TEST(StablehloParser, DotGeneralAndConvolutionPrettyForms) {
  auto m = MustParse(R"(
func.func @main(%a: tensor<2x2x2xi64>, %l: tensor<1x4x4x1xi64>, %k: tensor<3x3x1x1xi64>) {
  %0 = stablehlo.dot_general %a, %a,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, HIGHEST]
    : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
  %1 = stablehlo.convolution(%l, %k)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [4, 4], pad = [[1, 2], [3, 4]], lhs_dilate = [2, 2], reverse = [1, 0]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  func.return
})");
  ASSERT_TRUE(m);
  const Operation& dot = *BodyOps(*m)[0];
  const Attribute* dims = dot.attribute("dot_dimension_numbers");
  ASSERT_NE(dims, nullptr);
  EXPECT_EQ(dims->kind, Attribute::Kind::kStruct);
  EXPECT_EQ(dims->str, "stablehlo.dot");
  EXPECT_EQ(*AttrToIntList(*dims->field("lhs_batching_dimensions")), std::vector<int64_t>{0});
  EXPECT_EQ(*AttrToIntList(*dims->field("rhs_contracting_dimensions")), std::vector<int64_t>{1});
  const Attribute* precision = dot.attribute("precision_config");
  ASSERT_EQ(precision->elements.size(), 2u);
  EXPECT_EQ(precision->elements[1].str, "stablehlo.precision");
  EXPECT_EQ(*AttrToEnumValue(precision->elements[1]), "HIGHEST");

  const Operation& conv = *BodyOps(*m)[1];
  const Attribute* cd = conv.attribute("dimension_numbers");
  ASSERT_NE(cd, nullptr);
  EXPECT_EQ(cd->str, "stablehlo.conv");
  EXPECT_EQ(*AttrToInt(*cd->field("input_batch_dimension")), 0);
  EXPECT_EQ(*AttrToInt(*cd->field("input_feature_dimension")), 3);
  EXPECT_EQ(*AttrToIntList(*cd->field("input_spatial_dimensions")), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(*AttrToInt(*cd->field("kernel_input_feature_dimension")), 2);
  EXPECT_EQ(*AttrToInt(*cd->field("kernel_output_feature_dimension")), 3);
  EXPECT_EQ(*AttrToIntList(*cd->field("kernel_spatial_dimensions")), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(*AttrToIntList(*conv.attribute("window_strides")), (std::vector<int64_t>{4, 4}));
  const Attribute* padding = conv.attribute("padding");
  EXPECT_EQ(padding->type, Type::Tensor(ElementType::kSI64, {2, 2}));
  EXPECT_EQ(*AttrToIntList(*padding), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(*AttrToIntList(*conv.attribute("lhs_dilation")), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(*AttrToIntList(*conv.attribute("window_reversal")), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(*AttrToInt(*conv.attribute("feature_group_count")), 1);

  // The generic spellings give the same attributes.
  auto g = MustParse(R"(
func.func @main(%l: tensor<1x4x4x1xi64>, %k: tensor<3x3x1x1xi64>) {
  %1 = "stablehlo.convolution"(%l, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    padding = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>, window_reversal = array<i1: true, false>}
    : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  %2 = "stablehlo.compare"(%l, %l) {comparison_direction = #stablehlo.comparison_direction<EQ>} : (tensor<1x4x4x1xi64>, tensor<1x4x4x1xi64>) -> tensor<1x4x4x1xi1>
  func.return
})");
  ASSERT_TRUE(g);
  const Operation& gconv = *BodyOps(*g)[0];
  EXPECT_EQ(*gconv.attribute("dimension_numbers"), *cd);
  EXPECT_EQ(*gconv.attribute("padding"), *padding);
  EXPECT_EQ(*gconv.attribute("window_reversal"), *conv.attribute("window_reversal"));
  const Attribute* dir = BodyOps(*g)[1]->attribute("comparison_direction");
  EXPECT_EQ(*dir, Attribute::Enum("stablehlo.comparison_direction", "EQ"));
}

TEST(StablehloParser, CheckChloAndInterpreterOpsKeepTheirSyntax) {
  auto m = MustParse(R"(
func.func @main(%x: tensor<3xf32>) {
  %0 = chlo.lgamma %x : tensor<3xf32> -> tensor<3xf32>
  %1, %2 = chlo.top_k(%x, k = 2) : tensor<3xf32> -> (tensor<2xf32>, tensor<2xi32>)
  check.expect_almost_eq_const %0, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  check.expect_almost_eq %0, %x, tolerance = 0.1 : tensor<3xf32>
  %3 = "interpreter.run_parallel"() {programs = [[@f], [@f]]} : () -> tensor<3xf32>
  func.return
})");
  ASSERT_TRUE(m);
  const auto& ops = BodyOps(*m);
  EXPECT_EQ(ops[0]->code, OpCode::kUnknown);
  EXPECT_EQ(ops[0]->name, "chlo.lgamma");
  EXPECT_EQ(ops[1]->name, "chlo.top_k");
  EXPECT_EQ(ops[1]->results.size(), 2u);
  EXPECT_EQ(*AttrToInt(*ops[1]->attribute("k")), 2);
  EXPECT_EQ(ops[2]->name, "check.expect_almost_eq_const");
  EXPECT_EQ(ops[2]->attribute("value")->kind, Attribute::Kind::kDenseElements);
  EXPECT_DOUBLE_EQ(*AttrToFloat(*ops[3]->attribute("tolerance")), 0.1);
  EXPECT_EQ(ops[4]->attribute("programs")->elements.size(), 2u);
}

// ---------------------------------------------------------------- literals

TEST(StablehloParser, DenseLiteralsUseTheStorageFormat) {
  auto m = MustParse(R"(
func.func @main() {
  %0 = stablehlo.constant dense<[[1.5, -2.0], [0x7FC00000, 0.0]]> : tensor<2x2xf32>
  %1 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %2 = stablehlo.constant dense<"0x0000C03F"> : tensor<3xf32>
  %3 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.0)]> : tensor<2xcomplex<f64>>
  %4 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %5 = stablehlo.constant dense<[18446744073709551615, 0]> : tensor<2xui64>
  %6 = stablehlo.constant dense<[-8, 7, -1]> : tensor<3xi4>
  %7 = stablehlo.constant dense<> : tensor<0x3xf32>
  %8 = stablehlo.constant dense<"0x0100"> : tensor<2xi1>
  %9 = stablehlo.constant dense<-1> : tensor<2x2xi8>
  %10 = stablehlo.constant dense<1.0> : tensor<bf16>
  %11 = stablehlo.constant dense<[255, -128]> : tensor<2xi8>
  func.return
})");
  ASSERT_TRUE(m);
  const auto& ops = BodyOps(*m);
  auto value = [&](size_t i) -> const Attribute& { return *ops[i]->attribute("value"); };
  EXPECT_FALSE(value(0).dense->splat);
  EXPECT_EQ(Element<float>(value(0), 0), 1.5f);
  EXPECT_EQ(Element<float>(value(0), 1), -2.0f);
  EXPECT_EQ(Element<uint32_t>(value(0), 2), 0x7FC00000u);
  EXPECT_EQ(Element<float>(value(1), 1), 2.0f);
  EXPECT_TRUE(value(2).dense->splat);
  EXPECT_EQ(value(2).dense->bytes.size(), 4u);
  EXPECT_EQ(Element<float>(value(2), 0), 1.5f);
  EXPECT_EQ(Element<double>(value(3), 1), 2.0);
  EXPECT_EQ(Element<double>(value(3), 2), -3.5);
  EXPECT_EQ(Element<uint8_t>(value(4), 0), 1);
  EXPECT_EQ(Element<uint8_t>(value(4), 1), 0);
  EXPECT_EQ(Element<uint64_t>(value(5), 0), ~uint64_t{0});
  EXPECT_EQ(Element<int8_t>(value(6), 0), -8);
  EXPECT_EQ(Element<int8_t>(value(6), 2), -1);
  EXPECT_EQ(*AttrToIntList(value(6)), (std::vector<int64_t>{-8, 7, -1}));
  EXPECT_TRUE(value(7).dense->bytes.empty());
  EXPECT_EQ(Element<uint8_t>(value(8), 0), 1);
  EXPECT_TRUE(value(9).dense->splat);
  EXPECT_EQ(*AttrToIntList(value(9)), (std::vector<int64_t>{-1, -1, -1, -1}));
  EXPECT_EQ(Element<uint16_t>(value(10), 0), 0x3F80);
  EXPECT_EQ(*AttrToIntList(value(11)), (std::vector<int64_t>{-1, -128}));
}

TEST(StablehloParser, QuantizedTypesParseIntoTheirParameters) {
  auto m = MustParse(R"(
func.func @main(%x: tensor<2xf32>) {
  %0 = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  func.return
})");
  ASSERT_TRUE(m);
  const Type& t = BodyOps(*m)[0]->result(0)->type;
  EXPECT_EQ(t.kind(), Type::Kind::kTensor);
  ASSERT_TRUE(t.is_quantized());
  EXPECT_EQ(t.element_type(), ElementType::kSI8);
  EXPECT_EQ(t.quant()->quantized_dimension, 0);
  EXPECT_EQ(t.ToString(), "tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>");
}

TEST(StablehloParser, AttributeSpellings) {
  auto m = MustParse(R"(
func.func @main() attributes {a = 5 : i64, b = -1, c = 1.5e-3 : f32, d = "x\"y\0A", e = @sym,
    f = [1, true], g = array<i64: 1, 2>, h = array<i1: true, false>, i = {j = unit, k}, l = tensor<2xf32>,
    m = #stablehlo<precision HIGH>, n = #stablehlo.gather<offset_dims = [1], index_vector_dim = 3>,
    o = 0x7FC00000 : f32, p = 18446744073709551615 : ui64, q = #stablehlo.channel_handle<handle=1, type=0>} {
  func.return
})");
  ASSERT_TRUE(m);
  const auto& a = m->functions[0]->attributes;
  EXPECT_EQ(*AttrToInt(*FindAttribute(a, "a")), 5);
  EXPECT_EQ(*AttrToInt(*FindAttribute(a, "b")), -1);
  EXPECT_NEAR(*AttrToFloat(*FindAttribute(a, "c")), 1.5e-3, 1e-12);
  EXPECT_EQ(FindAttribute(a, "c")->type, Type::Element(ElementType::kF32));
  EXPECT_EQ(FindAttribute(a, "d")->str, "x\"y\n");
  EXPECT_EQ(FindAttribute(a, "e")->kind, Attribute::Kind::kSymbolRef);
  EXPECT_EQ(*AttrToIntList(*FindAttribute(a, "f")), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(*AttrToIntList(*FindAttribute(a, "g")), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(*AttrToIntList(*FindAttribute(a, "h")), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(*AttrToBool(*FindAttribute(a, "i")->field("k")));
  EXPECT_EQ(FindAttribute(a, "l")->type, Type::Tensor(ElementType::kF32, {2}));
  EXPECT_EQ(*AttrToEnumValue(*FindAttribute(a, "m")), "HIGH");
  EXPECT_EQ(FindAttribute(a, "m")->str, "stablehlo.precision");
  const Attribute* gather = FindAttribute(a, "n");
  EXPECT_EQ(gather->kind, Attribute::Kind::kStruct);
  EXPECT_EQ(*AttrToIntList(*gather->field("offset_dims")), std::vector<int64_t>{1});
  EXPECT_EQ(*AttrToInt(*gather->field("index_vector_dim")), 3);
  EXPECT_EQ(gather->field("collapsed_slice_dims"), nullptr);
  EXPECT_TRUE(std::isnan(*AttrToFloat(*FindAttribute(a, "o"))));
  EXPECT_EQ(static_cast<uint64_t>(*AttrToInt(*FindAttribute(a, "p"))), ~uint64_t{0});
  EXPECT_EQ(*AttrToInt(*FindAttribute(a, "q")->field("handle")), 1);
  // Accessors reject the wrong kinds with a message.
  EXPECT_FALSE(AttrToInt(*FindAttribute(a, "d")).ok());
  EXPECT_FALSE(AttrToIntList(*FindAttribute(a, "c")).ok());
  EXPECT_FALSE(AttrToEnumValue(*FindAttribute(a, "a")).ok());
  EXPECT_FALSE(AttrToBool(*FindAttribute(a, "a")).ok());
}

// ---------------------------------------------------------------- errors

TEST(StablehloParserErrors, NameLocationAndRule) {
  struct Case {
    const char* text;
    const char* location;
    const char* message;
  };
  const Case cases[] = {
      {"func.func @f() {\n  %0 = stablehlo.add %x, %x : tensor<f32>\n}", "bad.mlir:2:22:",
       "use of undefined value %x"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<2xi32>\n}",
       "bad.mlir:2:32:", "3 elements but tensor<2xi32> has 2"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<\"0x0102\"> : tensor<3xi32>\n}",
       "bad.mlir:2:32:", "2 bytes"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<300> : tensor<i8>\n}",
       "bad.mlir:2:33:", "out of range for i8"},
      {"func.func @f(%a: tensor<2xf32>) {\n  %0 = \"stablehlo.abs\"(%a) : (tensor<3xf32>) -> tensor<2xf32>\n}",
       "bad.mlir:2:", "operand #0 of stablehlo.abs has type tensor<2xf32>"},
      {"func.func @f() {\n  %0 = stablehlo.iota dim = 0 : tensor<2xf32\n}", "bad.mlir:3:1:",
       "expected '>' to close the tensor type"},
      {"func.func @f() {\n  func.return\n", "bad.mlir:3:1:", "expected an operation or '}'"},
      {"func.func @f(%a: tensor<f32>) {\n  %a = stablehlo.abs %a : tensor<f32>\n}",
       "bad.mlir:2:3:", "redefinition of value %a"},
      {"module {\n  func.func @f() {\n    func.return\n  }\n  garbage\n}", "bad.mlir:5:3:",
       "expected 'func.func'"},
      {"func.func @f() {\n  %0:2 = stablehlo.constant dense<1> : tensor<i32>\n}", "bad.mlir:2:3:",
       "1 results but 2 are named"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<[[1], [2, 3]]> : tensor<2x2xi32>\n}",
       "bad.mlir:2:", "rows of different lengths"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<99999999999999999999xi32>\n}",
       "bad.mlir:2:", "too large"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<4294967296x4294967296xf32>\n}",
       "bad.mlir:2:", "too large"},
      {"func.func @f() {\n  %0 = stablehlo.constant dense<\"abc", "bad.mlir:2:33:",
       "unterminated string"},
  };
  for (const Case& c : cases) {
    std::string message = ErrorOf(c.text);
    EXPECT_NE(message.find(c.location), std::string::npos) << c.text << "\n-> " << message;
    EXPECT_NE(message.find(c.message), std::string::npos) << c.text << "\n-> " << message;
  }
}

TEST(StablehloParserErrors, DeepNestingIsRejectedNotOverflowed) {
  std::string deep = "func.func @f() attributes {a = " + std::string(100000, '[') + "} {}";
  EXPECT_NE(ErrorOf(deep).find("nesting deeper than"), std::string::npos);
  std::string dense = "func.func @f() {\n %0 = stablehlo.constant dense<" + std::string(100000, '[');
  EXPECT_NE(ErrorOf(dense).find("deeper than"), std::string::npos);
}

}  // namespace
}  // namespace plugrt::shlo
