// Shardy's dialect in a portable artifact, as JAX writes it when it exports
// with Shardy: each attribute of Shardy's own bytecode encoding reads as
// its MLIR spelling (what the same attribute in a text program parses to),
// damaged encodings are INVALID_ARGUMENT naming the offset, and a
// hand-written artifact with an `sdy.mesh` op (its properties in name
// order) and a FileLineColRange location reads into the module.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/bytecode_assembler.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/bytecode/sdy_encoding.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo {
namespace {

using bytecode::BcAttr;
using bytecode::EncodingReader;

using bc_test::List;
using bc_test::Signed;
using bc_test::SignedList;
using bc_test::VarInt;

// The attribute table and string table a Shardy entry refers to: entries
// decoded so far, and two strings.
class Table : public bytecode::EntryReader {
 public:
  Table() {
    for (const char* s : {"x", "y"}) strings_.push_back(s);
    Add(String("x"));  // 0
    Add(String("y"));  // 1
    auto mesh = std::make_unique<BcAttr>();
    mesh->kind = BcAttr::Kind::kSymbolRef;
    mesh->str = "mesh";
    Add(std::move(mesh));  // 2
  }

  Status ReadAttr(EncodingReader& r, const BcAttr** out) override {
    uint64_t index = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
    if (index >= attrs_.size()) return r.Error("attribute ", index, " out of range");
    *out = attrs_[index].get();
    return OkStatus();
  }
  Status ReadOptionalAttr(EncodingReader& r, const BcAttr** out) override {
    uint64_t index = 0;
    bool present = false;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&index, &present));
    *out = nullptr;
    if (!present) return OkStatus();
    if (index >= attrs_.size()) return r.Error("attribute ", index, " out of range");
    *out = attrs_[index].get();
    return OkStatus();
  }
  Status ReadType(EncodingReader& r, const bytecode::BcType**) override {
    return r.Error("no types in this table");
  }
  Status ReadString(EncodingReader& r, std::string_view* out) override {
    uint64_t index = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
    if (index >= strings_.size()) return r.Error("string ", index, " out of range");
    *out = strings_[index];
    return OkStatus();
  }

  // Decodes `bytes` (an entry whose first byte is at offset 100) into the
  // next entry; its spelling, or the error.
  StatusOr<std::string> Decode(const std::string& bytes) {
    EncodingReader r(bytes, 100);
    auto a = std::make_unique<BcAttr>();
    PLUGRT_RETURN_IF_ERROR(bytecode::DecodeSdyAttr(r, *this, a.get()));
    if (!r.empty()) return r.Error("trailing bytes");
    std::string text = a->str;
    Add(std::move(a));
    return text;
  }
  uint64_t next() const { return attrs_.size(); }

 private:
  static std::unique_ptr<BcAttr> String(const char* s) {
    auto a = std::make_unique<BcAttr>();
    a->kind = BcAttr::Kind::kString;
    a->str = s;
    return a;
  }
  void Add(std::unique_ptr<BcAttr> a) { attrs_.push_back(std::move(a)); }

  std::vector<std::string> strings_;
  std::vector<std::unique_ptr<BcAttr>> attrs_;
};

// Decodes and expects `spelling`, which must also parse as an attribute.
void ExpectSpelling(Table& table, const std::string& bytes, const std::string& spelling) {
  StatusOr<std::string> text = table.Decode(bytes);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text, spelling);
  StatusOr<Attribute> parsed = ParseAttributeText(*text);
  EXPECT_TRUE(parsed.ok()) << *text << ": " << parsed.status().ToString();
}

TEST(BytecodeSdyTest, AttributesReadAsTheirSpellings) {
  Table t;
  // Codes: 1 mesh axis, 2 mesh, 3 sub-axis info, 4 axis ref, 5 dimension
  // sharding, 6/15/17 tensor sharding, 7/16 per value, 0 manual axes.
  const uint64_t axis_x = t.next();
  ExpectSpelling(t, VarInt(1) + VarInt(0) + Signed(2), "#sdy<mesh_axis\"x\"=2>");
  const uint64_t axis_y = t.next();
  ExpectSpelling(t, VarInt(1) + VarInt(1) + Signed(4), "#sdy<mesh_axis\"y\"=4>");
  const uint64_t mesh = t.next();
  ExpectSpelling(t, VarInt(2) + List({axis_x, axis_y}) + SignedList({}),
                 "#sdy.mesh<[\"x\"=2, \"y\"=4]>");
  ExpectSpelling(t, VarInt(2) + List({axis_x}) + SignedList({1, 0}),
                 "#sdy.mesh<[\"x\"=2], device_ids=[1, 0]>");
  const uint64_t sub = t.next();
  ExpectSpelling(t, VarInt(3) + Signed(1) + Signed(2), "#sdy<sub_axis_info(1)2>");
  const uint64_t ref_x = t.next();
  ExpectSpelling(t, VarInt(4) + VarInt(0) + VarInt(0), "#sdy<axis_ref\"x\">");
  const uint64_t ref_y_sub = t.next();
  ExpectSpelling(t, VarInt(4) + VarInt(1) + VarInt((sub << 1) | 1), "#sdy<axis_ref\"y\":(1)2>");
  // Dimension shardings: axes, closed (one byte), optional priority.
  const uint64_t dim_x_p0 = t.next();
  ExpectSpelling(t, VarInt(5) + List({ref_x}) + std::string(1, '\x01') + VarInt((0 << 1) | 1),
                 "#sdy<dimension_sharding{\"x\"}p0>");
  const uint64_t dim_open = t.next();
  ExpectSpelling(t, VarInt(5) + List({}) + std::string(1, '\x00') + VarInt(0),
                 "#sdy<dimension_sharding{?}>");
  const uint64_t dim_y_open = t.next();
  ExpectSpelling(t, VarInt(5) + List({ref_y_sub}) + std::string(1, '\x00') + VarInt(0),
                 "#sdy<dimension_sharding{\"y\":(1)2, ?}>");
  // Tensor shardings on a mesh symbol (entry 2) or an inline mesh.
  const uint64_t sharding = t.next();
  ExpectSpelling(t, VarInt(6) + VarInt(2) + List({dim_x_p0, dim_open}) + List({ref_y_sub}),
                 "#sdy.sharding<@mesh, [{\"x\"}p0, {?}], replicated={\"y\":(1)2}>");
  const uint64_t inline_mesh = t.next();
  ExpectSpelling(t, VarInt(6) + VarInt(mesh) + List({dim_y_open}) + List({}),
                 "#sdy.sharding<mesh<[\"x\"=2, \"y\"=4]>, [{\"y\":(1)2, ?}]>");
  ExpectSpelling(t, VarInt(15) + VarInt(2) + List({}) + List({}) + List({ref_x}),
                 "#sdy.sharding<@mesh, [], unreduced={\"x\"}>");
  ExpectSpelling(t, VarInt(17) + VarInt(2) + List({dim_open}) + List({}) + List({ref_x}) +
                        Signed(1),
                 "#sdy.sharding<@mesh, [{?}], unreduced=max{\"x\"}>");
  ExpectSpelling(t, VarInt(7) + List({sharding, inline_mesh}),
                 "#sdy.sharding_per_value<[<@mesh, [{\"x\"}p0, {?}], replicated={\"y\":(1)2}>, "
                 "<mesh<[\"x\"=2, \"y\"=4]>, [{\"y\":(1)2, ?}]>]>");
  ExpectSpelling(t, VarInt(0) + List({0, 1}), "#sdy<manual_axes{\"x\", \"y\"}>");
  // A sharding rule: factor sizes, operand and result mappings, the kinds
  // of factors, and whether it is a custom call's.
  const uint64_t map_i = t.next();
  ExpectSpelling(t, VarInt(8) + SignedList({0}), "#sdy<dim_mappingi>");
  const uint64_t map_jk = t.next();
  ExpectSpelling(t, VarInt(8) + SignedList({1, 2}), "#sdy<dim_mappingjk>");
  const uint64_t tensor_in = t.next();
  ExpectSpelling(t, VarInt(9) + List({map_i, map_jk}), "#sdy<tensor_mapping[i, jk]>");
  const uint64_t tensor_out = t.next();
  ExpectSpelling(t, VarInt(9) + List({map_i}), "#sdy<tensor_mapping[i]>");
  ExpectSpelling(t,
                 VarInt(10) + SignedList({4, 2, 3}) + List({tensor_in}) + List({tensor_out}) +
                     SignedList({1, 2}) + SignedList({}) + SignedList({}) + SignedList({}) +
                     std::string(1, '\x01'),
                 "#sdy.op_sharding_rule<([i, jk])->([i]) {i=4, j=2, k=3} reduction={j, k}, "
                 "custom>");
}

TEST(BytecodeSdyTest, DamagedEncodingsAreErrorsNamingTheOffset) {
  Table t;
  const uint64_t axis = t.next();
  ASSERT_TRUE(t.Decode(VarInt(1) + VarInt(0) + Signed(2)).ok());
  struct Case {
    const char* what;
    std::string bytes;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"unknown code", VarInt(99), "code 99"},
      {"truncated mesh axis", VarInt(1) + VarInt(0), "at byte"},
      {"a mesh axis where a dimension sharding belongs",
       VarInt(6) + VarInt(2) + List({axis}) + List({}), "dimension_sharding"},
      {"a flag that is neither 0 nor 1", VarInt(5) + List({}) + std::string(1, '\x05') + VarInt(0),
       "flag"},
      {"a string out of range", VarInt(1) + VarInt(9) + Signed(2), "out of range"},
      {"an unknown reduction", VarInt(17) + VarInt(2) + List({}) + List({}) + List({}) + Signed(7),
       "reduction"},
  };
  for (const Case& c : cases) {
    StatusOr<std::string> text = t.Decode(c.bytes);
    ASSERT_FALSE(text.ok()) << c.what;
    EXPECT_EQ(text.status().code(), StatusCode::kInvalidArgument) << c.what;
    EXPECT_NE(text.status().message().find("at byte 10"), std::string::npos)
        << c.what << ": " << text.status().ToString();
    EXPECT_NE(text.status().message().find(c.message), std::string::npos)
        << c.what << ": " << text.status().ToString();
  }
}

// A whole artifact, written by hand: a module located by a FileLineColRange
// holding one `sdy.mesh` op whose properties are the mesh (Shardy's
// encoding) and the name, in that (name) order.
std::string MeshArtifact(int64_t axis_size) {
  bc_test::BytecodeAssembler as;
  const uint64_t op_module = as.OpName("builtin", "module");
  const uint64_t op_mesh = as.OpName("sdy", "mesh");
  const uint64_t file = as.Attr("builtin", VarInt(2) + VarInt(as.Str("f.py")));
  const uint64_t name = as.Attr("builtin", VarInt(2) + VarInt(as.Str("m")));
  // The range f.py:3:7 to :12.
  const uint64_t range = as.Attr(
      "builtin", VarInt(22) + VarInt(file) + VarInt(3) + VarInt(3) + VarInt(7) + VarInt(12));
  const uint64_t axis = as.Attr("sdy", VarInt(1) + VarInt(as.Str("x")) + Signed(axis_size));
  const uint64_t mesh = as.Attr("sdy", VarInt(2) + List({axis}) + SignedList({}));
  const uint64_t props = as.Properties(VarInt(mesh) + VarInt(name));
  // The module (regions, isolated: its body is a section of its own), whose
  // one block holds the mesh op.
  const std::string mesh_op =
      VarInt(op_mesh) + bc_test::Byte(bc_test::kOpHasProperties) + VarInt(range) + VarInt(props);
  const std::string body = VarInt(1) + VarInt(0) + VarInt(1 << 1) + mesh_op;
  const std::string ir = VarInt(1 << 1) + VarInt(op_module) +
                         bc_test::Byte(bc_test::kOpHasRegions) + VarInt(range) +
                         VarInt((1 << 1) | 1) + bc_test::Section(4, body);
  return as.Finish(ir);
}

TEST(BytecodeSdyTest, MeshOpAndRangeLocationReadIntoTheModule) {
  StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(MeshArtifact(4), "mesh.mlirbc");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ((*m)->meshes.size(), 1u);
  EXPECT_EQ((*m)->meshes[0].first, "m");
  EXPECT_EQ((*m)->meshes[0].second.str, "sdy.mesh");
  EXPECT_EQ((*m)->meshes[0].second.enum_value, "[\"x\"=4]");
  const std::string where = (*m)->location.ToString();
  EXPECT_NE(where.find("f.py:3:7"), std::string::npos) << where;
}

}  // namespace
}  // namespace plugrt::shlo
