// The CLI's program-file helpers: entry selection swaps @main and the chosen
// function everywhere but in strings and comments; plugin errors name the file.
#include <gtest/gtest.h>

#include "tools/program_file.h"

namespace plugrt::tools {
namespace {

TEST(SelectEntryFunction, MainIsUnchanged) {
  const std::string text = "func.func @main() {\n  return\n}\n";
  auto selected = SelectEntryFunction(text, "main");
  ASSERT_TRUE(selected.ok());
  EXPECT_EQ(*selected, text);
}

TEST(SelectEntryFunction, SwapsNamesOutsideStringsAndComments) {
  const std::string text =
      "func.func public @main() {\n"
      "  %0 = func.call @f() : () -> tensor<i32>  // calls @f, not @main\n"
      "  \"x.op\"() {name = \"@f\"} : () -> ()\n"
      "  return\n"
      "}\n"
      "func.func private @f() {\n"
      "  %0 = func.call @main() : () -> ()\n"
      "  return\n"
      "}\n";
  auto selected = SelectEntryFunction(text, "f");
  ASSERT_TRUE(selected.ok()) << selected.status().ToString();
  EXPECT_EQ(*selected,
            "func.func public @main_() {\n"
            "  %0 = func.call @main() : () -> tensor<i32>  // calls @f, not @main\n"
            "  \"x.op\"() {name = \"@f\"} : () -> ()\n"
            "  return\n"
            "}\n"
            "func.func private @main() {\n"
            "  %0 = func.call @main_() : () -> ()\n"
            "  return\n"
            "}\n");
}

TEST(SelectEntryFunction, SymbolsThatOnlyShareAPrefixStay) {
  const std::string text =
      "func.func @main() {\n  return\n}\nfunc.func @f() {\n  return\n}\n"
      "func.func @f2() {\n  return\n}\nfunc.func @main_() {\n  return\n}\n";
  auto selected = SelectEntryFunction(text, "f");
  ASSERT_TRUE(selected.ok());
  EXPECT_NE(selected->find("@f2()"), std::string::npos);
  EXPECT_NE(selected->find("@main_()"), std::string::npos);  // untouched
  EXPECT_NE(selected->find("@main__()"), std::string::npos);  // the old @main
}

TEST(SelectEntryFunction, UnknownEntryIsNotFound) {
  auto selected = SelectEntryFunction("func.func @main() {\n}\n// @g\n", "g");
  ASSERT_FALSE(selected.ok());
  EXPECT_EQ(selected.status().code(), StatusCode::kNotFound);
  EXPECT_NE(selected.status().message().find("@g"), std::string::npos);
  // A call to a function that is not defined is not a definition either.
  EXPECT_FALSE(SelectEntryFunction("func.func @main() {\n  func.call @g()\n}\n", "g").ok());
}

TEST(NameProgramFile, ReplacesThePluginPlaceholder) {
  EXPECT_EQ(NameProgramFile("<program>:3:7: bad op; see <program>:1:1", "a/b.mlir"),
            "a/b.mlir:3:7: bad op; see a/b.mlir:1:1");
  EXPECT_EQ(NameProgramFile("no location", "a.mlir"), "no location");
}

}  // namespace
}  // namespace plugrt::tools
