// The binary module format: every corpus program survives a round trip
// unchanged (printed text, value names, locations, pointer structure), the
// output is deterministic, and truncated, mutated, foreign or
// version-mismatched bytes give INVALID_ARGUMENT errors, never a crash.
#include "compiler/importers/serialize.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <unordered_map>

#include "common/content_hash.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "testutil/corpus.h"

namespace plugrt::shlo {
namespace {

using testutil::CorpusDir;
using testutil::MlirFiles;
using testutil::ReadFile;
using internal::kModuleHeaderSize;
using internal::kModuleTrailerSize;

// ---------------------------------------------------------------- comparison

// Compares two modules field by field, including value names, locations and
// the back pointers the parser sets; returns the first difference ("" if
// none). Operands must point at the corresponding value of `b`.
class Comparer {
 public:
  std::string Compare(const Module& a, const Module& b) {
    if (a.name != b.name) return "module name";
    if (a.attributes != b.attributes) return "module attributes";
    if (!SameLoc(a.location, b.location)) return "module location";
    if (a.functions.size() != b.functions.size()) return "function count";
    for (size_t i = 0; i < a.functions.size(); ++i) {
      const Function& f = *a.functions[i];
      const Function& g = *b.functions[i];
      std::string where = "@" + f.name + ": ";
      if (f.name != g.name || f.is_public != g.is_public) return where + "name/visibility";
      if (!SameLoc(f.location, g.location)) return where + "location";
      if (f.input_types != g.input_types || f.result_types != g.result_types) {
        return where + "signature";
      }
      if (f.arg_attributes != g.arg_attributes || f.result_attributes != g.result_attributes ||
          f.attributes != g.attributes) {
        return where + "attributes";
      }
      if (!f.body || !g.body) return where + "missing body";
      map_.clear();
      std::string diff = SameRegion(*f.body, *g.body, nullptr);
      if (!diff.empty()) return where + diff;
    }
    return "";
  }

 private:
  static bool SameLoc(const Location& x, const Location& y) {
    if ((x.file == nullptr) != (y.file == nullptr)) return false;
    if (x.file && *x.file != *y.file) return false;
    auto source = [](const Location& l) { return l.source ? l.source->ToMlir() : "unknown"; };
    return x.line == y.line && x.column == y.column && source(x) == source(y);
  }

  std::string SameRegion(const Region& x, const Region& y, const Operation* parent_op) {
    if (y.parent_op != parent_op) return "region parent_op";
    if (x.blocks.size() != y.blocks.size()) return "block count";
    for (size_t b = 0; b < x.blocks.size(); ++b) {
      const Block& p = *x.blocks[b];
      const Block& q = *y.blocks[b];
      if (q.parent != &y) return "block parent";
      if (p.arguments.size() != q.arguments.size()) return "argument count";
      for (size_t i = 0; i < p.arguments.size(); ++i) {
        const Value& v = *p.arguments[i];
        const Value& w = *q.arguments[i];
        if (v.type != w.type || v.name != w.name || v.index != w.index) return "argument " + v.name;
        if (w.owner_block != &q || w.defining_op != nullptr) return "argument pointers";
        map_[&v] = &w;
      }
      if (p.operations.size() != q.operations.size()) return "op count";
      for (size_t i = 0; i < p.operations.size(); ++i) {
        std::string diff = SameOp(*p.operations[i], *q.operations[i], &q);
        if (!diff.empty()) return diff;
      }
    }
    return "";
  }

  std::string SameOp(const Operation& x, const Operation& y, const Block* parent) {
    std::string where = x.name + " at " + x.location.ToString() + ": ";
    if (x.name != y.name || x.code != y.code) return where + "name/code";
    if (y.parent != parent) return where + "parent";
    if (!SameLoc(x.location, y.location)) return where + "location";
    if (x.attributes != y.attributes) return where + "attributes";
    if (x.operands.size() != y.operands.size()) return where + "operand count";
    for (size_t i = 0; i < x.operands.size(); ++i) {
      auto it = map_.find(x.operands[i]);
      if (it == map_.end() || it->second != y.operands[i]) return where + "operand wiring";
    }
    if (x.regions.size() != y.regions.size()) return where + "region count";
    for (size_t i = 0; i < x.regions.size(); ++i) {
      std::string diff = SameRegion(*x.regions[i], *y.regions[i], &y);
      if (!diff.empty()) return where + diff;
    }
    if (x.results.size() != y.results.size()) return where + "result count";
    for (size_t i = 0; i < x.results.size(); ++i) {
      const Value& v = *x.results[i];
      const Value& w = *y.results[i];
      if (v.type != w.type || v.name != w.name || v.index != w.index) return where + "result";
      if (w.defining_op != &y || w.owner_block != nullptr) return where + "result pointers";
      map_[&v] = &w;
    }
    return "";
  }

  std::unordered_map<const Value*, const Value*> map_;
};

// Every op's location file pointer, nested regions included.
void CollectFiles(const Region& region, std::set<const std::string*>* files) {
  for (const auto& block : region.blocks) {
    for (const auto& op : block->operations) {
      files->insert(op->location.file.get());
      for (const auto& r : op->regions) CollectFiles(*r, files);
    }
  }
}

struct RoundTrip {
  bool parsed = false;
  std::string error;  // empty: the round trip matched
};

RoundTrip CheckRoundTrip(std::string_view text, const std::string& file, int first_line) {
  RoundTrip result;
  auto parsed = ParseModule(text, file, first_line);
  if (!parsed.ok()) return result;
  result.parsed = true;
  const Module& original = **parsed;
  std::string bytes = SerializeModule(original);
  auto loaded = DeserializeModule(bytes);
  if (!loaded.ok()) {
    result.error = loaded.status().ToString();
    return result;
  }
  if (PrintModule(original) != PrintModule(**loaded)) {
    result.error = "printed text differs";
    return result;
  }
  std::string diff = Comparer().Compare(original, **loaded);
  if (!diff.empty()) {
    result.error = diff;
    return result;
  }
  // Determinism, and a loaded module writes the very same bytes again.
  if (SerializeModule(original) != bytes) result.error = "second serialization differs";
  else if (SerializeModule(**loaded) != bytes) result.error = "reserialized bytes differ";
  return result;
}

// ---------------------------------------------------------------- corpus

TEST(IrSerializeTest, EveryTestdataProgramRoundTrips) {
  auto files = MlirFiles(CorpusDir() / "testdata");
  ASSERT_GT(files.size(), 1900u);
  size_t parsed = 0, passed = 0;
  for (const auto& path : files) {
    std::string text = ReadFile(path);
    RoundTrip r = CheckRoundTrip(text, path.filename().string(), 1);
    if (!r.parsed) continue;
    ++parsed;
    if (r.error.empty()) {
      ++passed;
    } else {
      ADD_FAILURE() << path << ": " << r.error;
    }
  }
  EXPECT_EQ(passed, parsed);
  EXPECT_GT(parsed, 1900u);
  std::printf("testdata: %zu of %zu files parsed, %zu round-tripped\n", parsed, files.size(),
              passed);
}

TEST(IrSerializeTest, EveryInterpretSectionRoundTrips) {
  auto files = MlirFiles(CorpusDir() / "interpret");
  ASSERT_FALSE(files.empty());
  size_t sections = 0, parsed = 0, passed = 0;
  for (const auto& path : files) {
    std::string text = ReadFile(path);
    for (const SourceSection& section : SplitSections(text)) {
      ++sections;
      RoundTrip r = CheckRoundTrip(section.text, path.filename().string(), section.first_line);
      if (!r.parsed) continue;
      ++parsed;
      if (r.error.empty()) {
        ++passed;
      } else {
        ADD_FAILURE() << path << ":" << section.first_line << ": " << r.error;
      }
    }
  }
  EXPECT_EQ(passed, parsed);
  EXPECT_GT(parsed, 500u);
  std::printf("interpret: %zu of %zu sections parsed, %zu round-tripped\n", parsed, sections,
              passed);
}

// ---------------------------------------------------------------- hand-written

// Many features at once: module name and attributes, a private function,
// argument and result attributes, regions with block arguments, multi-result
// ops, dense literals (splat, nested, hex, complex, unsupported type), enums,
// structs, dense arrays, tuples, tokens, dynamic dimensions.
constexpr std::string_view kProgram = R"mlir(module @feature_mix attributes {mhlo.num_partitions = 1 : i32, note = "x\"y"} {
  func.func private @helper(%a: tensor<2xf32>) -> tensor<2xf32> {
    %r = stablehlo.negate %a : tensor<2xf32>
    return %r : tensor<2xf32>
  }
  func.func public @main(%arg0: tensor<2x3xf32> {jax.arg_info = "x"}, %arg1: tensor<?x3xi32>, %t: !stablehlo.token) -> (tensor<3xf32> {jax.result_info = "y"}, tensor<2xcomplex<f32>>) {
    %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %h = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
    %z = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
    %i = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
    %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    %1:2 = "stablehlo.while"(%c, %c) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %cmp = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %cmp : tensor<i1>
    }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %c : tensor<f32>
      stablehlo.return %s, %y : tensor<f32>, tensor<f32>
    }) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %g = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false} : (tensor<2x3xf32>, tensor<?x3xi32>) -> tensor<?x3xf32>
    %tup = stablehlo.tuple %h, %t : tuple<tensor<2xf32>, !stablehlo.token>
    %call = func.call @helper(%h) : (tensor<2xf32>) -> tensor<2xf32>
    %q = "stablehlo.constant"() {value = dense<1> : tensor<2x!quant.uniform<i8:f32, 2.0:3>>} : () -> tensor<2x!quant.uniform<i8:f32, 2.0:3>>
    %f = "stablehlo.custom_call"(%h) {call_target_name = "foo", backend_config = {a = 1.5 : f64, b = [1, 2], c = array<f32: 1.0, 2.5>}, has_side_effect = true, api_version = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
    return %0, %z : tensor<3xf32>, tensor<2xcomplex<f32>>
  }
}
)mlir";

std::unique_ptr<Module> ParseOrDie(std::string_view text, const std::string& file) {
  auto parsed = ParseModule(text, file);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  if (!parsed.ok()) return nullptr;
  return std::move(parsed).value();
}

TEST(IrSerializeTest, HandWrittenProgramRoundTripsWithLocationsAndNames) {
  auto original = ParseOrDie(kProgram, "mix.mlir");
  ASSERT_NE(original, nullptr);
  RoundTrip r = CheckRoundTrip(kProgram, "mix.mlir", 1);
  ASSERT_TRUE(r.parsed);
  EXPECT_EQ(r.error, "");

  std::string bytes = SerializeModule(*original);
  auto loaded = DeserializeModule(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Module& m = **loaded;
  EXPECT_EQ(m.name, "feature_mix");
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_FALSE(m.functions[0]->is_public);
  const Function& main = *m.functions[1];
  EXPECT_EQ(main.location.line, 6);
  EXPECT_EQ(main.location.column, 3);
  // The while op: line 13, its results named "1", its regions' arguments "x", "y".
  const Operation& whl = *main.body->front().operations[6];
  EXPECT_EQ(whl.name, "stablehlo.while");
  EXPECT_EQ(whl.code, OpCode::kWhile);
  ASSERT_NE(whl.location.file, nullptr);
  EXPECT_EQ(*whl.location.file, "mix.mlir");
  EXPECT_EQ(whl.location.line, 13);
  EXPECT_EQ(whl.location.column, 5);
  EXPECT_EQ(whl.location.ToString(), "mix.mlir:13:5");
  EXPECT_EQ(whl.results[1]->name, "1");
  EXPECT_EQ(whl.results[1]->index, 1);
  EXPECT_EQ(whl.region(1).front().arguments[0]->name, "x");
  // The body's add reads %c of the enclosing function.
  const Operation& add = *whl.region(1).front().operations[0];
  EXPECT_EQ(add.location.line, 19);
  EXPECT_EQ(add.operands[1], main.body->front().operations[0]->result(0));
  // One shared file name for the whole module, as the parser makes it.
  std::set<const std::string*> files;
  for (const auto& f : m.functions) {
    files.insert(f->location.file.get());
    CollectFiles(*f->body, &files);
  }
  EXPECT_EQ(files.size(), 1u);
  EXPECT_EQ(*whl.location.file, "mix.mlir");
  // The quantized literal keeps its type and its storage integers.
  const Attribute* value = main.body->front().operations[10]->attribute("value");
  ASSERT_NE(value, nullptr);
  EXPECT_TRUE(value->type.is_quantized());
  EXPECT_EQ(value->type.ToString(), "tensor<2x!quant.uniform<i8:f32, 2.0:3>>");
  ASSERT_NE(value->dense, nullptr);
  EXPECT_EQ(value->dense->bytes, std::vector<std::byte>{std::byte{1}});
}

TEST(IrSerializeTest, SourceLocationsRoundTrip) {
  // As JAX writes them: aliases after the module, a call stack, a fused range.
  constexpr std::string_view kLocated = R"mlir(module @m {
  func.func public @main(%arg0: tensor<2xf32> loc("x")) -> tensor<2xf32> {
    %0 = stablehlo.negate %arg0 : tensor<2xf32> loc(#loc3)
    %1 = stablehlo.abs %0 : tensor<2xf32> loc(fused<"cse">["a.py":1:2 to :9, unknown])
    return %1 : tensor<2xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/src/model.py":12:7)
#loc2 = loc(callsite("f"(#loc1) at "/src/main.py":3:1))
#loc3 = loc("jit(f)/neg"(#loc2))
)mlir";
  RoundTrip r = CheckRoundTrip(kLocated, "loc.mlir", 1);
  ASSERT_TRUE(r.parsed);
  EXPECT_EQ(r.error, "");
  auto original = ParseOrDie(kLocated, "loc.mlir");
  ASSERT_NE(original, nullptr);
  auto loaded = DeserializeModule(SerializeModule(*original));
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Block& body = (*loaded)->functions[0]->body->front();
  EXPECT_EQ(body.operations[0]->location.ToString(),
            "loc.mlir:3:5 (jit(f)/neg at /src/model.py:12:7 in f, called from /src/main.py:3:1)");
  EXPECT_EQ(body.operations[1]->location.ToString(), "loc.mlir:4:5 (a.py:1:2-1:9)");
  EXPECT_EQ(body.operations[2]->location.ToString(), "loc.mlir:5:5");
}

TEST(IrSerializeTest, SerializationIsDeterministic) {
  auto a = ParseOrDie(kProgram, "mix.mlir");
  auto b = ParseOrDie(kProgram, "mix.mlir");
  ASSERT_TRUE(a && b);
  std::string bytes = SerializeModule(*a);
  EXPECT_EQ(bytes, SerializeModule(*a));
  EXPECT_EQ(bytes, SerializeModule(*b));
  EXPECT_EQ(bytes.substr(0, 8), "PLUGRTIR");
}

TEST(IrSerializeTest, SharedDenseDataIsStoredOnceAndStaysShared) {
  auto module = ParseOrDie(kProgram, "mix.mlir");
  ASSERT_NE(module, nullptr);
  // Give two constants the same (large) data, as a pass copying attributes would.
  Block& entry = module->functions[1]->body->front();
  size_t before = SerializeModule(*module).size();
  auto data = std::make_shared<DenseData>();
  data->bytes.resize(4000 * 4);
  Type type = Type::Tensor(ElementType::kF32, {4000});
  entry.operations[0]->attributes[0].second = Attribute::Dense(type, data);
  entry.operations[1]->attributes[0].second = Attribute::Dense(type, data);
  std::string bytes = SerializeModule(*module);
  EXPECT_LT(bytes.size(), before + 16000 + 100);
  auto loaded = DeserializeModule(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Block& e = (*loaded)->functions[1]->body->front();
  EXPECT_EQ(e.operations[0]->attributes[0].second.dense,
            e.operations[1]->attributes[0].second.dense);
  EXPECT_TRUE(e.operations[0]->attributes[0].second == entry.operations[0]->attributes[0].second);
}

TEST(IrSerializeTest, EmptyModuleRoundTrips) {
  Module empty;
  std::string bytes = SerializeModule(empty);
  auto loaded = DeserializeModule(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(PrintModule(**loaded), PrintModule(empty));
  EXPECT_EQ((*loaded)->location.file, nullptr);
}

// ---------------------------------------------------------------- bad input

// A few corpus programs of different shapes (regions, many ops, literals).
std::vector<std::string> SampleModules() {
  std::vector<std::string> out;
  for (const char* name : {"testdata/reduce_float32_4_6_int32_4_6.mlir",
                           "testdata/sort_complex64_5_7.mlir",
                           "interpret/while.mlir", "interpret/constant.mlir"}) {
    std::string text = ReadFile(CorpusDir() / name);
    if (text.empty()) continue;
    // The first section that parses.
    for (const SourceSection& s : SplitSections(text)) {
      auto parsed = ParseModule(s.text, name, s.first_line);
      if (parsed.ok()) {
        out.push_back(SerializeModule(**parsed));
        break;
      }
    }
  }
  auto mix = ParseModule(kProgram, "mix.mlir");
  if (mix.ok()) out.push_back(SerializeModule(**mix));
  return out;
}

std::string_view PayloadOf(const std::string& bytes) {
  return std::string_view(bytes).substr(
      kModuleHeaderSize, bytes.size() - kModuleHeaderSize - kModuleTrailerSize);
}

TEST(IrSerializeTest, EveryTruncationIsAnError) {
  auto samples = SampleModules();
  ASSERT_EQ(samples.size(), 5u);
  size_t checked = 0;
  for (const std::string& bytes : samples) {
    for (size_t len = 0; len < bytes.size(); ++len) {
      auto loaded = DeserializeModule(std::string_view(bytes).substr(0, len));
      ASSERT_FALSE(loaded.ok()) << len;
      EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
      ++checked;
    }
    // The decoder itself, past the checksum: a cut payload never decodes.
    std::string_view payload = PayloadOf(bytes);
    for (size_t len = 0; len < payload.size(); ++len) {
      auto loaded = internal::DecodeModulePayload(payload.substr(0, len));
      ASSERT_FALSE(loaded.ok()) << len;
      EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(loaded.status().message().find("at byte"), std::string::npos)
          << loaded.status().message();
      ++checked;
    }
  }
  EXPECT_GT(checked, 5000u);
}

enum class Mutation { kFlip, kInsert, kErase, kSet };

std::string Mutate(std::string bytes, size_t begin, size_t end, std::mt19937_64& rng) {
  int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits && end > begin; ++e) {
    size_t pos = begin + rng() % (end - begin);
    switch (static_cast<Mutation>(rng() % 4)) {
      case Mutation::kFlip:
        bytes[pos] = static_cast<char>(bytes[pos] ^ (1 << (rng() % 8)));
        break;
      case Mutation::kInsert:
        bytes.insert(bytes.begin() + pos, static_cast<char>(rng()));
        ++end;
        break;
      case Mutation::kErase:
        bytes.erase(bytes.begin() + pos);
        --end;
        break;
      case Mutation::kSet: {
        // Small values hit counts, indices and tags more often than random bytes.
        static const unsigned char kValues[] = {0, 1, 2, 0x7F, 0x80, 0xFF};
        bytes[pos] = static_cast<char>(kValues[rng() % 6]);
        break;
      }
    }
  }
  return bytes;
}

TEST(IrSerializeTest, MutatedBytesFailTheChecksum) {
  auto samples = SampleModules();
  ASSERT_EQ(samples.size(), 5u);
  std::mt19937_64 rng(20240611);
  int rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string& original = samples[i % samples.size()];
    std::string mutant = Mutate(original, 0, original.size(), rng);
    if (mutant == original) continue;
    auto loaded = DeserializeModule(mutant);
    ASSERT_FALSE(loaded.ok()) << "mutant " << i << " loaded";
    EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
    ++rejected;
  }
  EXPECT_GT(rejected, 2900);
}

TEST(IrSerializeTest, MutatedPayloadsNeverCrashTheDecoder) {
  auto samples = SampleModules();
  ASSERT_EQ(samples.size(), 5u);
  std::mt19937_64 rng(77);
  int rejected = 0, loaded_count = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string payload(PayloadOf(samples[i % samples.size()]));
    std::string mutant = Mutate(payload, 0, payload.size(), rng);
    // With the checksum recomputed the whole loader sees the mutant.
    std::string bytes = samples[i % samples.size()].substr(0, 8);
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<char>(kModuleFormatVersion >> (8 * k)));
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<char>(mutant.size() >> (8 * k)));
    bytes += mutant;
    uint64_t hash = Checksum64(mutant);
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<char>(hash >> (8 * k)));

    auto loaded = DeserializeModule(bytes);
    auto direct = internal::DecodeModulePayload(mutant);
    ASSERT_EQ(loaded.ok(), direct.ok());
    if (!loaded.ok()) {
      EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(loaded.status().message().find("at byte"), std::string::npos)
          << loaded.status().message();
      ++rejected;
      continue;
    }
    ++loaded_count;
    // Whatever loads is a usable module: it prints, and it round-trips.
    std::string printed = PrintModule(**loaded);
    std::string again = SerializeModule(**loaded);
    auto reloaded = DeserializeModule(again);
    ASSERT_TRUE(reloaded.ok()) << reloaded.status().ToString();
    EXPECT_EQ(PrintModule(**reloaded), printed);
    EXPECT_EQ(Comparer().Compare(**loaded, **reloaded), "");
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(loaded_count, 0);
  std::printf("payload mutants: %d rejected, %d loaded\n", rejected, loaded_count);
}

TEST(IrSerializeTest, VersionMismatchNamesBothVersions) {
  auto module = ParseOrDie(kProgram, "mix.mlir");
  ASSERT_NE(module, nullptr);
  std::string bytes = SerializeModule(*module);
  bytes[8] = 7;  // version 7
  auto loaded = DeserializeModule(bytes);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(loaded.status().message().find("format version 7"), std::string::npos)
      << loaded.status().message();
  EXPECT_NE(loaded.status().message().find(StrCat("format version ", kModuleFormatVersion)),
            std::string::npos)
      << loaded.status().message();
  // Also when the rest of the file is cut off.
  auto short_loaded = DeserializeModule(std::string_view(bytes).substr(0, 12));
  ASSERT_FALSE(short_loaded.ok());
  EXPECT_NE(short_loaded.status().message().find("format version 7"), std::string::npos);
}

TEST(IrSerializeTest, ForeignBytesAreRejectedByMagic) {
  for (std::string_view foreign : {std::string_view("module {\n}\n"),
                                   std::string_view("\x7F" "ELF\x02\x01\x01\0", 8),
                                   std::string_view("PLUGRTIX\x01\0\0\0", 12)}) {
    auto loaded = DeserializeModule(foreign);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(loaded.status().message().find("bad magic"), std::string::npos)
        << loaded.status().message();
  }
  auto empty = DeserializeModule("");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("truncated"), std::string::npos)
      << empty.status().message();
}

TEST(IrSerializeTest, CorruptionIsReportedWithItsOffset) {
  auto module = ParseOrDie(kProgram, "mix.mlir");
  ASSERT_NE(module, nullptr);
  std::string bytes = SerializeModule(*module);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  auto loaded = DeserializeModule(flipped);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("checksum"), std::string::npos)
      << loaded.status().message();

  std::string longer = bytes + "x";
  loaded = DeserializeModule(longer);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("after the checksum"), std::string::npos)
      << loaded.status().message();

  // A string index past the table, found by the decoder: string 0 of 1.
  std::string payload("\x01\x01" "a" "\x05", 4);
  auto decoded = internal::DecodeModulePayload(payload);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().message(),
            "serialized module is corrupt at byte 23: module name names string 5 but the "
            "table has 1");
}

// Payload bytes for a module named "a" (string 0) whose one attribute is
// `depth` arrays nested in each other.
std::string NestedArrays(int depth) {
  std::string p("\x01\x01" "a" "\x00\x01\x00", 6);  // table, name, 1 attribute named "a"
  for (int i = 0; i < depth; ++i) p += std::string("\x07\x40\x01", 3);  // array, 1 element
  p += std::string("\x00\x00", 2);   // unit
  p += std::string("\x01\x00\x00", 3);  // no-file location 0:0
  p += std::string("\x00", 1);          // no functions
  return p;
}

TEST(IrSerializeTest, NestingDepthIsBounded) {
  auto shallow = internal::DecodeModulePayload(NestedArrays(100));
  ASSERT_TRUE(shallow.ok()) << shallow.status().ToString();
  auto deep = internal::DecodeModulePayload(NestedArrays(100000));
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("nesting deeper than"), std::string::npos)
      << deep.status().message();
}

TEST(IrSerializeTest, CountsAndCopiesAreBoundedByTheInput) {
  // A count far beyond the bytes that follow.
  std::string huge("\x01\x01" "a" "\x00\xFF\xFF\xFF\xFF\x0F", 9);
  auto decoded = internal::DecodeModulePayload(huge);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("exceeds"), std::string::npos)
      << decoded.status().message();

  // One 100000-byte string named by 20000 attributes of 3 bytes each would
  // copy 2 GB; the loader stops long before.
  std::string p("\x01", 1);
  p += std::string("\xA0\x8D\x06", 3);  // 100000
  p += std::string(100000, 'n');
  p += std::string("\x00", 1);          // module name: string 0
  p += std::string("\xA0\x9C\x01", 3);  // 20000 attributes
  for (int i = 0; i < 20000; ++i) p += std::string("\x00\x00\x00", 3);
  p += std::string("\x01\x00\x00\x00", 4);
  decoded = internal::DecodeModulePayload(p);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("exceed"), std::string::npos)
      << decoded.status().message();
}

TEST(IrSerializeTest, OutOfScopeOperandFailsToLoad) {
  auto module = ParseOrDie(kProgram, "mix.mlir");
  ASSERT_NE(module, nullptr);
  // Make the final return read a value defined inside the while op's body.
  Block& entry = module->functions[1]->body->front();
  Operation& whl = *entry.operations[6];
  Value* inner = whl.region(1).front().operations[0]->result(0);
  Operation& ret = *entry.operations.back();
  ret.operands[0] = inner;
  auto loaded = DeserializeModule(SerializeModule(*module));
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("operand #0 of func.return"), std::string::npos)
      << loaded.status().message();
}

TEST(IrSerializeTest, BadDenseDataIsRejected) {
  auto module = ParseOrDie(kProgram, "mix.mlir");
  ASSERT_NE(module, nullptr);
  Block& entry = module->functions[1]->body->front();
  auto data = std::make_shared<DenseData>();
  data->bytes.resize(7);  // not 2 x f32
  entry.operations[1]->attributes[0].second =
      Attribute::Dense(Type::Tensor(ElementType::kF32, {2}), data);
  auto loaded = DeserializeModule(SerializeModule(*module));
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("dense literal holds 7 bytes"), std::string::npos)
      << loaded.status().message();
}

}  // namespace
}  // namespace plugrt::shlo
