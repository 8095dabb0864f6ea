// libFuzzer entry point for shape refinement: any text that parses and
// verifies, with every '?' and dimension argument given the size the
// input's length picks (0 to 7), must refine to a module that passes the
// verifier or fail with a Status, never crash, hang or leave a '?'. Built and
// run by tests/fuzz/CMakeLists.txt; longer runs: docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "compiler/passes/refine_shapes.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto dim = static_cast<int64_t>(size % 8);
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = plugrt::shlo::ParseModule(text, "fuzz.mlir");
  if (!module.ok() || !plugrt::shlo::VerifyModule(**module).ok()) return 0;
  const plugrt::shlo::Function* entry = (*module)->EntryFunction();
  if (entry == nullptr || !plugrt::passes::IsShapePolymorphic(**module)) return 0;
  plugrt::passes::EntryRefinement refinement;
  for (const plugrt::shlo::Type& type : entry->input_types) {
    if (!type.is_tensor()) {
      refinement.argument_types.push_back(type);
      continue;
    }
    std::vector<int64_t> dims = type.dims();
    for (int64_t& d : dims) d = d == plugrt::shlo::kDynamicSize ? dim : d;
    refinement.argument_types.push_back(plugrt::shlo::Type::Tensor(type.element_type(), dims));
  }
  refinement.argument_values.resize(entry->input_types.size());
  for (size_t i : plugrt::passes::DimensionArguments(**module)) refinement.argument_values[i] = dim;
  if (!plugrt::passes::RefineShapes(**module, refinement).ok()) return 0;
  // A refinement that succeeds leaves no '?' behind.
  if (plugrt::passes::IsShapePolymorphic(**module)) std::abort();
  (void)plugrt::shlo::VerifyModule(**module);
  return 0;
}
