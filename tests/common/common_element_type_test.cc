// The element type table (common/element_type.h) and the layers that read
// it agree: every ABI type's StableHLO spelling parses back to that type,
// widths and kinds match the IR's, names and dtype names are unique.
#include "common/element_type.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "stablehlo/element_type.h"

namespace plugrt {
namespace {

TEST(ElementTypeTableTest, NamesAreUniqueAndParseBack) {
  std::set<std::string_view> names, numpy;
  for (const ElementTypeInfo& info : kElementTypes) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    if (!info.numpy.empty()) {
      EXPECT_TRUE(numpy.insert(info.numpy).second) << info.numpy;
    }
    if (info.type == PJRT_Buffer_Type_INVALID) continue;
    StatusOr<PJRT_Buffer_Type> parsed = ParseElementType(info.name);
    ASSERT_TRUE(parsed.ok()) << info.name;
    EXPECT_EQ(*parsed, info.type);
  }
  EXPECT_EQ(*ParseElementType("BF16"), PJRT_Buffer_Type_BF16);
  EXPECT_FALSE(ParseElementType("invalid").ok());
  EXPECT_FALSE(ParseElementType("f31").ok());
  EXPECT_EQ(ElementTypeName(999), "unknown");
  EXPECT_EQ(ElementBitWidth(-1), 0);
  EXPECT_EQ(AllElementTypes().size(), static_cast<size_t>(kNumPjrtElementTypes - 1));
}

TEST(ElementTypeTableTest, SizesOfDenseArrays) {
  EXPECT_EQ(DenseByteSize(PJRT_Buffer_Type_F32, {2, 3}), 24);
  EXPECT_EQ(DenseByteSize(PJRT_Buffer_Type_S4, {3}), 2);  // 12 bits packed
  EXPECT_EQ(DenseByteSize(PJRT_Buffer_Type_PRED, {3}), 3);
  EXPECT_EQ(DenseByteSize(PJRT_Buffer_Type_F32, {int64_t{1} << 62, 4}), -1);
  EXPECT_EQ(HostElementByteSize(PJRT_Buffer_Type_U2), 1);
  EXPECT_EQ(HostElementByteSize(PJRT_Buffer_Type_C128), 16);
  EXPECT_EQ(HostElementByteSize(PJRT_Buffer_Type_TOKEN), 0);
  EXPECT_EQ(NumpyTypeName(PJRT_Buffer_Type_BF16), "bfloat16");
  EXPECT_EQ(NumpyTypeName(PJRT_Buffer_Type_TOKEN), "token");
}

// The IR reads its spellings and widths from the table; both directions of
// the ABI mapping must hold for every type that has a spelling.
TEST(ElementTypeTableTest, StableHloAgrees) {
  int mapped = 0;
  for (const ElementTypeInfo& info : kElementTypes) {
    if (info.stablehlo.empty()) {
      EXPECT_FALSE(shlo::FromPjrtType(info.type).has_value()) << info.name;
      continue;
    }
    std::optional<shlo::ElementType> ir = shlo::ParseElementTypeName(info.stablehlo);
    ASSERT_TRUE(ir.has_value()) << info.stablehlo;
    EXPECT_EQ(shlo::ElementTypeName(*ir), info.stablehlo);
    EXPECT_EQ(shlo::ToPjrtType(*ir), info.type) << info.name;
    EXPECT_EQ(shlo::FromPjrtType(info.type), ir) << info.name;
    EXPECT_EQ(shlo::BitWidth(*ir), info.kind == ElementKind::kBool ? 1 : info.bits) << info.name;
    EXPECT_EQ(shlo::IsBoolean(*ir), info.kind == ElementKind::kBool) << info.name;
    EXPECT_EQ(shlo::IsSignedInteger(*ir), info.kind == ElementKind::kSigned) << info.name;
    EXPECT_EQ(shlo::IsUnsignedInteger(*ir), info.kind == ElementKind::kUnsigned) << info.name;
    EXPECT_EQ(shlo::IsFloat(*ir), info.kind == ElementKind::kFloat) << info.name;
    EXPECT_EQ(shlo::IsComplex(*ir), info.kind == ElementKind::kComplex) << info.name;
    ++mapped;
  }
  EXPECT_EQ(mapped, 28);  // all but INVALID, TOKEN, S1, U1
  // The IR's own types without an ABI type keep their spelling.
  EXPECT_EQ(shlo::ElementTypeName(shlo::ElementType::kF6E2M3FN), "f6E2M3FN");
  EXPECT_EQ(shlo::BitWidth(shlo::ElementType::kF6E3M2FN), 6);
  EXPECT_EQ(shlo::ParseElementTypeName("si32"), shlo::ElementType::kSI32);
}

}  // namespace
}  // namespace plugrt
