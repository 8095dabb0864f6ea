// The StableHLO printer: generic-form output that the parser reads back to
// the same program, for hand-written cases and every corpus program.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "stablehlo/ir.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "testutil/corpus.h"

namespace plugrt::shlo {
namespace {

namespace fs = std::filesystem;
using testutil::CorpusDir;
using testutil::MlirFiles;
using testutil::ReadFile;

// Structural equality of two functions' bodies: op names, codes, attributes,
// types, operand wiring (by position) and regions.
void ExpectSameRegion(const Region& a, const Region& b, const std::string& where);

void ExpectSameBlock(const Block& a, const Block& b, const std::string& where) {
  ASSERT_EQ(a.arguments.size(), b.arguments.size()) << where;
  for (size_t i = 0; i < a.arguments.size(); ++i) {
    EXPECT_EQ(a.arguments[i]->type, b.arguments[i]->type) << where;
  }
  ASSERT_EQ(a.operations.size(), b.operations.size()) << where;
  for (size_t i = 0; i < a.operations.size(); ++i) {
    const Operation& x = *a.operations[i];
    const Operation& y = *b.operations[i];
    std::string here = where + " op " + x.name;
    EXPECT_EQ(x.name, y.name) << here;
    EXPECT_EQ(x.code, y.code) << here;
    ASSERT_EQ(x.attributes.size(), y.attributes.size()) << here;
    for (size_t k = 0; k < x.attributes.size(); ++k) {
      EXPECT_EQ(x.attributes[k].first, y.attributes[k].first) << here;
      EXPECT_TRUE(x.attributes[k].second == y.attributes[k].second)
          << here << ": " << x.attributes[k].second.ToString() << " vs "
          << y.attributes[k].second.ToString();
    }
    ASSERT_EQ(x.operands.size(), y.operands.size()) << here;
    for (size_t k = 0; k < x.operands.size(); ++k) {
      EXPECT_EQ(x.operands[k]->type, y.operands[k]->type) << here;
      EXPECT_EQ(x.operands[k]->index, y.operands[k]->index) << here;
      EXPECT_EQ(x.operands[k]->defining_op == nullptr, y.operands[k]->defining_op == nullptr)
          << here;
    }
    ASSERT_EQ(x.results.size(), y.results.size()) << here;
    for (size_t k = 0; k < x.results.size(); ++k) {
      EXPECT_EQ(x.results[k]->type, y.results[k]->type) << here;
    }
    ASSERT_EQ(x.regions.size(), y.regions.size()) << here;
    for (size_t k = 0; k < x.regions.size(); ++k) ExpectSameRegion(*x.regions[k], *y.regions[k], here);
  }
}

void ExpectSameRegion(const Region& a, const Region& b, const std::string& where) {
  ASSERT_EQ(a.blocks.size(), b.blocks.size()) << where;
  for (size_t i = 0; i < a.blocks.size(); ++i) ExpectSameBlock(*a.blocks[i], *b.blocks[i], where);
}

void ExpectSameModule(const Module& a, const Module& b) {
  EXPECT_EQ(a.name, b.name);
  ASSERT_EQ(a.functions.size(), b.functions.size());
  for (size_t i = 0; i < a.functions.size(); ++i) {
    const Function& f = *a.functions[i];
    const Function& g = *b.functions[i];
    EXPECT_EQ(f.name, g.name);
    EXPECT_EQ(f.is_public, g.is_public);
    EXPECT_EQ(f.input_types, g.input_types);
    EXPECT_EQ(f.result_types, g.result_types);
    ExpectSameRegion(*f.body, *g.body, f.name);
  }
}

TEST(StablehloPrinter, PrintsTheGenericForm) {
  auto m = ParseModule(R"(
module @m attributes {x = 1 : i32} {
  func.func private @f(%a: tensor<2xf32> {k = "v"}) -> (tensor<2xf32> {r}) {
    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %0 = stablehlo.add %a, %a : tensor<2xf32>
    %1:2 = "test.two"(%0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi32>)
    func.return %1#0 : tensor<2xf32>
  }
})", "p.mlir");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  std::string text = PrintModule(**m);
  EXPECT_EQ(text,
            "module @m attributes {x = 1 : i32} {\n"
            "  func.func private @f(%arg0: tensor<2xf32> {k = \"v\"}) -> (tensor<2xf32> {r}) {\n"
            "    %0 = \"stablehlo.constant\"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> "
            "tensor<2xi32>\n"
            "    %1 = \"stablehlo.add\"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> "
            "tensor<2xf32>\n"
            "    %2:2 = \"test.two\"(%1) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi32>)\n"
            "    \"func.return\"(%2#0) : (tensor<2xf32>) -> ()\n"
            "  }\n"
            "}\n");
  const Operation& add = *(*m)->functions[0]->body->front().operations[1];
  EXPECT_EQ(PrintOperation(add),
            "%0 = \"stablehlo.add\"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>");
}

TEST(StablehloPrinter, AttributesPrintParseably) {
  EXPECT_EQ(Attribute::Enum("stablehlo.comparison_direction", "EQ").ToString(),
            "#stablehlo<comparison_direction EQ>");
  EXPECT_EQ(Attribute::Integer(-3, Type::Element(ElementType::kSI32)).ToString(), "-3 : i32");
  EXPECT_EQ(Attribute::Integer(-1, Type::Element(ElementType::kUI64)).ToString(),
            "18446744073709551615 : ui64");
  EXPECT_EQ(Attribute::Float(0.5, Type::Element(ElementType::kF32)).ToString(), "0.5 : f32");
  EXPECT_EQ(Attribute::Float(2, Type::Element(ElementType::kF64)).ToString(), "2.0 : f64");
  EXPECT_EQ(Attribute::String("a\"b\n").ToString(), "\"a\\\"b\\n\"");
  EXPECT_EQ(Attribute::DenseI64Array({1, -2}).ToString(), "array<i64: 1, -2>");
  EXPECT_EQ(Attribute::DenseI64Array({}).ToString(), "array<i64>");
  EXPECT_EQ(Attribute::Struct("stablehlo.gather", {{"offset_dims", Attribute::DenseI64Array({1})}})
                .ToString(),
            "#stablehlo.gather<offset_dims = [1]>");
  EXPECT_EQ(Type::Tensor(ElementType::kC64, {2, kDynamicSize}).ToString(),
            "tensor<2x?xcomplex<f32>>");
  EXPECT_EQ(Type::Tuple({Type::Scalar(ElementType::kI1), Type::Token()}).ToString(),
            "tuple<tensor<i1>, !stablehlo.token>");
}

// For every corpus program: print, parse the print, print again; the two
// prints are identical and the two modules structurally equal.
TEST(StablehloPrinter, CorpusRoundTrip) {
  std::vector<fs::path> files;
  for (const char* sub : {"testdata", "interpret"}) {
    fs::path dir = CorpusDir() / sub;
    if (!fs::exists(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".mlir") files.push_back(entry.path());
    }
  }
  if (files.empty()) GTEST_FAIL() << "corpus not found at " << CorpusDir();
  std::sort(files.begin(), files.end());
  int programs = 0, identical = 0;
  for (const auto& file : files) {
    std::string text = ReadFile(file);
    for (const SourceSection& section : SplitSections(text)) {
      auto first = ParseModule(section.text, file.string(), section.first_line);
      if (!first.ok()) continue;  // parse failures are counted by the parser test
      ++programs;
      std::string printed = PrintModule(**first);
      auto second = ParseModule(printed, "printed.mlir");
      if (!second.ok()) {
        ADD_FAILURE() << file << ": printed form does not parse: " << second.status().message();
        continue;
      }
      std::string reprinted = PrintModule(**second);
      if (reprinted == printed) {
        ++identical;
      } else {
        ADD_FAILURE() << file << ": print differs after a round trip";
      }
      // Structural comparison on a sample keeps the test quick.
      if (programs % 25 == 0) ExpectSameModule(**first, **second);
    }
  }
  EXPECT_EQ(identical, programs);
  EXPECT_GT(programs, 2400);
}

}  // namespace
}  // namespace plugrt::shlo
