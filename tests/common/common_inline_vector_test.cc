// InlineVector (src/common/inline_vector.h): elements inline up to N, on the
// heap beyond, each constructed and destroyed exactly once across growth,
// moves and conversion to std::vector.
#include "common/inline_vector.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace plugrt {
namespace {

// Counts live objects, to catch double destruction and leaks.
struct Tracked {
  static inline int live = 0;
  explicit Tracked(int v) : value(std::make_unique<int>(v)) { ++live; }
  Tracked(Tracked&& other) noexcept : value(std::move(other.value)) { ++live; }
  Tracked& operator=(Tracked&& other) noexcept {
    value = std::move(other.value);
    return *this;
  }
  ~Tracked() { --live; }
  std::unique_ptr<int> value;
};

TEST(InlineVectorTest, GrowsPastItsInlineCapacityKeepingOrder) {
  {
    InlineVector<Tracked, 2> v;
    EXPECT_TRUE(v.empty());
    for (int i = 0; i < 9; ++i) v.emplace_back(i);
    ASSERT_EQ(v.size(), 9u);
    EXPECT_GE(v.capacity(), 9u);
    for (int i = 0; i < 9; ++i) EXPECT_EQ(*v[i].value, i);
    EXPECT_EQ(*v.front().value, 0);
    EXPECT_EQ(*v.back().value, 8);
    EXPECT_EQ(Tracked::live, 9);
    v.pop_back();
    EXPECT_EQ(Tracked::live, 8);
  }
  EXPECT_EQ(Tracked::live, 0);
}

TEST(InlineVectorTest, MovesInlineAndHeapElementsAndLeavesTheSourceEmpty) {
  for (int count : {1, 3, 7}) {
    SCOPED_TRACE(count);
    {
      InlineVector<Tracked, 3> a;
      for (int i = 0; i < count; ++i) a.emplace_back(i * 10);
      InlineVector<Tracked, 3> b(std::move(a));
      EXPECT_TRUE(a.empty());
      ASSERT_EQ(b.size(), static_cast<size_t>(count));
      InlineVector<Tracked, 3> c;
      c.emplace_back(-1);
      c = std::move(b);
      EXPECT_TRUE(b.empty());
      ASSERT_EQ(c.size(), static_cast<size_t>(count));
      for (int i = 0; i < count; ++i) EXPECT_EQ(*c[i].value, i * 10);
      EXPECT_EQ(Tracked::live, count);
      a.emplace_back(5);  // a moved-from vector is usable again
      EXPECT_EQ(*a[0].value, 5);
    }
    EXPECT_EQ(Tracked::live, 0);
  }
}

TEST(InlineVectorTest, NestedListsConvertToStdVectors) {
  InlineVector<InlineVector<std::string, 2>, 1> rows;
  for (int r = 0; r < 3; ++r) {
    InlineVector<std::string, 2>& row = rows.emplace_back();
    for (int c = 0; c <= r; ++c) row.push_back(std::to_string(r) + ":" + std::to_string(c));
  }
  int seen = 0;
  for (const auto& row : rows) seen += static_cast<int>(row.size());
  EXPECT_EQ(seen, 6);
  std::vector<std::string> last = std::move(rows[2]).ToVector();
  EXPECT_EQ(last, (std::vector<std::string>{"2:0", "2:1", "2:2"}));
  EXPECT_TRUE(rows[2].empty());
  std::vector<std::string> first = std::move(rows[0]);  // the conversion
  EXPECT_EQ(first, std::vector<std::string>{"0:0"});
  InlineVector<std::string, 2> copy = rows[1];
  EXPECT_EQ(copy[1], "1:1");
  EXPECT_EQ(rows[1][1], "1:1");
  copy.resize(4);
  EXPECT_EQ(copy.size(), 4u);
  EXPECT_EQ(copy[3], "");
  copy.clear();
  EXPECT_TRUE(copy.empty());
}

}  // namespace
}  // namespace plugrt
