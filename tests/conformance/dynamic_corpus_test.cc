// The shape-polymorphic corpus (../shared/stablehlo/dynamic, JAX exports with
// '?' dims and dimension arguments): each program runs through the CPU
// plugin as it is (refined at its first execute), and its outputs must equal
// those of the same program refined to a static module by
// passes::RefineShapes, printed as text, and compiled through the plain text
// path. The count of files that pass has a floor (PLUGRT_DYNAMIC_FLOOR in
// tests/CMakeLists.txt; floors only rise).
//
// Argument shapes, by rule: every '?' is 3 and every dimension argument
// (passes::DimensionArguments) is 3, the size it stands for. kOverrides
// lists the files the rule cannot serve, with the reason (none so far: the
// one file that fails, conv_general_dilated_1d_stride_2_even_dynamic.mlir,
// is refused by the verifier whatever the shapes, since its dynamic_conv
// gives two window strides for one spatial dim).
//
// Argument values, deterministic: element i of argument k is
// ((7 i + 3 k) mod 11) / 4 - 1.25 for floats (exact in every float type),
// (7 i + 3 k) mod 5 for integers (in range as indices), and (i + k) mod 2
// for booleans.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/passes/refine_shapes.h"
#include "stablehlo/float_format.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "testutil/corpus.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

// File name -> the size every '?' and dimension argument takes instead of 3.
struct Override {
  int64_t size;
  const char* why;
};
const std::map<std::string, Override> kOverrides = {};

using shlo::ElementType;
using shlo::Type;

// The host bytes of argument `k` of type `type`.
std::vector<std::byte> ArgumentBytes(const Type& type, size_t k) {
  const ElementType e = type.element_type();
  const int64_t n = type.num_elements();
  std::vector<std::byte> out;
  auto put = [&out](uint64_t bits, int bytes) {
    for (int b = 0; b < bytes; ++b) out.push_back(static_cast<std::byte>((bits >> (8 * b)) & 0xff));
  };
  for (int64_t i = 0; i < n; ++i) {
    const int64_t seed = 7 * i + 3 * static_cast<int64_t>(k);
    const double real = static_cast<double>(seed % 11) / 4 - 1.25;
    if (shlo::IsComplex(e)) {
      const ElementType part = shlo::ComplexComponent(e);
      const int bytes = shlo::BitWidth(part) / 8;
      put(shlo::EncodeFloat(part, real), bytes);
      put(shlo::EncodeFloat(part, -real / 2), bytes);
    } else if (shlo::IsFloat(e)) {
      put(shlo::EncodeFloat(e, real), std::max(1, shlo::BitWidth(e) / 8));
    } else if (shlo::IsBoolean(e)) {
      put(static_cast<uint64_t>((i + static_cast<int64_t>(k)) % 2), 1);
    } else {
      put(static_cast<uint64_t>(seed % 5), shlo::StorageBytes(e));
    }
  }
  return out;
}

struct Outputs {
  std::vector<std::vector<int64_t>> dims;
  std::vector<std::vector<std::byte>> bytes;
};

StatusOr<Outputs> Run(const Client& client, const std::string& text,
                      const std::vector<Type>& types, const std::vector<std::vector<std::byte>>& args) {
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client.Compile(text));
  std::vector<Buffer> buffers;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client.addressable_devices());
  if (devices.empty()) return Internal("no device");
  const Device& device = devices.front();
  for (size_t i = 0; i < types.size(); ++i) {
    std::optional<PJRT_Buffer_Type> pjrt = shlo::ToPjrtType(types[i].element_type());
    if (!pjrt) return Unimplemented("argument type ", types[i].ToString());
    PLUGRT_ASSIGN_OR_RETURN(auto made, client.BufferFromHostBuffer(
                                           Client::HostBuffer(args[i].data(), *pjrt,
                                                              types[i].dims()),
                                           device));
    PLUGRT_RETURN_IF_ERROR(made.second.Await());
    buffers.push_back(std::move(made.first));
  }
  std::vector<Buffer*> list;
  for (Buffer& b : buffers) list.push_back(&b);
  PLUGRT_ASSIGN_OR_RETURN(auto results, executable.Execute({list}));
  Outputs out;
  for (const Buffer& b : results.at(0)) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, b.dimensions());
    PLUGRT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes, b.ToHostVector());
    out.dims.push_back(std::move(dims));
    out.bytes.push_back(std::move(bytes));
  }
  return out;
}

// "" when the file passes, else why not.
std::string CheckFile(const Client& client, const std::filesystem::path& path) {
  const std::string text = testutil::ReadFile(path);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(text, path.string());
  if (!module.ok()) return "parse: " + module.status().ToString();
  const shlo::Function* entry = (*module)->EntryFunction();
  if (entry == nullptr) return "no entry function";
  int64_t size = 3;
  if (auto it = kOverrides.find(path.filename().string()); it != kOverrides.end()) {
    size = it->second.size;
  }
  passes::EntryRefinement refinement;
  for (const Type& t : entry->input_types) {
    std::vector<int64_t> dims = t.dims();
    for (int64_t& d : dims) d = d == shlo::kDynamicSize ? size : d;
    refinement.argument_types.push_back(Type::Tensor(t.element_type(), dims));
  }
  refinement.argument_values.resize(entry->input_types.size());
  std::vector<std::vector<std::byte>> args;
  for (size_t k = 0; k < refinement.argument_types.size(); ++k) {
    args.push_back(ArgumentBytes(refinement.argument_types[k], k));
  }
  for (size_t i : passes::DimensionArguments(**module)) {
    refinement.argument_values[i] = size;
    const Type& t = refinement.argument_types[i];
    args[i].assign(static_cast<size_t>(shlo::StorageBytes(t.element_type())), std::byte{0});
    std::memcpy(args[i].data(), &size, args[i].size());  // little-endian
  }
  StatusOr<Outputs> polymorphic = Run(client, text, refinement.argument_types, args);
  if (!polymorphic.ok()) return "polymorphic run: " + polymorphic.status().ToString();
  Status refined = passes::RefineShapes(**module, refinement);
  if (!refined.ok()) return "refine: " + refined.ToString();
  StatusOr<Outputs> static_run =
      Run(client, shlo::PrintModule(**module), refinement.argument_types, args);
  if (!static_run.ok()) return "static run: " + static_run.status().ToString();
  if (polymorphic->dims != static_run->dims) return "output shapes differ";
  for (size_t j = 0; j < polymorphic->bytes.size(); ++j) {
    if (polymorphic->bytes[j] != static_run->bytes[j]) return "output " + std::to_string(j) + " differs";
  }
  return "";
}

TEST(DynamicCorpusTest, PolymorphicRunsEqualTheirRefinedStaticPrograms) {
  const std::vector<std::filesystem::path> files =
      testutil::MlirFiles(testutil::CorpusDir() / "dynamic");
  ASSERT_FALSE(files.empty()) << "no corpus at " << testutil::CorpusDir() / "dynamic";
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  int passed = 0;
  for (const auto& path : files) {
    const std::string failure = CheckFile(**client, path);
    if (failure.empty()) {
      ++passed;
    } else {
      std::cout << "fail: " << path.filename().string() << ": " << failure << "\n";
    }
  }
  std::cout << passed << " passed, " << files.size() - passed << " failed\n";
  EXPECT_GE(passed, PLUGRT_DYNAMIC_FLOOR) << "fewer dynamic/ files pass than the floor";
}

}  // namespace
}  // namespace plugrt
