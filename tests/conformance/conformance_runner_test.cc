// `plugrt conformance` on a temporary corpus: collection, per-file and
// per-section verdicts, the closing counts, JSON, --fail-below, timeouts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt::testing {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A program that checks itself, passing or not.
std::string SelfCheck(int expected) {
  return "func.func public @main() -> tensor<2xi32> {\n"
         "  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>\n"
         "  %b = stablehlo.add %a, %a : tensor<2xi32>\n"
         "  %e = stablehlo.constant dense<[2, " + std::to_string(expected) + "]> : tensor<2xi32>\n"
         "  stablehlo.custom_call @check.expect_eq(%b, %e) {has_side_effect = true} : "
         "(tensor<2xi32>, tensor<2xi32>) -> ()\n"
         "  return %b : tensor<2xi32>\n"
         "}\n";
}

// Collection, reporting and JSON need no working compiler: files that do
// not parse fail (or are unsupported while the plugin cannot compile).
TEST(ConformanceRunnerTest, CollectsReportsAndWritesJson) {
  const plugrt::testing::TempDir temp_dir("conformance");
  const std::string dir = temp_dir.Folder("conformance_collect");
  WriteText(dir + "/b_garbage.mlir", "this is not a program\n");
  WriteText(dir + "/sub/deeper/a_garbage.mlir", "neither is this\n");
  WriteText(dir + "/sub/notes.txt", "not collected\n");
  WriteText(dir + "/sections.mlir",
            "// RUN: header comment\n\nnot a program\n\n// -----\n\nstill not\n// -----\n"
            "// only a comment: not a section\n");
  const std::string json = dir + "/../conformance_collect.json";
  CommandResult result = RunCli("conformance " + dir + " --jobs 2 --json " + json);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string& out = result.output;
  EXPECT_TRUE(Contains(out, dir + "/b_garbage.mlir: ")) << out;
  EXPECT_TRUE(Contains(out, dir + "/sub/deeper/a_garbage.mlir: ")) << out;
  EXPECT_FALSE(Contains(out, "notes.txt")) << out;
  EXPECT_TRUE(Contains(out, dir + "/sections.mlir: section 1 (line 1): ")) << out;
  EXPECT_TRUE(Contains(out, "sections: 0 passed, 4 failed\n")) << out;
  // The closing line counts files.
  EXPECT_TRUE(out.size() >= 19 && out.substr(out.size() - 19) == "0 passed, 3 failed\n") << out;

  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.front(), '[') << text;
  EXPECT_TRUE(Contains(text, "\"file\": \"" + dir + "/sections.mlir\"")) << text;
  EXPECT_TRUE(Contains(text, "\"sections_passed\": 0, \"sections_total\": 2")) << text;
  EXPECT_TRUE(Contains(text, "\"seconds\": ")) << text;
  EXPECT_TRUE(Contains(text, "\"status\": \"fail\"") || Contains(text, "\"status\": \"unsupported\""))
      << text;
  // Files in sorted order: b_garbage, sections, sub/deeper/a_garbage.
  EXPECT_LT(text.find("b_garbage"), text.find("sections.mlir"));
  EXPECT_LT(text.find("sections.mlir"), text.find("a_garbage"));

  CommandResult below = RunCli("conformance " + dir + " --fail-below 1");
  EXPECT_TRUE(FailedWith(below, 1, "below --fail-below 1"));
  EXPECT_EQ(RunCli("conformance " + dir + " --fail-below 0").exit_code, 0);
}

TEST(ConformanceRunnerTest, BadPathsAndUsage) {
  const plugrt::testing::TempDir temp_dir("conformance");
  const std::string dir = temp_dir.Folder("conformance_paths");
  CommandResult missing = RunCli("conformance " + dir + "/nothing-here");
  EXPECT_TRUE(FailedWith(missing, 1, "nothing-here: no such file or directory"));
  CommandResult empty = RunCli("conformance " + dir);
  EXPECT_TRUE(FailedWith(empty, 1, "no .mlir files"));
  EXPECT_TRUE(FailedWith(RunCli("conformance"), 2, "paths is required"));
  EXPECT_TRUE(FailedWith(RunCli("conformance " + dir + " --jobs 0"), 2, "--jobs: Value 0 not in range"));
  WriteText(dir + "/one.mlir", "not a program\n");
  CommandResult no_plugin = RunCli("conformance " + dir + " --plugin " + dir + "/no-plugin.so");
  EXPECT_TRUE(FailedWith(no_plugin, 1, "no-plugin.so"));
  EXPECT_FALSE(Contains(no_plugin.output, "passed")) << no_plugin.output;
  CommandResult help = RunCli("--help");
  EXPECT_FALSE(Contains(help.output, "conformance-file")) << help.output;
}

TEST(ConformanceRunnerTest, PassFailSectionsAndTimeout) {
  const plugrt::testing::TempDir temp_dir("conformance");
  const std::string dir = temp_dir.Folder("conformance_execute");
  WriteText(dir + "/pass.mlir", SelfCheck(4));
  CommandResult probe = RunCli("conformance " + dir);
  if (!Contains(probe.output, "1 passed, 0 failed")) {
    GTEST_FAIL() << "the plugin does not execute self-checking programs: " << probe.output;
  }
  WriteText(dir + "/fail.mlir", SelfCheck(5));
  WriteText(dir + "/mixed.mlir", SelfCheck(4) + "\n// -----\n\n" + SelfCheck(9));
  WriteText(dir + "/loop.mlir", R"(func.func public @main() -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %r = stablehlo.while(%i = %zero) : tensor<i64>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %n : tensor<i64>
  }
  return %r : tensor<i64>
}
)");
  const std::string json = dir + "/../conformance_execute.json";
  CommandResult result = RunCli("conformance " + dir + " --timeout 2 --json " + json);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string& out = result.output;
  // The failing check names the file, line and mismatch.
  EXPECT_TRUE(Contains(out, "FAIL " + dir + "/fail.mlir: ")) << out;
  EXPECT_TRUE(Contains(out, dir + "/fail.mlir:5:")) << out;
  // The second section starts after its separator, on line 10 of
  // mixed.mlir; its error location is the file's line (11 + 4).
  EXPECT_TRUE(Contains(out, "FAIL " + dir + "/mixed.mlir: section 2 (line 10): ")) << out;
  EXPECT_TRUE(Contains(out, dir + "/mixed.mlir:15:")) << out;
  EXPECT_TRUE(Contains(out, "TIMEOUT " + dir + "/loop.mlir: timed out after 2 s")) << out;
  EXPECT_FALSE(Contains(out, "pass.mlir")) << out;
  EXPECT_TRUE(Contains(out, "sections: 2 passed, 3 failed\n")) << out;
  EXPECT_TRUE(Contains(out, "1 passed, 3 failed\n")) << out;

  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(Contains(text, "\"status\": \"timeout\"")) << text;
  EXPECT_TRUE(Contains(text, "\"status\": \"pass\", \"reason\": \"\", \"sections_passed\": 1"))
      << text;
  EXPECT_TRUE(Contains(text, "\"sections_passed\": 1, \"sections_total\": 2")) << text;
}

// --known-failures: exactly the listed files and sections may fail; any
// change names the entry and fails the run.
TEST(ConformanceRunnerTest, KnownFailuresMustMatchExactly) {
  const plugrt::testing::TempDir temp_dir("conformance");
  const std::string dir = temp_dir.Folder("conformance_known");
  WriteText(dir + "/pass.mlir", SelfCheck(4));
  WriteText(dir + "/fail.mlir", SelfCheck(5));
  WriteText(dir + "/mixed.mlir", SelfCheck(4) + "\n// -----\n\n" + SelfCheck(9));
  const std::string list = dir + "/../conformance_known.txt";
  auto run = [&](const std::string& text) {
    std::ofstream(list) << text;
    return RunCli("conformance " + dir + " --jobs 2 --known-failures " + list);
  };
  // Keys are led by the folder's name, whatever its path; entries of other
  // folders are not this run's.
  CommandResult same = run(
      "# the failures of conformance_known\n"
      "conformance_known/fail.mlir  ABORTED: whatever it said then\n"
      "conformance_known/mixed.mlir#2\n"
      "interpret/elsewhere.mlir#1  not run here\n");
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_TRUE(Contains(same.output, "known failures: as listed in " + list + " (2)")) << same.output;

  // A new failure offset by a new pass: the counts agree, the list does not.
  CommandResult changed = run(
      "conformance_known/fail.mlir\n"
      "conformance_known/pass.mlir  it failed once\n");
  EXPECT_TRUE(FailedWith(changed, 1, "the failures differ from the known-failure list " + list));
  // New failures come as lines ready for the list, the reason's location
  // a line of the file, not a path of this machine.
  EXPECT_TRUE(Contains(changed.output, "new failure:  conformance_known/mixed.mlir#2  "
                                       "ABORTED: line 15:"))
      << changed.output;
  const std::string changes = changed.output.substr(changed.output.find("the failures differ"));
  EXPECT_FALSE(Contains(changes, dir + "/mixed.mlir")) << changes;
  EXPECT_TRUE(Contains(changed.output, "now passes:   conformance_known/pass.mlir  it failed once"))
      << changed.output;
  EXPECT_FALSE(Contains(changed.output, "new failure:  conformance_known/fail.mlir")) << changed.output;
  EXPECT_TRUE(Contains(changed.output, "update " + list)) << changed.output;

  // One file given alone is keyed by its name.
  std::ofstream(list) << "fail.mlir\n";
  CommandResult alone = RunCli("conformance " + dir + "/fail.mlir --known-failures " + list);
  EXPECT_EQ(alone.exit_code, 0) << alone.output;

  CommandResult missing = RunCli("conformance " + dir + " --known-failures " + dir + "/none.txt");
  EXPECT_TRUE(FailedWith(missing, 1, dir + "/none.txt: cannot open the known-failure list"));
  CommandResult twice = run("conformance_known/fail.mlir\nconformance_known/fail.mlir\n");
  EXPECT_TRUE(FailedWith(twice, 1, list + ":2: 'conformance_known/fail.mlir' is listed twice"));
}

}  // namespace
}  // namespace plugrt::testing
