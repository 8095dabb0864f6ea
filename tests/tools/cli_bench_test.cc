// `plugrt bench` as a user runs it, on a tiny bench folder of its own: the
// JSON rows and fields for each kind of workload, consistent figures, and
// the errors for unknown names and malformed programs. No timing
// thresholds: only that times are positive and figures agree.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "client/npy.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "testutil/corpus.h"
#include "tools/bench_ceilings.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt::testing {
namespace {

// --- a small JSON reader, enough for the bench command's output ------------

struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  bool Has(const std::string& key) const { return object.count(key) != 0; }
  const Json& operator[](const std::string& key) const {
    static const Json kMissing;
    auto it = object.find(key);
    return it == object.end() ? kMissing : it->second;
  }
  bool IsNull() const { return type == Type::kNull; }
  bool IsNumber() const { return type == Type::kNumber; }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& text) : text_(text) {}

  // The one value of the text (whitespace around it allowed); false on any
  // syntax error.
  bool Read(Json& value) {
    if (!Value(value)) return false;
    Space();
    return pos_ == text_.size();
  }

 private:
  void Space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Literal(const char* word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }
  bool String(std::string& out) {
    if (pos_ >= text_.size() || text_[pos_] != '"') return false;
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) return false;
        char e = text_[pos_++];
        if (e == 'n') {
          out += '\n';
        } else if (e == 't') {
          out += '\t';
        } else if (e == 'u') {
          if (pos_ + 4 > text_.size()) return false;
          out += static_cast<char>(std::stoi(text_.substr(pos_, 4), nullptr, 16));
          pos_ += 4;
        } else {
          out += e;
        }
      } else {
        out += c;
      }
    }
    if (pos_ >= text_.size()) return false;
    ++pos_;
    return true;
  }
  bool Value(Json& value) {
    Space();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{') {
      value.type = Json::Type::kObject;
      ++pos_;
      Space();
      if (pos_ < text_.size() && text_[pos_] == '}') return ++pos_, true;
      while (true) {
        Space();
        std::string key;
        if (!String(key)) return false;
        Space();
        if (pos_ >= text_.size() || text_[pos_++] != ':') return false;
        if (!Value(value.object[key])) return false;
        Space();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        return pos_ < text_.size() && text_[pos_++] == '}';
      }
    }
    if (c == '[') {
      value.type = Json::Type::kArray;
      ++pos_;
      Space();
      if (pos_ < text_.size() && text_[pos_] == ']') return ++pos_, true;
      while (true) {
        value.array.emplace_back();
        if (!Value(value.array.back())) return false;
        Space();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        return pos_ < text_.size() && text_[pos_++] == ']';
      }
    }
    if (c == '"') {
      value.type = Json::Type::kString;
      return String(value.string);
    }
    if (Literal("null")) return true;
    if (Literal("true")) {
      value.type = Json::Type::kBool;
      value.boolean = true;
      return true;
    }
    if (Literal("false")) {
      value.type = Json::Type::kBool;
      return true;
    }
    const char* start = text_.c_str() + pos_;
    char* end = nullptr;
    value.number = std::strtod(start, &end);
    if (end == start) return false;
    value.type = Json::Type::kNumber;
    pos_ += static_cast<size_t>(end - start);
    return true;
  }

  const std::string& text_;
  size_t pos_ = 0;
};

// --- the bench folder --------------------------------------------------------

// 4x4 f32 add: 192 bytes of arguments and outputs per execute.
constexpr const char* kAddProgram =
    R"mlir(// plugrt-bench: kind=execute metric=bytes ceiling=bandwidth
// Adds two 4x4 f32 matrices.
func.func public @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
)mlir";

constexpr const char* kDispatchProgram =
    R"mlir(// plugrt-bench: kind=dispatch iterations=10
// One scalar add, executed 10 times per timed loop.
func.func public @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
)mlir";

constexpr const char* kCompileProgram =
    R"mlir(// plugrt-bench: kind=compile
// A short elementwise chain, only compiled.
func.func public @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<1024xf32>
  %1 = stablehlo.add %0, %x : tensor<1024xf32>
  %2 = stablehlo.tanh %1 : tensor<1024xf32>
  return %2 : tensor<1024xf32>
}
)mlir";

// Arguments of several element types, with attributes, inside a module: the
// runner reads them from the signature and makes inputs for each. Bytes:
// arguments 2*3*2 (bf16) + 4 (i32) + 3 (i1), outputs 2*3*4 + 4 = 47.
constexpr const char* kMixedArgumentsProgram =
    R"mlir(// plugrt-bench: kind=execute
// Converts a bf16 matrix to f32 and passes an integer through.
module @mixed attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<2x3xbf16> {jax.arg_info = "x, (y)", mhlo.sharding = "{replicated}"},
                         %n: tensor<i32>, %flags: tensor<3xi1> loc("flags")) -> (tensor<2x3xf32>, tensor<i32>) {
    %0 = stablehlo.convert %x : (tensor<2x3xbf16>) -> tensor<2x3xf32>
    return %0, %n : tensor<2x3xf32>, tensor<i32>
  }
}
)mlir";

// A bf16 dot held against oneDNN's bf16 matmul, which oneDNN implements only
// on some CPUs (AVX-512 and later).
constexpr const char* kBf16DotProgram =
    R"mlir(// plugrt-bench: kind=execute metric=flops ceiling=bf16gemm
// A 4x4 bf16 matrix product with an f32 result.
func.func public @main(%a: tensor<4x4xbf16>, %b: tensor<4x4xbf16>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
)mlir";

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// The tiny suite written into `dir`; returns `dir`.
std::filesystem::path TinySuite(const std::filesystem::path& dir) {
  WriteText(dir / "add_4x4.mlir", kAddProgram);
  WriteText(dir / "dispatch_add.mlir", kDispatchProgram);
  WriteText(dir / "compile_chain.mlir", kCompileProgram);
  WriteText(dir / "mixed_args.mlir", kMixedArgumentsProgram);
  return dir;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `plugrt bench ARGUMENTS` with stdout alone in `output` (stderr, the
// progress lines, goes to a file of `dir`, appended to `errors`).
CommandResult RunBench(const std::filesystem::path& dir, const std::string& arguments,
                       std::string* errors) {
  const std::filesystem::path stderr_path = dir.parent_path() / (dir.filename().string() + ".err");
  CommandResult result = RunCommand("(" + std::string(PLUGRT_CLI_PATH) + " bench " + arguments +
                                    " 2>" + stderr_path.string() + ")");
  std::ifstream in(stderr_path);
  std::stringstream text;
  text << in.rdbuf();
  *errors = text.str();
  return result;
}

void ExpectNear(double actual, double expected, const std::string& what) {
  EXPECT_NEAR(actual, expected, std::abs(expected) * 1e-3) << what;
}

// The timing fields every executed or compiled workload has.
void ExpectTimes(const Json& row, int runs) {
  const std::string name = row["name"].string;
  for (const char* field : {"median_ms", "min_ms", "max_ms", "p10_ms", "p90_ms", "compile_ms"}) {
    ASSERT_TRUE(row[field].IsNumber()) << name << " " << field;
    EXPECT_GT(row[field].number, 0) << name << " " << field;
  }
  EXPECT_EQ(row["runs"].number, runs) << name;
  EXPECT_LE(row["min_ms"].number, row["p10_ms"].number) << name;
  EXPECT_LE(row["p10_ms"].number, row["median_ms"].number) << name;
  EXPECT_LE(row["median_ms"].number, row["p90_ms"].number) << name;
  EXPECT_LE(row["p90_ms"].number, row["max_ms"].number) << name;
  for (const char* field : {"gflops", "gbps", "metric", "ceiling", "ratio_to_ceiling"}) {
    EXPECT_TRUE(row.Has(field)) << name << " lacks " << field;
  }
  EXPECT_FALSE(row.Has("error")) << name << ": " << row["error"].string;
}

int ThreadsOfThisProcess() {
  int count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    ++count;
  }
  return count;
}

// The ceilings run OpenMP on the calling thread; the team they made must be
// gone when they return. libgomp counts every thread of every team, and once
// the count passes the cores each team's idle threads barely spin: the
// plugin's loops, on its device thread, would each pay a futex wake-up
// (the LSTM b1 model ran a quarter slower after the ceilings).
TEST(CliBenchTest, CeilingsLeaveNoOpenMpThreadsBehind) {
  // The sanitizer build (clang) runs on LLVM's OpenMP runtime, whose soft
  // pause keeps its threads asleep rather than ending them, and which does
  // not throttle its waits by thread count; the plain build runs on libgomp.
  if (dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != nullptr) {
    GTEST_SKIP() << "LLVM's OpenMP runtime: its paused threads stay (asleep); libgomp's end";
  }
  const int before = ThreadsOfThisProcess();
  tools::CeilingSelection selection;
  selection.bandwidth = true;
  tools::RepeatPolicy policy;
  policy.warmup = 0;
  policy.repeats = 1;
  StatusOr<std::vector<tools::CeilingResult>> ceilings = tools::MeasureCeilings(selection, 3, policy);
  ASSERT_TRUE(ceilings.ok()) << ceilings.status().ToString();
  EXPECT_FALSE(ceilings->empty());
  // The team's threads leave after the call returns: a moment to exit.
  int after = ThreadsOfThisProcess();
  for (int i = 0; i < 200 && after > before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    after = ThreadsOfThisProcess();
  }
  EXPECT_EQ(after, before) << "threads before the ceilings: " << before;
}

TEST(CliBenchTest, TimesEveryKindAndWritesJson) {
  const plugrt::testing::TempDir temp_dir("cli-bench-json");
  const std::filesystem::path dir = TinySuite(temp_dir.path());
  std::string errors;
  CommandResult result =
      RunBench(dir, "--dir " + dir.string() + " --no-ceilings --repeats 3 --json -", &errors);
  ASSERT_EQ(result.exit_code, 0) << result.output << errors;

  Json json;
  ASSERT_TRUE(JsonReader(result.output).Read(json)) << "not JSON:\n" << result.output;
  ASSERT_EQ(json.type, Json::Type::kObject);
  EXPECT_EQ(json["machine"]["cpu"].type, Json::Type::kString);
  EXPECT_GE(json["machine"]["threads"].number, 1);
  ASSERT_EQ(json["ceilings"].type, Json::Type::kArray);
  EXPECT_TRUE(json["ceilings"].array.empty()) << "--no-ceilings measured ceilings";
  ASSERT_EQ(json["workloads"].type, Json::Type::kArray);
  std::map<std::string, const Json*> rows;
  for (const Json& row : json["workloads"].array) rows[row["name"].string] = &row;
  ASSERT_EQ(rows.size(), 4u) << result.output;
  for (const char* name : {"add_4x4", "dispatch_add", "compile_chain", "mixed_args"}) {
    ASSERT_TRUE(rows.count(name)) << name << " missing:\n" << result.output;
  }

  // kind=execute: 192 bytes moved; GB/s is those bytes over the median.
  const Json& add = *rows["add_4x4"];
  EXPECT_EQ(add["kind"].string, "execute");
  ExpectTimes(add, 3);
  EXPECT_EQ(add["bytes"].number, 192);
  ASSERT_TRUE(add["gbps"].IsNumber());
  ExpectNear(add["gbps"].number, 192 / (add["median_ms"].number * 1e-3) / 1e9, "add gbps");
  EXPECT_EQ(add["metric"].string, "bytes");
  EXPECT_EQ(add["ceiling"].string, "bandwidth");
  EXPECT_TRUE(add["ratio_to_ceiling"].IsNull()) << "no ceilings were measured";
  // GFLOP/s, when the cost analysis counts flops, is flops over the median.
  if (add["flops"].IsNumber()) {
    EXPECT_GT(add["flops"].number, 0);
    ASSERT_TRUE(add["gflops"].IsNumber());
    ExpectNear(add["gflops"].number, add["flops"].number / (add["median_ms"].number * 1e-3) / 1e9,
               "add gflops");
  } else {
    EXPECT_TRUE(add["gflops"].IsNull());
  }

  // Several argument types, read from a signature with attributes.
  const Json& mixed = *rows["mixed_args"];
  ExpectTimes(mixed, 3);
  EXPECT_EQ(mixed["bytes"].number, 47);
  EXPECT_TRUE(mixed["metric"].IsNull());
  EXPECT_TRUE(mixed["ceiling"].IsNull());

  // kind=dispatch: times per execute, over 3 loops of 10.
  const Json& dispatch = *rows["dispatch_add"];
  EXPECT_EQ(dispatch["kind"].string, "dispatch");
  ExpectTimes(dispatch, 3);
  EXPECT_EQ(dispatch["iterations"].number, 10);
  ASSERT_TRUE(dispatch["us_per_execute"].IsNumber());
  ExpectNear(dispatch["us_per_execute"].number, dispatch["median_ms"].number * 1e3,
             "us_per_execute");
  ExpectNear(dispatch["loop_median_ms"].number, dispatch["median_ms"].number * 10,
             "loop_median_ms");
  EXPECT_EQ(dispatch["bytes"].number, 12);

  // kind=compile: the median is the compile time; nothing executes.
  const Json& compile = *rows["compile_chain"];
  EXPECT_EQ(compile["kind"].string, "compile");
  ExpectTimes(compile, 3);
  EXPECT_EQ(compile["compile_ms"].number, compile["median_ms"].number);
  EXPECT_TRUE(compile["gbps"].IsNull());
  EXPECT_TRUE(compile["gflops"].IsNull());

  // The table went to stderr, next to the progress lines.
  EXPECT_TRUE(Contains(errors, "workload")) << errors;
  EXPECT_TRUE(Contains(errors, "dispatch_add")) << errors;
}

// A ceiling oneDNN cannot measure on this CPU is reported as unavailable, with
// the reason, and the run goes on (it once ended every `plugrt bench` on CPUs
// without AVX-512 before any workload ran). Where oneDNN has a bf16 matmul the
// ceilings are measured and the workload is held against them.
TEST(CliBenchTest, Bf16CeilingIsMeasuredOrSaysWhyNot) {
  const plugrt::testing::TempDir temp_dir("cli-bench-bf16");
  const std::filesystem::path dir = temp_dir.path();
  WriteText(dir / "dot_bf16.mlir", kBf16DotProgram);
  std::string errors;
  CommandResult result =
      RunBench(dir, "dot_bf16 --dir " + dir.string() + " --repeats 1 --warmup 0 --json -", &errors);
  ASSERT_EQ(result.exit_code, 0) << result.output << errors;
  Json json;
  ASSERT_TRUE(JsonReader(result.output).Read(json)) << "not JSON:\n" << result.output;
  ASSERT_EQ(json["ceilings"].array.size(), 2u) << result.output;
  bool measured = false;
  for (const Json& ceiling : json["ceilings"].array) {
    EXPECT_EQ(ceiling["kind"].string, "bf16gemm") << result.output;
    if (ceiling.Has("unavailable")) {
      EXPECT_TRUE(Contains(ceiling["unavailable"].string, "no bf16 matmul for this CPU"))
          << result.output;
      EXPECT_FALSE(ceiling.Has("gflops")) << result.output;
      EXPECT_TRUE(Contains(errors, "unavailable: oneDNN has no bf16 matmul")) << errors;
    } else {
      ASSERT_TRUE(ceiling["gflops"].IsNumber()) << result.output;
      EXPECT_GT(ceiling["gflops"].number, 0);
      measured = true;
    }
  }
  ASSERT_EQ(json["workloads"].array.size(), 1u) << result.output;
  const Json& dot = json["workloads"].array[0];
  ExpectTimes(dot, 1);
  EXPECT_EQ(dot["ratio_to_ceiling"].IsNumber(), measured) << result.output;
}

TEST(CliBenchTest, SelectsByNameAndPrintsATable) {
  const plugrt::testing::TempDir temp_dir("cli-bench-table");
  const std::filesystem::path dir = TinySuite(temp_dir.path());
  std::string errors;
  CommandResult result = RunBench(
      dir, "add_4x4 dispatch_add --dir " + dir.string() + " --no-ceilings --repeats 2 --warmup 0",
      &errors);
  ASSERT_EQ(result.exit_code, 0) << result.output << errors;
  EXPECT_TRUE(Contains(result.output, "workload")) << result.output;
  EXPECT_TRUE(Contains(result.output, "add_4x4")) << result.output;
  EXPECT_TRUE(Contains(result.output, " us")) << "dispatch rows are per execute:\n" << result.output;
  EXPECT_FALSE(Contains(result.output, "compile_chain")) << result.output;
  EXPECT_FALSE(Contains(result.output, "mixed_args")) << result.output;
}

TEST(CliBenchTest, ListsWorkloadsWithTheirHeaders) {
  const plugrt::testing::TempDir temp_dir("cli-bench-list");
  const std::filesystem::path dir = TinySuite(temp_dir.path());
  CommandResult result = RunCli("bench --list --dir " + dir.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Contains(result.output, "dispatch x10")) << result.output;
  EXPECT_TRUE(Contains(result.output, "Adds two 4x4 f32 matrices.")) << result.output;
  EXPECT_TRUE(Contains(result.output, "compile_chain")) << result.output;
}

// compare=bytecode: the program's compile from text and from a portable
// artifact the writer makes in-process, two rows of one alternating run.
TEST(CliBenchTest, ComparesCompileFromBytecodeWithText) {
  const plugrt::testing::TempDir temp_dir("cli-bench-forms");
  const std::filesystem::path dir = temp_dir.path();
  std::string program = kAddProgram;
  program.replace(program.find('\n'), 0, " compare=bytecode");
  WriteText(dir / "add_forms.mlir", program);
  WriteText(dir / "add_plain.mlir", kAddProgram);
  std::string errors;
  CommandResult result = RunBench(
      dir, "add_forms@bytecode --dir " + dir.string() + " --no-ceilings --repeats 3 --json -",
      &errors);
  ASSERT_EQ(result.exit_code, 0) << result.output << errors;
  Json json;
  ASSERT_TRUE(JsonReader(result.output).Read(json)) << "not JSON:\n" << result.output;
  std::map<std::string, const Json*> rows;
  for (const Json& row : json["workloads"].array) rows[row["name"].string] = &row;
  ASSERT_EQ(rows.size(), 2u) << "only the comparison runs:\n" << result.output;
  ASSERT_TRUE(rows.count("add_forms@text") && rows.count("add_forms@bytecode")) << result.output;
  const Json& text = *rows["add_forms@text"];
  const Json& bytecode = *rows["add_forms@bytecode"];
  for (const Json* row : {&text, &bytecode}) {
    EXPECT_EQ((*row)["kind"].string, "compile");
    ExpectTimes(*row, 3);
    EXPECT_GT((*row)["program_bytes"].number, 0);
  }
  EXPECT_EQ(text["program_bytes"].number, static_cast<double>(program.size()));
  ASSERT_TRUE(bytecode["bytecode_vs_text"].IsNumber()) << result.output;
  ExpectNear(bytecode["bytecode_vs_text"].number,
             bytecode["median_ms"].number / text["median_ms"].number, "bytecode_vs_text");
  EXPECT_TRUE(Contains(errors, "of text")) << errors;

  CommandResult plain =
      RunCli("bench add_plain@bytecode --dir " + dir.string() + " --no-ceilings");
  EXPECT_TRUE(FailedWith(plain, 1, "compare=bytecode")) << plain.output;
}

// compare=cache: the program's compile into an empty persistent compilation
// cache and from a warm one, two rows of one alternating run.
TEST(CliBenchTest, ComparesCompileFromAWarmCacheWithACold) {
  const plugrt::testing::TempDir temp_dir("cli-bench-cache");
  const std::filesystem::path dir = temp_dir.path();
  std::string program = kAddProgram;
  program.replace(program.find('\n'), 0, " compare=cache");
  WriteText(dir / "add_cache.mlir", program);
  WriteText(dir / "add_plain.mlir", kAddProgram);
  std::string errors;
  CommandResult result = RunBench(
      dir, "add_cache@cache --dir " + dir.string() + " --no-ceilings --repeats 3 --json -",
      &errors);
  ASSERT_EQ(result.exit_code, 0) << result.output << errors;
  Json json;
  ASSERT_TRUE(JsonReader(result.output).Read(json)) << "not JSON:\n" << result.output;
  std::map<std::string, const Json*> rows;
  for (const Json& row : json["workloads"].array) rows[row["name"].string] = &row;
  ASSERT_EQ(rows.size(), 2u) << "only the comparison runs:\n" << result.output;
  ASSERT_TRUE(rows.count("add_cache@cold") && rows.count("add_cache@cache")) << result.output;
  const Json& cold = *rows["add_cache@cold"];
  const Json& warm = *rows["add_cache@cache"];
  for (const Json* row : {&cold, &warm}) {
    EXPECT_EQ((*row)["kind"].string, "compile");
    ExpectTimes(*row, 3);
  }
  // The warm row's size is the cache entry's: an executable was stored.
  EXPECT_GT(warm["program_bytes"].number, 0);
  ASSERT_TRUE(warm["warm_vs_cold"].IsNumber()) << result.output;
  ExpectNear(warm["warm_vs_cold"].number, warm["median_ms"].number / cold["median_ms"].number,
             "warm_vs_cold");
  EXPECT_TRUE(Contains(errors, "of cold")) << errors;

  CommandResult plain = RunCli("bench add_plain@cache --dir " + dir.string() + " --no-ceilings");
  EXPECT_TRUE(FailedWith(plain, 1, "compare=cache")) << plain.output;
}

// kind=eager: @main's ops one at a time through the eager layer, and the
// program compiled whole; both timed, per run of the body.
constexpr const char* kEagerProgram =
    R"mlir(// plugrt-bench: kind=eager iterations=10
// Two scalar ops, eagerly and fused.
func.func public @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  %1 = stablehlo.multiply %0, %a : tensor<f32>
  return %1 : tensor<f32>
}
)mlir";

TEST(CliBenchTest, EagerRunsTheOpsOneAtATimeAndFused) {
  const plugrt::testing::TempDir temp_dir("cli-bench-eager");
  const std::filesystem::path dir = temp_dir.path();
  WriteText(dir / "eager_two.mlir", kEagerProgram);
  // An op with attributes has no eager replay here: a row of its own says so.
  WriteText(dir / "eager_iota.mlir",
            "// plugrt-bench: kind=eager\n"
            "func.func public @main() -> tensor<4xf32> {\n"
            "  %0 = stablehlo.iota dim = 0 : tensor<4xf32>\n"
            "  return %0 : tensor<4xf32>\n"
            "}\n");
  std::string errors;
  CommandResult result = RunBench(
      dir, "--dir " + dir.string() + " --no-ceilings --repeats 3 --warmup 1 --json -", &errors);
  EXPECT_EQ(result.exit_code, 1) << result.output << errors;
  Json json;
  ASSERT_TRUE(JsonReader(result.output).Read(json)) << "not JSON:\n" << result.output;
  std::map<std::string, const Json*> rows;
  for (const Json& row : json["workloads"].array) rows[row["name"].string] = &row;
  ASSERT_TRUE(rows.count("eager_two") && rows.count("eager_iota")) << result.output;

  const Json& eager = *rows["eager_two"];
  EXPECT_EQ(eager["kind"].string, "eager");
  ExpectTimes(eager, 3);
  EXPECT_EQ(eager["ops"].number, 2);
  EXPECT_EQ(eager["iterations"].number, 10);
  ExpectNear(eager["us_per_op"].number, eager["median_ms"].number * 1e3 / 2, "us_per_op");
  ASSERT_TRUE(eager["fused_median_ms"].IsNumber());
  EXPECT_GT(eager["fused_median_ms"].number, 0);
  EXPECT_LE(eager["fused_min_ms"].number, eager["fused_median_ms"].number);
  ExpectNear(eager["eager_vs_fused"].number,
             eager["median_ms"].number / eager["fused_median_ms"].number, "eager_vs_fused");

  const std::string& error = (*rows["eager_iota"])["error"].string;
  EXPECT_TRUE(Contains(error, "stablehlo.iota has attributes or regions")) << error;
  EXPECT_TRUE(Contains(error, "UNIMPLEMENTED")) << error;
}

TEST(CliBenchTest, UnknownNameListsTheAvailableOnes) {
  const plugrt::testing::TempDir temp_dir("cli-bench-unknown");
  const std::filesystem::path dir = TinySuite(temp_dir.path());
  CommandResult result = RunCli("bench no_such_workload --dir " + dir.string() + " --no-ceilings");
  EXPECT_TRUE(FailedWith(result, 1, "no_such_workload"));
  EXPECT_TRUE(Contains(result.output,
                       "available: add_4x4, compile_chain, dispatch_add, mixed_args"))
      << result.output;
}

TEST(CliBenchTest, MalformedProgramNamesFileLineAndColumn) {
  const plugrt::testing::TempDir temp_dir("cli-bench-malformed");
  const std::filesystem::path dir = temp_dir.path();
  // Line 3: `%c` is not defined.
  WriteText(dir / "broken.mlir",
            "// plugrt-bench: kind=execute\n"
            "func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = stablehlo.add %a, %c : tensor<4xf32>\n"
            "  return %0 : tensor<4xf32>\n"
            "}\n");
  WriteText(dir / "add_4x4.mlir", kAddProgram);
  std::string errors;
  CommandResult result = RunBench(
      dir, "--dir " + dir.string() + " --no-ceilings --repeats 1 --json -", &errors);
  const std::string path = (dir / "broken.mlir").string();
  // The error goes to stderr (`errors`), the JSON to stdout.
  EXPECT_TRUE(FailedWith(CommandResult{result.exit_code, result.signal, errors}, 1, path + ":3:"))
      << result.output;
  // The other workload still ran, and the failure is a row of its own.
  Json json;
  ASSERT_TRUE(JsonReader(result.output).Read(json)) << "not JSON:\n" << result.output;
  ASSERT_EQ(json["workloads"].array.size(), 2u);
  for (const Json& row : json["workloads"].array) {
    if (row["name"].string == "broken") {
      EXPECT_TRUE(Contains(row["error"].string, path + ":3:")) << row["error"].string;
    } else {
      ExpectTimes(row, 1);
    }
  }
}

// A program with a NAME.args/ folder beside it runs on those values (a
// model's weights): arguments of another type or shape, or a missing one, are
// errors naming the file; without the folder the bench makes its own.
TEST(CliBenchTest, RunsOnSavedArgumentsBesideTheProgram) {
  const plugrt::testing::TempDir temp_dir("cli-bench-saved-args");
  const std::filesystem::path dir = temp_dir.path();
  WriteText(dir / "add_4x4.mlir", kAddProgram);
  std::filesystem::create_directories(dir / "add_4x4.args");
  auto save = [&](const std::string& name, std::vector<int64_t> dims) {
    plugrt::HostArray array;
    array.type = PJRT_Buffer_Type_F32;
    array.dims = dims;
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    array.data.assign(static_cast<size_t>(n) * sizeof(float), std::byte{0});
    ASSERT_TRUE(plugrt::WriteNpyFile((dir / "add_4x4.args" / name).string(), array).ok());
  };
  save("arg0.npy", {4, 4});
  // arg1 missing.
  CommandResult result = RunCli("bench --dir " + dir.string() + " --no-ceilings --repeats 1");
  EXPECT_TRUE(FailedWith(result, 1, (dir / "add_4x4.args" / "arg1.npy").string()))
      << result.output;
  save("arg1.npy", {4, 5});
  result = RunCli("bench --dir " + dir.string() + " --no-ceilings --repeats 1");
  EXPECT_TRUE(FailedWith(result, 1, "holds f32[4,5], the program's argument 1 is f32[4,4]"))
      << result.output;
  save("arg1.npy", {4, 4});
  result = RunCli("bench --dir " + dir.string() + " --no-ceilings --repeats 1");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Contains(result.output, "add_4x4")) << result.output;
}

TEST(CliBenchTest, MalformedHeaderNamesFileLineAndColumn) {
  const plugrt::testing::TempDir temp_dir("cli-bench-header");
  const std::filesystem::path dir = temp_dir.path();
  std::string program = kAddProgram;
  program.replace(0, program.find('\n'), "// plugrt-bench: kind=fast");
  WriteText(dir / "fast.mlir", program);
  CommandResult result = RunCli("bench --dir " + dir.string() + " --no-ceilings");
  EXPECT_TRUE(FailedWith(result, 1, (dir / "fast.mlir").string() + ":1:18: unknown kind 'fast'"));
}

TEST(CliBenchTest, ProfileWritesATraceAndSummaryPerWorkloadButSkipsLoops) {
  const plugrt::testing::TempDir temp_dir("cli-bench-profile");
  const std::filesystem::path dir = TinySuite(temp_dir.path());
  const std::filesystem::path profiles = dir / "profiles";
  std::string errors;
  CommandResult result = RunBench(dir,
                                  "add_4x4 dispatch_add --dir " + dir.string() +
                                      " --no-ceilings --repeats 2 --warmup 0 --profile " +
                                      profiles.string(),
                                  &errors);
  ASSERT_EQ(result.exit_code, 0) << result.output << errors;
  const std::string summary = testutil::ReadFile(profiles / "add_4x4.summary.txt");
  EXPECT_TRUE(Contains(summary, "2 executions")) << summary;
  EXPECT_TRUE(Contains(summary, "stablehlo.add f32[4,4], f32[4,4] -> f32[4,4]")) << summary;
  EXPECT_TRUE(Contains(testutil::ReadFile(profiles / "add_4x4.json"), "\"cat\":\"kernel\""));
  EXPECT_FALSE(std::filesystem::exists(profiles / "dispatch_add.json"));
  EXPECT_TRUE(Contains(errors, "dispatch_add: not profiled")) << errors;
}

}  // namespace
}  // namespace plugrt::testing
