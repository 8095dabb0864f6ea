// Source locations as JAX writes them: every sampled testdata program,
// rewritten with loc(...) on its ops, block and function arguments and with
// #loc aliases defined after the module, passes exactly as the original does;
// errors name the user's source line; malformed locations are parse errors
// naming file:line:col.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/importers/mlir/parser.h"
#include "stablehlo/verifier.h"
#include "testutil/corpus.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

namespace fs = std::filesystem;

// Every 4th testdata file (sorted): about 490 programs, a few seconds (the
// sanitizer build sets a sparser sample: tests/CMakeLists.txt).
#ifndef PLUGRT_SOURCE_LOCATIONS_SAMPLE_EVERY
#define PLUGRT_SOURCE_LOCATIONS_SAMPLE_EVERY 4
#endif
constexpr size_t kSampleEvery = PLUGRT_SOURCE_LOCATIONS_SAMPLE_EVERY;

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// The index just past the bracket group opening at `open` (strings skipped),
// or npos.
size_t MatchingClose(const std::string& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string::npos;
}

// Rewrites one section the way JAX exports look: ops end in loc(#locN) or an
// inline location, function and block arguments carry locations, and the
// aliases follow the module, used before they are defined.
class LocationWriter {
 public:
  std::string Rewrite(const std::string& section) {
    std::istringstream stream(section);
    std::vector<std::string> lines;
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
      // Pretty forms continue on the next line (`reducer(...)`, `cond {`).
      const std::string next = i + 1 < lines.size() ? Trim(lines[i + 1]) : "";
      const bool continues = next.rfind("reducer", 0) == 0 || next.rfind("cond", 0) == 0 ||
                             next.rfind("do", 0) == 0;
      out += continues ? lines[i] : RewriteLine(lines[i]);
      out += '\n';
    }
    out += aliases_;
    aliases_.clear();
    return out;
  }

 private:
  // A JAX-shaped location, alternating the forms; mostly an alias use.
  std::string NextLoc() {
    const int k = next_++;
    const std::string file = "\"/home/user/model.py\"";
    std::string body;
    switch (k % 6) {
      case 0:
        body = file + ":" + std::to_string(10 + k) + ":" + std::to_string(3 + k % 7);
        break;
      case 1:
        body = "\"jit(f)/jit(main)/op" + std::to_string(k) + "\"(" + file + ":" +
               std::to_string(k) + ":5)";
        break;
      case 2:
        body = "callsite(\"f\"(" + file + ":" + std::to_string(k) + ":9 to :20) at " + file +
               ":1:1)";
        break;
      case 3:
        body = "fused<\"cse\">[" + file + ":" + std::to_string(k) + ":2 to 14:3, unknown]";
        break;
      case 4:
        return "loc(" + file + ":" + std::to_string(k) + ":4)";  // inline, no alias
      default:
        body = "unknown";
        break;
    }
    // Nested aliases: the alias names another alias defined after it.
    const std::string name = "#loc" + std::to_string(k);
    aliases_ += name + " = loc(" + name + "_inner)\n";
    aliases_ += name + "_inner = loc(" + body + ")\n";
    return "loc(" + name + ")";
  }

  std::string RewriteLine(const std::string& line) {
    const std::string t = Trim(line);
    if (t.empty() || t.rfind("//", 0) == 0) return line;
    if (t.rfind("func.func", 0) == 0) return RewriteFunction(line);
    if (t[0] == '^') {
      // ^bb0(%a: T, %b: T): -> a location on the last argument.
      size_t close = line.rfind("):");
      if (close == std::string::npos || line.find('(') == std::string::npos) return line;
      return line.substr(0, close) + " " + NextLoc() + line.substr(close);
    }
    if (t.rfind("module", 0) == 0) return line;
    const char last = t.back();
    if (last == '{' || last == '(' || last == ',' || last == '[') return line;
    return line + " " + NextLoc();
  }

  std::string RewriteFunction(const std::string& line) {
    // A location after each argument ("%name: type {attrs}") and each
    // parenthesized result; the function's own follows its closing brace.
    size_t open = line.find('(', line.find('@'));
    if (open == std::string::npos) return line;
    size_t close = MatchingClose(line, open);
    if (close == std::string::npos) return line;
    std::string args = line.substr(open + 1, close - open - 2);
    std::string rewritten;
    int depth = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      char c = args[i];
      if (c == '"') {
        size_t end = i + 1;
        while (end < args.size() && args[end] != '"') end += args[end] == '\\' ? 2 : 1;
        rewritten += args.substr(i, end - i + 1);
        i = end;
        continue;
      }
      if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
      if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
      if (c == ',' && depth == 0) rewritten += " loc(\"arg\")";
      rewritten += c;
    }
    if (!Trim(args).empty()) rewritten += " " + NextLoc();
    std::string rest = line.substr(close);
    // `-> (T {attrs}, T)`: a location before the result list's ')'.
    size_t arrow = rest.find("-> (");
    if (arrow != std::string::npos) {
      size_t rclose = MatchingClose(rest, arrow + 3);
      if (rclose != std::string::npos && rclose - 1 > arrow + 4) {
        rest = rest.substr(0, rclose - 1) + " " + NextLoc() + rest.substr(rclose - 1);
      }
    }
    return line.substr(0, open + 1) + rewritten + ")" + rest;
  }

  int next_ = 0;
  std::string aliases_;
};

std::string AddLocations(const std::string& text) {
  // Each `// -----` section is its own program with its own aliases.
  std::string out, section;
  LocationWriter writer;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("// -----", 0) == 0) {
      out += writer.Rewrite(section) + line + "\n";
      section.clear();
      continue;
    }
    section += line + "\n";
  }
  return out + writer.Rewrite(section);
}

// basename -> status from `plugrt conformance --json` (one file per line).
std::map<std::string, std::string> Statuses(const fs::path& json) {
  std::map<std::string, std::string> out;
  std::istringstream lines(testutil::ReadFile(json));
  std::string line;
  while (std::getline(lines, line)) {
    size_t f = line.find("\"file\": \"");
    size_t s = line.find("\"status\": \"");
    if (f == std::string::npos || s == std::string::npos) continue;
    f += 9;
    s += 11;
    std::string file = line.substr(f, line.find('"', f) - f);
    out[fs::path(file).filename().string()] = line.substr(s, line.find('"', s) - s);
  }
  return out;
}

TEST(SourceLocations, TestdataWithJaxLocationsPassesAsWithout) {
  std::vector<fs::path> files = testutil::MlirFiles(testutil::CorpusDir() / "testdata");
  ASSERT_GT(files.size(), 1900u) << "corpus not found at " << testutil::CorpusDir();
  const plugrt::testing::TempDir temp_dir("locations");
  const fs::path dir = temp_dir.path();
  fs::create_directories(dir / "located");
  fs::create_directories(dir / "original");
  size_t sampled = 0;
  std::string parse_failures;
  for (size_t i = 0; i < files.size(); i += kSampleEvery) {
    const std::string text = testutil::ReadFile(files[i]);
    const std::string located = AddLocations(text);
    ASSERT_NE(located, text);
    // The rewrite must parse: an unparsed location is this feature failing.
    auto parsed = shlo::ParseModule(located, files[i].filename().string());
    if (!parsed.ok() && shlo::ParseModule(text, "orig").ok()) {
      parse_failures += parsed.status().ToString() + "\n";
    }
    std::ofstream(dir / "located" / files[i].filename()) << located;
    fs::copy_file(files[i], dir / "original" / files[i].filename());
    ++sampled;
  }
  EXPECT_EQ(parse_failures, "");
  auto run = [&](const std::string& name) {
    auto result = testing::RunCli("conformance " + (dir / name).string() + " --jobs 2 --json " +
                                  (dir / (name + ".json")).string());
    EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.output;
    return Statuses(dir / (name + ".json"));
  };
  std::map<std::string, std::string> original = run("original");
  std::map<std::string, std::string> located = run("located");
  ASSERT_EQ(original.size(), sampled);
  ASSERT_EQ(located.size(), sampled);
  size_t passed = 0;
  for (const auto& [file, status] : original) {
    EXPECT_EQ(located[file], status) << file;
    if (status == "pass") ++passed;
  }
  std::printf("%zu sampled testdata programs with locations: %zu pass as without\n", sampled,
              passed);
  EXPECT_GT(passed, sampled * 98 / 100);
}

constexpr std::string_view kFailing = R"mlir(module @jit_f {
  func.func public @main(%arg0: tensor<4xf32> loc("x")) -> (tensor<4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.slice %arg0 [0:6] : (tensor<4xf32>) -> tensor<6xf32> loc(#loc8)
    return %arg0 : tensor<4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("/tmp/x.py":5:10)
#loc4 = loc("f"(#loc3))
#loc6 = loc(callsite(#loc4 at "/tmp/x.py":9:1))
#loc8 = loc("jit(f)/jit(main)/slice"(#loc6))
)mlir";

TEST(SourceLocations, VerifierErrorsNameTheUserLine) {
  auto module = shlo::ParseModule(kFailing, "prog.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  Status status = shlo::VerifyModule(**module);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("prog.mlir:3:5 (jit(f)/jit(main)/slice at /tmp/x.py:5:10 in f, "
                                  "called from /tmp/x.py:9:1): stablehlo.slice: violated rule"),
            std::string::npos)
      << status.message();
}

TEST(SourceLocations, ExecuteErrorsNameTheUserLine) {
  // A shape assertion that fails at run time names the op's user location.
  const plugrt::testing::TempDir temp_dir("locations-error");
  const fs::path dir = temp_dir.path();
  std::ofstream(dir / "p.mlir") << R"mlir(module @m {
  func.func public @main() -> tensor<i32> {
    %c = stablehlo.constant dense<5> : tensor<i32>
    %0 = stablehlo.custom_call @no_such_target(%c) : (tensor<i32>) -> tensor<i32> loc(#loc2)
    return %0 : tensor<i32>
  }
}
#loc1 = loc("/work/train.py":42:7)
#loc2 = loc("jit(step)/custom"(#loc1))
)mlir";
  auto result = testing::RunCli("run " + (dir / "p.mlir").string());
  EXPECT_TRUE(testing::FailedWith(result, 1, "p.mlir:4:5 (/work/train.py:42:7 in jit(step)/custom)"));
}

TEST(SourceLocations, MalformedLocationsAreParseErrors) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"%0 = stablehlo.abs %a : tensor<f32> loc(\"x.py\":)",
       "t.mlir:3:52: expected a line number in the file location"},
      {"%0 = stablehlo.abs %a : tensor<f32> loc(callsite(\"a\" \"b\"))",
       "t.mlir:3:58: expected 'at' in the callsite location"},
      {"%0 = stablehlo.abs %a : tensor<f32> loc(fused[\"a\" \"b\"])",
       "t.mlir:3:55: expected ',' or ']' in the fused locations"},
      {"%0 = stablehlo.abs %a : tensor<f32> loc(#nowhere)",
       "t.mlir:3:45: undefined location alias #nowhere"},
      {"%0 = stablehlo.abs %a : tensor<f32> loc(bogus)", "t.mlir:3:45: expected a location"},
      {"%0 = stablehlo.abs %a : tensor<f32> loc(\"x\"", "t.mlir:4:5: expected ')' to close the location"},
  };
  for (const Case& c : cases) {
    std::string text = std::string("module {\n  func.func @main(%a: tensor<f32>) -> tensor<f32> {\n    ") +
                       c.text + "\n    return %0 : tensor<f32>\n  }\n}\n";
    auto module = shlo::ParseModule(text, "t.mlir");
    ASSERT_FALSE(module.ok()) << c.text;
    EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(module.status().message().find(c.error), std::string::npos)
        << module.status().message();
  }
  // Cycles and redefinitions among aliases.
  const std::string body =
      "module {\n  func.func @main(%a: tensor<f32>) -> tensor<f32> {\n    return %a : "
      "tensor<f32> loc(#a)\n  }\n}\n";
  auto cyc = shlo::ParseModule(body + "#a = loc(#b)\n#b = loc(fused[#a])\n", "t.mlir");
  ASSERT_FALSE(cyc.ok());
  EXPECT_NE(cyc.status().message().find("refers to itself"), std::string::npos);
  auto twice = shlo::ParseModule(body + "#a = loc(unknown)\n#a = loc(unknown)\n", "t.mlir");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("t.mlir:7:1: redefinition of location alias #a"),
            std::string::npos)
      << twice.status().message();
  // A long alias chain is refused, not followed into a stack overflow.
  std::string chain = body + "#a = loc(#l0)\n";
  for (int i = 0; i < 5000; ++i) {
    chain += "#l" + std::to_string(i) + " = loc(#l" + std::to_string(i + 1) + ")\n";
  }
  chain += "#l5000 = loc(unknown)\n";
  auto deep = shlo::ParseModule(chain, "t.mlir");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("nest deeper than"), std::string::npos);
}

TEST(SourceLocations, ArgumentAndResultLocationsAreKept) {
  auto module = shlo::ParseModule(R"mlir(
func.func @main(%a: tensor<f32> {jax.arg_info = "x"} loc("x"), %b: tensor<f32> loc(#l)) -> (tensor<f32> {jax.result_info = ""} loc("r")) {
  %0 = "stablehlo.reduce"(%a, %b) ({
  ^bb0(%p: tensor<f32> loc("p.py":1:1), %q: tensor<f32> loc(unknown)):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
#l = loc("y"("p.py":2:3))
)mlir",
                                     "t.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Function& f = *(*module)->functions[0];
  const shlo::Block& entry = f.body->front();
  ASSERT_NE(entry.arguments[0]->source, nullptr);
  EXPECT_EQ(entry.arguments[0]->source->ToString(), "x");
  EXPECT_EQ(entry.arguments[1]->source->ToString(), "p.py:2:3 in y");
  ASSERT_EQ(f.result_locations.size(), 1u);
  EXPECT_EQ(f.result_locations[0]->ToMlir(), "\"r\"");
  const shlo::Block& reducer = entry.operations[0]->region(0).front();
  EXPECT_EQ(reducer.arguments[0]->source->ToMlir(), "\"p.py\":1:1");
}

}  // namespace
}  // namespace plugrt
