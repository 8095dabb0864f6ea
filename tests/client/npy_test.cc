// .npy reading and writing (tools/npy.cc): every NumPy dtype round trips,
// headers NumPy writes parse, malformed files get errors naming the problem.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/element_type.h"
#include "testutil/plugin_env.h"

// The CLI's pieces, from the plugrt_tools library.
#include "client/element_decode.h"
#include "client/npy.h"

namespace plugrt::tools {
namespace {

using ::plugrt::testing::ToStatus;

// A .npy file as NumPy 1.x writes it: version 1.0, header padded to 64.
std::string MakeNpy(const std::string& dict, const std::string& payload, int major = 1) {
  std::string header = dict;
  const size_t preamble = major == 1 ? 10 : 12;
  header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  if (major != 1) out += std::string(2, '\0');
  return out + header + payload;
}

template <typename T>
std::string Bytes(std::initializer_list<T> values) {
  std::string out;
  for (T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof(T));
  return out;
}

struct DtypeCase {
  PJRT_Buffer_Type type;
  const char* descr;
};

class NpyRoundTrip : public ::testing::TestWithParam<DtypeCase> {};

TEST_P(NpyRoundTrip, SerializeThenParseGivesTheSameArray) {
  const DtypeCase& c = GetParam();
  HostArray array;
  array.type = c.type;
  array.dims = {2, 3};
  array.data.resize(HostByteSize(c.type, array.dims));
  for (size_t i = 0; i < array.data.size(); ++i) {
    array.data[i] = static_cast<std::byte>(c.type == PJRT_Buffer_Type_PRED ? i % 2 : i * 7 + 1);
  }
  StatusOr<std::string> bytes = SerializeNpy(array);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_NE(bytes->find(std::string("'descr': '") + c.descr + "'"), std::string::npos) << *bytes;
  EXPECT_NE(bytes->find("'shape': (2, 3)"), std::string::npos);
  // Data starts on a 64-byte boundary, as NumPy aligns it.
  EXPECT_EQ((bytes->size() - array.data.size()) % 64, 0u);

  StatusOr<HostArray> parsed = ParseNpy(*bytes, "x.npy");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->type, c.type);
  EXPECT_EQ(parsed->dims, array.dims);
  EXPECT_EQ(parsed->data, array.data);
}

INSTANTIATE_TEST_SUITE_P(
    EveryNumpyDtype, NpyRoundTrip,
    ::testing::Values(DtypeCase{PJRT_Buffer_Type_PRED, "|b1"}, DtypeCase{PJRT_Buffer_Type_S8, "|i1"},
                      DtypeCase{PJRT_Buffer_Type_S16, "<i2"}, DtypeCase{PJRT_Buffer_Type_S32, "<i4"},
                      DtypeCase{PJRT_Buffer_Type_S64, "<i8"}, DtypeCase{PJRT_Buffer_Type_U8, "|u1"},
                      DtypeCase{PJRT_Buffer_Type_U16, "<u2"}, DtypeCase{PJRT_Buffer_Type_U32, "<u4"},
                      DtypeCase{PJRT_Buffer_Type_U64, "<u8"}, DtypeCase{PJRT_Buffer_Type_F16, "<f2"},
                      DtypeCase{PJRT_Buffer_Type_F32, "<f4"}, DtypeCase{PJRT_Buffer_Type_F64, "<f8"},
                      DtypeCase{PJRT_Buffer_Type_C64, "<c8"},
                      DtypeCase{PJRT_Buffer_Type_C128, "<c16"}),
    [](const auto& info) { return std::string(ElementTypeName(info.param.type)); });

TEST(NpyTest, ParsesWhatNumpyWrites) {
  std::string file = MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }",
                             Bytes<int32_t>({1, 2, 3, -4}));
  StatusOr<HostArray> array = ParseNpy(file, "a.npy");
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  EXPECT_EQ(array->type, PJRT_Buffer_Type_S32);
  EXPECT_EQ(array->dims, (std::vector<int64_t>{2, 2}));
  int32_t values[4];
  std::memcpy(values, array->data.data(), sizeof(values));
  EXPECT_EQ(values[3], -4);
}

TEST(NpyTest, ScalarsOneDimensionalAndEmptyShapes) {
  StatusOr<HostArray> scalar = ParseNpy(
      MakeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", Bytes<double>({2.5})),
      "s.npy");
  ASSERT_TRUE(scalar.ok()) << scalar.status().ToString();
  EXPECT_TRUE(scalar->dims.empty());
  StatusOr<HostArray> vector = ParseNpy(
      MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
              Bytes<float>({1, 2, 3})),
      "v.npy");
  ASSERT_TRUE(vector.ok()) << vector.status().ToString();
  EXPECT_EQ(vector->dims, std::vector<int64_t>{3});
  StatusOr<HostArray> empty =
      ParseNpy(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", ""), "e.npy");
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(empty->dims, (std::vector<int64_t>{0, 5}));

  HostArray one{PJRT_Buffer_Type_S64, {3}, {}};
  one.data.resize(24);
  StatusOr<std::string> written = SerializeNpy(one);
  ASSERT_TRUE(written.ok());
  EXPECT_NE(written->find("'shape': (3,)"), std::string::npos) << *written;
  HostArray zero_d{PJRT_Buffer_Type_S64, {}, std::vector<std::byte>(8)};
  written = SerializeNpy(zero_d);
  ASSERT_TRUE(written.ok());
  EXPECT_NE(written->find("'shape': ()"), std::string::npos) << *written;
}

TEST(NpyTest, VersionTwoAndDoubleQuotes) {
  std::string file = MakeNpy("{\"descr\": \"<u2\", \"fortran_order\": False, \"shape\": (2,)}",
                             Bytes<uint16_t>({7, 65535}), /*major=*/2);
  StatusOr<HostArray> array = ParseNpy(file, "v2.npy");
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  EXPECT_EQ(array->type, PJRT_Buffer_Type_U16);
}

TEST(NpyTest, BigEndianIsConverted) {
  std::string payload = {0, 0, 1, 2};  // 0x00000102 big-endian
  StatusOr<HostArray> array = ParseNpy(
      MakeNpy("{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }", payload), "be.npy");
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  int32_t value;
  std::memcpy(&value, array->data.data(), 4);
  EXPECT_EQ(value, 0x102);

  // complex64: each float swaps on its own.
  float re = 1.5f, im = -2.0f;
  std::string be(8, '\0');
  for (int i = 0; i < 4; ++i) {
    be[i] = reinterpret_cast<const char*>(&re)[3 - i];
    be[4 + i] = reinterpret_cast<const char*>(&im)[3 - i];
  }
  array = ParseNpy(MakeNpy("{'descr': '>c8', 'fortran_order': False, 'shape': (), }", be),
                   "bec.npy");
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  float parts[2];
  std::memcpy(parts, array->data.data(), 8);
  EXPECT_EQ(parts[0], 1.5f);
  EXPECT_EQ(parts[1], -2.0f);
}

TEST(NpyTest, BoolBytesBecomeZeroOrOne) {
  std::string payload = {0, 1, 5};
  StatusOr<HostArray> array = ParseNpy(
      MakeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", payload), "b.npy");
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  EXPECT_EQ(array->data[2], std::byte{1});
}

TEST(NpyTest, FortranOrderOnlyWhereItEqualsCOrder) {
  StatusOr<HostArray> row = ParseNpy(
      MakeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 3), }",
              Bytes<float>({1, 2, 3})),
      "row.npy");
  EXPECT_TRUE(row.ok()) << row.status().ToString();
  StatusOr<HostArray> matrix = ParseNpy(
      MakeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
              Bytes<float>({1, 2, 3, 4})),
      "f.npy");
  ASSERT_FALSE(matrix.ok());
  EXPECT_EQ(matrix.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(matrix.status().message().find("f.npy: Fortran-order"), std::string::npos)
      << matrix.status().ToString();
}

struct BadCase {
  const char* what;
  std::string file;
  const char* expected;  // part of the message
};

TEST(NpyTest, MalformedFilesNameTheProblem) {
  const std::string ok_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const std::string two_floats = Bytes<float>({1, 2});
  std::string wrong_version = MakeNpy(ok_dict, two_floats);
  wrong_version[6] = 9;
  std::string long_header = MakeNpy(ok_dict, two_floats);
  long_header[8] = static_cast<char>(0xff);
  long_header[9] = static_cast<char>(0x7f);
  const BadCase cases[] = {
      {"magic", "PK\x03\x04 not numpy at all", "not a .npy file"},
      {"short", "\x93NUM", "not a .npy file"},
      {"version", wrong_version, "version 9.0 is not supported"},
      {"header length", long_header, "the file has only"},
      {"missing key", MakeNpy("{'descr': '<f4', 'shape': (2,), }", two_floats),
       "needs 'descr', 'fortran_order' and 'shape'"},
      {"unknown key", MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}",
                              two_floats),
       "unsupported value for 'x'"},
      {"not a dict", MakeNpy("['descr']", two_floats), "expected '{'"},
      {"bad shape", MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }",
                            two_floats),
       "'shape' must be a tuple of non-negative integers"},
      {"string dtype", MakeNpy("{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }",
                               two_floats),
       "dtype '<U5' is not supported"},
      {"void dtype", MakeNpy("{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }",
                             two_floats),
       "cannot be told apart"},
      {"structured", MakeNpy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
                             two_floats),
       "structured dtypes are not supported"},
      {"short data", MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                             two_floats),
       "data is 8 bytes but shape (3) of <f4 needs 12 bytes"},
      {"extra data", MakeNpy(ok_dict, two_floats + "xx"), "data is 10 bytes"},
      {"fortran not bool", MakeNpy("{'descr': '<f4', 'fortran_order': 'no', 'shape': (2,), }",
                                   two_floats),
       "'fortran_order' must be True or False"},
      {"huge shape",
       MakeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
               two_floats),
       "too many elements"},
  };
  for (const BadCase& c : cases) {
    StatusOr<HostArray> array = ParseNpy(c.file, "bad.npy");
    ASSERT_FALSE(array.ok()) << c.what;
    EXPECT_EQ(array.status().code(), StatusCode::kInvalidArgument) << c.what;
    EXPECT_EQ(array.status().message().rfind("bad.npy: ", 0), 0u)
        << c.what << ": " << array.status().ToString();
    EXPECT_NE(array.status().message().find(c.expected), std::string::npos)
        << c.what << ": " << array.status().ToString();
  }
}

TEST(NpyTest, FilesOnDisk) {
  std::string dir = ::testing::TempDir() + "/npy_test_files";
  std::filesystem::create_directories(dir);
  HostArray array{PJRT_Buffer_Type_F32, {2}, {}};
  std::string payload = Bytes<float>({0.5f, -1.0f});
  array.data.resize(payload.size());
  std::memcpy(array.data.data(), payload.data(), payload.size());
  ASSERT_TRUE(WriteNpyFile(dir + "/a.npy", array).ok());
  StatusOr<HostArray> back = ReadNpyFile(dir + "/a.npy");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->data, array.data);

  StatusOr<HostArray> missing = ReadNpyFile(dir + "/missing.npy");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("missing.npy"), std::string::npos);
  EXPECT_FALSE(WriteNpyFile(dir + "/no/such/dir/x.npy", array).ok());
}

TEST(NpyTest, TypesWithoutNumpyDtypeAreWidenedExactly) {
  // bfloat16 1.0 and -2.0; saved as float32.
  HostArray bf16{PJRT_Buffer_Type_BF16, {2}, {}};
  std::string payload = Bytes<uint16_t>({0x3F80, 0xC000});
  bf16.data.resize(payload.size());
  std::memcpy(bf16.data.data(), payload.data(), payload.size());
  StatusOr<std::string> bytes = SerializeNpy(bf16);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  StatusOr<HostArray> back = ParseNpy(*bytes, "bf16.npy");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->type, PJRT_Buffer_Type_F32);
  float values[2];
  std::memcpy(values, back->data.data(), sizeof(values));
  EXPECT_EQ(values[0], 1.0f);
  EXPECT_EQ(values[1], -2.0f);

  // int4 is one sign-extended byte per element on the host already.
  HostArray s4{PJRT_Buffer_Type_S4, {2}, {std::byte{0xF8}, std::byte{0x07}}};
  bytes = SerializeNpy(s4);
  ASSERT_TRUE(bytes.ok());
  back = ParseNpy(*bytes, "s4.npy");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->type, PJRT_Buffer_Type_S8);
  EXPECT_EQ(back->data, s4.data);

  EXPECT_FALSE(SerializeNpy(HostArray{PJRT_Buffer_Type_TOKEN, {}, {}}).ok());
  // Data that does not fit the shape is refused.
  EXPECT_FALSE(SerializeNpy(HostArray{PJRT_Buffer_Type_F32, {3}, std::vector<std::byte>(4)}).ok());
}

}  // namespace
}  // namespace plugrt::tools
