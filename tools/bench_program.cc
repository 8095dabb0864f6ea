#include "tools/bench_program.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "common/element_type.h"
#include "stablehlo/element_type.h"
#include "stablehlo/float_format.h"
#include "compiler/importers/mlir/parser.h"
#include "compiler/importers/read_program.h"
#include "client/element_decode.h"
#include "client/npy.h"
#include "tools/array_format.h"

namespace plugrt::tools {
namespace {

// "path:line:col" of byte `offset` of `text` (both 1-based).
std::string Where(std::string_view text, size_t offset, const std::string& path) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return StrCat(path, ":", line, ":", column);
}

}  // namespace

std::string_view BenchKindName(BenchKind kind) {
  switch (kind) {
    case BenchKind::kExecute: return "execute";
    case BenchKind::kDispatch: return "dispatch";
    case BenchKind::kCompile: return "compile";
    case BenchKind::kEager: return "eager";
  }
  return "unknown";
}

std::string_view BenchMetricName(BenchMetric metric) {
  return metric == BenchMetric::kFlops ? "flops" : "bytes";
}

StatusOr<BenchHeader> ParseBenchHeader(std::string_view text, const std::string& path) {
  BenchHeader header;
  size_t line_end = text.find('\n');
  std::string_view first = text.substr(0, line_end);
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  if (first.substr(0, kBenchHeaderPrefix.size()) != kBenchHeaderPrefix) return header;

  bool has_iterations = false;
  size_t i = kBenchHeaderPrefix.size();
  while (i < first.size()) {
    while (i < first.size() && std::isspace(static_cast<unsigned char>(first[i]))) ++i;
    if (i >= first.size()) break;
    const size_t start = i;
    while (i < first.size() && !std::isspace(static_cast<unsigned char>(first[i]))) ++i;
    std::string_view item = first.substr(start, i - start);
    const std::string where = Where(text, start, path);
    size_t equals = item.find('=');
    if (equals == std::string_view::npos) {
      return InvalidArgument(where, ": expected key=value in the plugrt-bench header, got '",
                             item, "'");
    }
    std::string_view key = item.substr(0, equals);
    std::string_view value = item.substr(equals + 1);
    if (key == "kind") {
      if (value == "execute") {
        header.kind = BenchKind::kExecute;
      } else if (value == "dispatch") {
        header.kind = BenchKind::kDispatch;
      } else if (value == "compile") {
        header.kind = BenchKind::kCompile;
      } else if (value == "eager") {
        header.kind = BenchKind::kEager;
      } else {
        return InvalidArgument(where, ": unknown kind '", value,
                               "' (expected execute, dispatch, compile or eager)");
      }
    } else if (key == "iterations") {
      int64_t count = 0;
      auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
      if (error != std::errc() || end != value.data() + value.size() || count < 1) {
        return InvalidArgument(where, ": iterations must be a positive integer, got '", value, "'");
      }
      header.iterations = count;
      has_iterations = true;
    } else if (key == "metric") {
      if (value == "flops") {
        header.metric = BenchMetric::kFlops;
      } else if (value == "bytes") {
        header.metric = BenchMetric::kBytes;
      } else {
        return InvalidArgument(where, ": unknown metric '", value, "' (expected flops or bytes)");
      }
    } else if (key == "ceiling") {
      header.ceiling = ParseCeilingKind(value);
      if (!header.ceiling) {
        return InvalidArgument(where, ": unknown ceiling '", value,
                               "' (expected sgemm, bf16gemm, int8gemm, bandwidth, lapack or "
                               "model)");
      }
    } else if (key == "bytes") {
      int64_t count = 0;
      auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
      if (error != std::errc() || end != value.data() + value.size() || count < 1) {
        return InvalidArgument(where, ": bytes must be a positive integer, got '", value, "'");
      }
      header.bytes = static_cast<double>(count);
    } else if (key == "compare") {
      std::string_view list = value;
      while (!list.empty()) {
        const size_t comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        if (item == "bytecode") {
          header.compare_bytecode = true;
        } else if (item == "cache") {
          header.compare_cache = true;
        } else {
          return InvalidArgument(where, ": unknown comparison '", item,
                                 "' (expected bytecode or cache)");
        }
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
      }
    } else {
      return InvalidArgument(where, ": unknown key '", key,
                             "' in the plugrt-bench header (expected kind, iterations, metric, "
                             "ceiling, bytes, compare)");
    }
  }
  if (header.kind == BenchKind::kDispatch && !has_iterations) {
    return InvalidArgument(Where(text, 0, path), ": kind=dispatch needs iterations=N");
  }
  if (header.kind != BenchKind::kDispatch && header.kind != BenchKind::kEager && has_iterations) {
    return InvalidArgument(Where(text, 0, path),
                           ": iterations applies to kind=dispatch and kind=eager only");
  }

  // The description: the comment lines right after the header.
  size_t pos = line_end == std::string_view::npos ? text.size() : line_end + 1;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
    size_t first_char = line.find_first_not_of(" \t");
    if (first_char == std::string_view::npos || line.substr(first_char, 2) != "//") break;
    std::string_view words = line.substr(first_char + 2);
    while (!words.empty() && std::isspace(static_cast<unsigned char>(words.front()))) {
      words.remove_prefix(1);
    }
    while (!words.empty() && std::isspace(static_cast<unsigned char>(words.back()))) {
      words.remove_suffix(1);
    }
    if (!words.empty()) {
      if (!header.description.empty()) header.description += ' ';
      header.description += words;
    }
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return header;
}

StatusOr<std::vector<ArgumentSpec>> ReadMainArguments(std::string_view text,
                                                      const std::string& path,
                                                      const std::string& fill_elided) {
  // The project's own readers read the program; only @main's signature is
  // used here (the plugin verifies and compiles the program itself).
  shlo::ReadOptions read;
  PLUGRT_ASSIGN_OR_RETURN(read.elided, shlo::ElidedConstantFill::Parse(fill_elided));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ReadProgram(text, path, read));
  const shlo::Function* main = module->FindFunction("main");
  if (main == nullptr) return NotFound(path, ": no function @main");
  std::vector<ArgumentSpec> arguments;
  for (size_t i = 0; i < main->input_types.size(); ++i) {
    const shlo::Type& type = main->input_types[i];
    std::optional<PJRT_Buffer_Type> pjrt =
        type.is_tensor() ? shlo::ToPjrtType(type.element_type()) : std::nullopt;
    if (!pjrt || !type.has_static_shape()) {
      return Unimplemented(main->location.ToString(), ": argument ", i, " of @main is ",
                           type.ToString(), "; plugrt bench feeds static-shaped tensors only");
    }
    ArgumentSpec spec{*pjrt, type.dims(), std::nullopt};
    // tf.aliasing_output = N (jax.jit's donate_argnums): the argument is
    // state the program hands back as output N (a KV cache, optimizer
    // state), carried from one execute to the next.
    if (i < main->arg_attributes.size()) {
      if (const shlo::Attribute* alias =
              shlo::FindAttribute(main->arg_attributes[i], "tf.aliasing_output")) {
        StatusOr<int64_t> output = shlo::AttrToInt(*alias);
        if (output.ok() && *output >= 0) spec.aliased_output = *output;
      }
    }
    arguments.push_back(std::move(spec));
  }
  return arguments;
}

namespace {

// SplitMix64: a small, fast generator whose output depends only on the seed.
class Generator {
 public:
  explicit Generator(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1): 24 random bits, exact in float.
  float NextFloat() { return static_cast<float>(Next() >> 40) * 0x1p-23f - 1.0f; }
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1p-52 - 1.0; }

 private:
  uint64_t state_;
};

// bf16 and f16 bit patterns, rounded to nearest even.
uint16_t NarrowFloat(PJRT_Buffer_Type type, float value) {
  return static_cast<uint16_t>(shlo::EncodeFloat(
      type == PJRT_Buffer_Type_BF16 ? shlo::ElementType::kBF16 : shlo::ElementType::kF16, value));
}

template <typename T>
void Store(std::byte* data, size_t index, T value) {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}

}  // namespace

StatusOr<std::vector<std::byte>> RandomArgumentData(const ArgumentSpec& spec, uint64_t seed) {
  const int64_t count = ElementCount(spec.dims);
  const int64_t element_bytes = HostElementByteSize(spec.type);
  if (element_bytes == 0 || spec.type == PJRT_Buffer_Type_TOKEN) {
    return Unimplemented("cannot make inputs of element type ", ElementTypeName(spec.type));
  }
  std::vector<std::byte> data(static_cast<size_t>(count * element_bytes));
  Generator generator(seed);
  std::byte* out = data.data();
  const size_t n = static_cast<size_t>(count);
  const int bits = ElementBitWidth(spec.type);
  switch (spec.type) {
    case PJRT_Buffer_Type_F32:
      for (size_t i = 0; i < n; ++i) Store(out, i, generator.NextFloat());
      return data;
    case PJRT_Buffer_Type_F64:
      for (size_t i = 0; i < n; ++i) Store(out, i, generator.NextDouble());
      return data;
    case PJRT_Buffer_Type_BF16:
      for (size_t i = 0; i < n; ++i) Store(out, i, NarrowFloat(spec.type, generator.NextFloat()));
      return data;
    case PJRT_Buffer_Type_F16:
      for (size_t i = 0; i < n; ++i) Store(out, i, NarrowFloat(spec.type, generator.NextFloat()));
      return data;
    case PJRT_Buffer_Type_C64:
      for (size_t i = 0; i < 2 * n; ++i) Store(out, i, generator.NextFloat());
      return data;
    case PJRT_Buffer_Type_C128:
      for (size_t i = 0; i < 2 * n; ++i) Store(out, i, generator.NextDouble());
      return data;
    case PJRT_Buffer_Type_PRED:
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>(generator.Next() >> 63);
      return data;
    default:
      break;
  }
  const ElementKind kind = KindOf(spec.type);
  if (kind == ElementKind::kSigned || kind == ElementKind::kUnsigned) {
    // Small values: [-8, 8) signed, [0, 8) unsigned, or the type's own range
    // when narrower.
    const int64_t span = bits >= 4 ? 8 : (int64_t{1} << (bits - 1));
    const int64_t low = kind == ElementKind::kSigned ? -span : 0;
    const uint64_t width = static_cast<uint64_t>(kind == ElementKind::kSigned ? 2 * span : span);
    for (size_t i = 0; i < n; ++i) {
      const int64_t value = low + static_cast<int64_t>(generator.Next() % width);
      // Little-endian two's complement: the low element_bytes bytes.
      const uint64_t raw = static_cast<uint64_t>(value);
      for (int64_t b = 0; b < element_bytes; ++b) {
        out[i * element_bytes + b] = static_cast<std::byte>((raw >> (8 * b)) & 0xFF);
      }
    }
    return data;
  }
  return Unimplemented("cannot make inputs of element type ", ElementTypeName(spec.type),
                       " (plugrt bench feeds floats, f16, bf16, complex, integers and pred)");
}

StatusOr<std::vector<std::byte>> ArgumentData(const std::string& program_path, size_t index,
                                              const ArgumentSpec& spec, bool* saved) {
  if (saved != nullptr) *saved = false;
  std::filesystem::path folder(program_path);
  folder.replace_extension(".args");
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) {
    return RandomArgumentData(spec, 0x5EEDull + index);
  }
  const std::string file = (folder / StrCat("arg", index, ".npy")).string();
  PLUGRT_ASSIGN_OR_RETURN(HostArray array, ReadNpyFile(file));
  if (array.type != spec.type || array.dims != spec.dims) {
    return InvalidArgument(file, ": holds ", ShapeString(array.type, array.dims),
                           ", the program's argument ", index, " is ",
                           ShapeString(spec.type, spec.dims));
  }
  if (saved != nullptr) *saved = true;
  return std::move(array.data);
}

}  // namespace plugrt::tools
