// The known-failure list of `plugrt conformance --known-failures`: parsing,
// formatting, scopes and the comparison that fails a run on any change.
#include "tools/known_failures.h"

#include <gtest/gtest.h>

namespace plugrt::tools {
namespace {

TEST(KnownFailuresTest, ParsesKeysAndReasons) {
  auto list = ParseKnownFailures(
      "# comment\n"
      "\n"
      "testdata/a.mlir  ABORTED: check.expect_close failed at index [0]\n"
      "  interpret/b.mlir#3\tUNIMPLEMENTED: no kernel  \n"
      "interpret/c.mlir\n",
      "list.txt");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  EXPECT_EQ(*list, (FailureList{{"testdata/a.mlir", "ABORTED: check.expect_close failed at index [0]"},
                                {"interpret/b.mlir#3", "UNIMPLEMENTED: no kernel"},
                                {"interpret/c.mlir", ""}}));
}

TEST(KnownFailuresTest, AKeyListedTwiceIsAnError) {
  auto list = ParseKnownFailures("a.mlir x\n# c\na.mlir y\n", "list.txt");
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(list.status().message().find("list.txt:3: 'a.mlir' is listed twice"), std::string::npos)
      << list.status().message();
}

TEST(KnownFailuresTest, FormattedLinesParseBack) {
  const std::string line =
      FormatKnownFailure("interpret/b.mlir#2", "line 7: ABORTED:  two\tblanks\nsecond line");
  EXPECT_EQ(line, "interpret/b.mlir#2  line 7: ABORTED: two blanks");
  auto list = ParseKnownFailures(line + "\n", "list.txt");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->at("interpret/b.mlir#2"), "line 7: ABORTED: two blanks");
  // Long reasons are cut to keep one readable line.
  EXPECT_LT(FormatKnownFailure("k", std::string(1000, 'x')).size(), 220u);
}

TEST(KnownFailuresTest, ScopesAreFoldersFilesOrSections) {
  const std::vector<std::string> scopes = {"testdata", "one.mlir"};
  EXPECT_TRUE(InScope("testdata/a.mlir", scopes));
  EXPECT_TRUE(InScope("testdata/sub/a.mlir#2", scopes));
  EXPECT_TRUE(InScope("one.mlir", scopes));
  EXPECT_TRUE(InScope("one.mlir#4", scopes));
  EXPECT_FALSE(InScope("interpret/a.mlir", scopes));
  EXPECT_FALSE(InScope("testdata_other/a.mlir", scopes));
  EXPECT_FALSE(InScope("one.mlir.bak", scopes));
}

TEST(KnownFailuresTest, TheSameFailuresMatch) {
  const FailureList known = {{"testdata/a.mlir", "old reason"}, {"interpret/b.mlir#2", "r"}};
  // Reasons are for people: a reworded error is no change.
  const FailureList current = {{"testdata/a.mlir", "new reason"}};
  EXPECT_TRUE(CompareKnownFailures(known, current, {"testdata"}).empty());
}

TEST(KnownFailuresTest, ANewFailureOffsetByANewPassIsTwoChanges) {
  const FailureList known = {{"testdata/a.mlir", "ra"}, {"interpret/x.mlir", "rx"}};
  const FailureList current = {{"testdata/b.mlir", "rb"}};
  FailureChanges changes = CompareKnownFailures(known, current, {"testdata"});
  EXPECT_FALSE(changes.empty());
  EXPECT_EQ(changes.new_failures, (FailureList{{"testdata/b.mlir", "rb"}}));
  // interpret/ was not run: its entry is not a pass.
  EXPECT_EQ(changes.now_passing, (FailureList{{"testdata/a.mlir", "ra"}}));
}

TEST(KnownFailuresTest, SectionsAreComparedOneByOne) {
  const FailureList known = {{"interpret/b.mlir#2", "r"}};
  FailureChanges changes =
      CompareKnownFailures(known, {{"interpret/b.mlir#3", "r"}}, {"interpret"});
  EXPECT_EQ(changes.new_failures.size(), 1u);
  EXPECT_EQ(changes.now_passing.size(), 1u);
  // A listed file whose every section now passes.
  changes = CompareKnownFailures(known, {}, {"interpret"});
  EXPECT_TRUE(changes.new_failures.empty());
  EXPECT_EQ(changes.now_passing, known);
}

}  // namespace
}  // namespace plugrt::tools
