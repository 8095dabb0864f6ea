// MLIR bytecode written in the HLO dialects themselves, as TensorFlow and
// XLA tools write MHLO and stablehlo-opt writes StableHLO (not a portable
// artifact's VHLO): each attribute of the mhlo, stablehlo and chlo
// encodings reads as the same attribute in text does; a whole MHLO program
// (func.func with properties, a region, dense_resource weights in the
// resource sections) builds the IR of its text twin; elided weights are
// refused or filled as asked; damaged files are errors, never crashes.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "compiler/bytecode_assembler.h"
#include "compiler/importers/bytecode/hlo_encoding.h"
#include "compiler/importers/bytecode/ir_attributes.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/mlir/parser.h"
#include "compiler/mhlo_bytecode_program.h"
#include "compiler/same_ir.h"
#include "stablehlo/printer.h"

namespace plugrt::shlo {
namespace {

using bc_test::Byte;
using bc_test::MhloBytecode;
using bc_test::MhloText;
using bc_test::Weights;
using bc_test::SignedList;
using bc_test::VarInt;
using bytecode::BcAttr;
using bytecode::BcType;
using bytecode::EncodingReader;

// What an entry may refer to: a f32 type and a result-accuracy mode.
class Entries : public bytecode::EntryReader {
 public:
  Entries() {
    f32_.kind = BcType::Kind::kElement;
    f32_.text = "f32";
    f32_.bits = 32;
    f32_.is_float = true;
    mode_.kind = BcAttr::Kind::kEnum;
    mode_.family = "result_accuracy_mode";
    mode_.str = "TOLERANCE";
  }
  Status ReadAttr(EncodingReader& r, const BcAttr** out) override {
    uint64_t i = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&i));
    if (i != 0) return r.Error("attribute ", i, " out of range");
    *out = &mode_;
    return OkStatus();
  }
  Status ReadOptionalAttr(EncodingReader& r, const BcAttr** out) override {
    return ReadAttr(r, out);
  }
  Status ReadType(EncodingReader& r, const BcType** out) override {
    uint64_t i = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&i));
    if (i != 0) return r.Error("type ", i, " out of range");
    *out = &f32_;
    return OkStatus();
  }
  Status ReadString(EncodingReader& r, std::string_view*) override {
    return r.Error("no strings");
  }

 private:
  BcType f32_;
  BcAttr mode_;
};

struct AttrCase {
  const char* dialect;
  std::string bytes;
  const char* text;  // how the same attribute is written in text
};

TEST(BytecodeHloDialectsTest, AttributeEncodingsReadAsTheirTextSpellings) {
  const std::vector<AttrCase> cases = {
      // mhlo: codes 0-18.
      {"mhlo", VarInt(1) + bc_test::Signed(5) + bc_test::Signed(1),
       "#mhlo.channel_handle<handle = 5, type = 1>"},
      {"mhlo", VarInt(2) + VarInt(5), "#mhlo<comparison_direction LT>"},
      {"mhlo", VarInt(3) + VarInt(1), "#mhlo<comparison_type FLOAT>"},
      {"mhlo",
       VarInt(4) + bc_test::Signed(0) + bc_test::Signed(3) + SignedList({1, 2}) +
           bc_test::Signed(2) + bc_test::Signed(3) + SignedList({0, 1}) + bc_test::Signed(0) +
           bc_test::Signed(3) + SignedList({1, 2}),
       "#mhlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"},
      {"mhlo", VarInt(5) + SignedList({0}) + SignedList({0}) + SignedList({2}) + SignedList({1}),
       "#mhlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
       "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>"},
      {"mhlo", VarInt(6) + VarInt(2), "#mhlo<fft_type RFFT>"},
      // Gather with batching dimensions, and as older MHLO wrote it.
      {"mhlo",
       VarInt(7) + SignedList({1}) + SignedList({0}) + SignedList({}) + SignedList({}) +
           SignedList({0}) + bc_test::Signed(1),
       "#mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
       "index_vector_dim = 1>"},
      {"mhlo", VarInt(7) + SignedList({1}) + SignedList({0}) + SignedList({0}) + bc_test::Signed(1),
       "#mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
       "index_vector_dim = 1>"},
      {"mhlo", VarInt(8) + VarInt(2), "#mhlo<precision HIGHEST>"},
      {"mhlo", VarInt(9) + VarInt(1), "#mhlo.rng_algorithm<THREE_FRY>"},
      {"mhlo", VarInt(10) + VarInt(2), "#mhlo.rng_distribution<NORMAL>"},
      {"mhlo",
       VarInt(11) + SignedList({1}) + SignedList({0}) + SignedList({}) + SignedList({}) +
           SignedList({0}) + bc_test::Signed(1),
       "#mhlo.scatter<update_window_dims = [1], inserted_window_dims = [0], "
       "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>"},
      {"mhlo", VarInt(12) + VarInt(1), "#mhlo<transpose NO_TRANSPOSE>"},
      {"mhlo", VarInt(16) + SignedList({}) + bc_test::Signed(0) + SignedList({}),
       "#mhlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, "
       "operand_tuple_indices = []>"},
      // stablehlo: its own numbers from 14 on.
      {"stablehlo", VarInt(2) + VarInt(2), "#stablehlo<comparison_direction GE>"},
      {"stablehlo", VarInt(14) + SignedList({1}) + bc_test::Signed(2) + SignedList({}),
       "#stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 2, "
       "operand_tuple_indices = []>"},
      {"stablehlo",
       VarInt(15) + VarInt(0) + VarInt(0) + VarInt(0) + bc_test::Signed(1) + bc_test::Signed(1) +
           bc_test::Signed(1) + bc_test::Signed(0),
       "#stablehlo.dot_algorithm<lhs_precision_type = f32, rhs_precision_type = f32, "
       "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
       "num_primitive_operations = 1, allow_imprecise_accumulation = false>"},
      {"stablehlo", VarInt(16) + VarInt(1), "#stablehlo.result_accuracy_mode<HIGHEST>"},
      {"stablehlo", VarInt(17) + bc_test::Signed(0) + bc_test::Signed(0) + bc_test::Signed(2) +
                        VarInt(0),
       "#stablehlo.result_accuracy<atol = 0.000000e+00, rtol = 0.000000e+00, ulps = 2, mode = "
       "#stablehlo.result_accuracy_mode<TOLERANCE>>"},
      // chlo: two codes of its own.
      {"chlo", VarInt(0) + VarInt(5), "#chlo<comparison_direction LT>"},
      {"chlo", VarInt(1) + VarInt(3), "#chlo<comparison_type SIGNED>"},
  };
  Entries entries;
  for (const AttrCase& c : cases) {
    EncodingReader r(c.bytes, 0);
    BcAttr a;
    Status s = bytecode::DecodeHloAttr(r, c.dialect, entries, &a);
    ASSERT_TRUE(s.ok()) << c.text << ": " << s.ToString();
    EXPECT_TRUE(r.empty()) << c.text;
    bytecode::IrAttributes ir(1024, ElidedConstantFill());
    StatusOr<Attribute> decoded = ir.AttrOf(&a);
    ASSERT_TRUE(decoded.ok()) << c.text << ": " << decoded.status().ToString();
    StatusOr<Attribute> written = ParseAttributeText(c.text);
    ASSERT_TRUE(written.ok()) << c.text << ": " << written.status().ToString();
    EXPECT_TRUE(*decoded == *written)
        << c.dialect << " " << c.text << ": read as " << decoded->ToString() << ", text gives "
        << written->ToString();
  }
}

TEST(BytecodeHloDialectsTest, UnknownAndDamagedEncodingsAreErrorsNamingTheOffset) {
  struct Case {
    const char* dialect;
    std::string bytes;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"mhlo", VarInt(99), "mhlo attribute code 99"},
      {"stablehlo", VarInt(0), "stablehlo attribute code 0"},
      {"stablehlo", VarInt(22), "replica-group mesh"},
      {"chlo", VarInt(2), "chlo attribute code 2"},
      {"mhlo", VarInt(2) + VarInt(9), "comparison_direction value 9"},
      {"mhlo", VarInt(4) + bc_test::Signed(0), "at byte"},
      {"mhlo", VarInt(7) + SignedList({1}) + SignedList({0}), "at byte"},
  };
  Entries entries;
  for (const Case& c : cases) {
    EncodingReader r(c.bytes, 10);
    BcAttr a;
    Status s = bytecode::DecodeHloAttr(r, c.dialect, entries, &a);
    ASSERT_FALSE(s.ok()) << c.message;
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.message;
    EXPECT_NE(s.message().find("at byte 1"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.ToString();
  }
}

TEST(BytecodeHloDialectsTest, MhloProgramBuildsTheIrOfItsTextTwin) {
  StatusOr<std::unique_ptr<Module>> from_bc = ReadBytecodeModule(MhloBytecode(), "tf.mlirbc");
  ASSERT_TRUE(from_bc.ok()) << from_bc.status().ToString();
  StatusOr<std::unique_ptr<Module>> from_text = ParseModule(MhloText(), "tf.mlir");
  ASSERT_TRUE(from_text.ok()) << from_text.status().ToString();
  EXPECT_EQ(SameIr().Compare(**from_bc, **from_text), "") << PrintModule(**from_bc);
  EXPECT_EQ(PrintModule(**from_bc), PrintModule(**from_text));
  // The ops read as StableHLO, mhlo.copy as its operand.
  const std::string printed = PrintModule(**from_bc);
  EXPECT_NE(printed.find("stablehlo.dot_general"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("mhlo."), std::string::npos) << printed;
  EXPECT_EQ(printed.find("copy"), std::string::npos) << printed;
}

TEST(BytecodeHloDialectsTest, WeightsLeftOutAreRefusedOrFilledAsAsked) {
  for (Weights weights : {Weights::kDeclaredOnly, Weights::kElided}) {
    const std::string bytes = MhloBytecode(weights);
    StatusOr<std::unique_ptr<Module>> refused = ReadBytecodeModule(bytes, "tf.mlirbc");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(refused.status().message().find("left out of the file"), std::string::npos)
        << refused.status().ToString();
    ReadOptions zeros;
    zeros.elided.mode = ElidedConstantFill::Mode::kZeros;
    StatusOr<std::unique_ptr<Module>> filled = ReadBytecodeModule(bytes, "tf.mlirbc", zeros);
    ASSERT_TRUE(filled.ok()) << filled.status().ToString();
    const std::string printed = PrintModule(**filled);
    const std::string zeros_literal = "dense<\"0x" + std::string(64, '0') + "\"> : tensor<2x4xf32>";
    EXPECT_NE(printed.find(zeros_literal), std::string::npos) << printed;
  }
}

TEST(BytecodeHloDialectsTest, DamagedFilesAreErrorsNeverCrashes) {
  const std::string good = MhloBytecode();
  int errors = 0;
  for (size_t cut = 0; cut < good.size(); ++cut) {
    StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(good.substr(0, cut), "cut.mlirbc");
    EXPECT_FALSE(m.ok()) << "a file cut at byte " << cut << " read";
    errors += !m.ok();
  }
  for (size_t i = 0; i < good.size(); ++i) {
    for (uint8_t flip : {0x01, 0x80, 0xFF}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(bad, "bad.mlirbc");
      if (!m.ok()) {
        EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument) << m.status().ToString();
      }
    }
  }
  EXPECT_EQ(errors, static_cast<int>(good.size()));
}

}  // namespace
}  // namespace plugrt::shlo
