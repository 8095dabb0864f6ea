// plugrt StableHLO parser: source locations, `loc(...)` and `#name = loc(...)`
// aliases, in MLIR's grammar:
//   loc        ::= 'loc' '(' instance ')'
//   instance   ::= string ':' int (':' int)? ('to' (int (':' int)? | ':' int))?
//                | string ('(' instance ')')?          // a name
//                | 'callsite' '(' instance 'at' instance ')'
//                | 'fused' ('<' attribute '>')? '[' instance (',' instance)* ']'
//                | 'unknown' | '#' alias-name
// Aliases may be used before they are defined (JAX defines them after the
// module), so uses are resolved once the whole file is read.
#include <charconv>

#include "compiler/importers/mlir/parser.h"

#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
namespace {

// A non-negative decimal integer, or nullopt (nothing consumed then).
std::optional<int64_t> LexUnsigned(Lexer& lex) {
  size_t save = lex.pos();
  std::string_view digits = lex.LexInteger();
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || digits[0] == '-' || ec != std::errc() ||
      ptr != digits.data() + digits.size()) {
    lex.set_pos(save);
    return std::nullopt;
  }
  return value;
}

}  // namespace

StatusOr<SourceLocationRef> Parser::ParseOptionalLoc() {
  size_t save = lex_.pos();
  if (!lex_.ConsumeKeyword("loc")) return SourceLocationRef();
  if (lex_.Peek() != '(') {
    lex_.set_pos(save);
    return SourceLocationRef();
  }
  lex_.set_pos(lex_.pos() + 1);
  PLUGRT_ASSIGN_OR_RETURN(SourceLocationRef loc, ParseLocationInstance());
  if (!lex_.ConsumeIf(")")) return lex_.Expected("')' to close the location");
  return loc;
}

StatusOr<SourceLocationRef> Parser::ParseLocationInstance() {
  DepthGuard guard(this);
  PLUGRT_RETURN_IF_ERROR(guard.Check());
  const char c = lex_.Peek();
  const size_t start = lex_.pos();
  if (c == '"') {
    PLUGRT_ASSIGN_OR_RETURN(std::string text, lex_.LexString());
    if (lex_.ConsumeIf(":")) {
      // file:line[:col][ to [line][:col]]
      std::optional<int64_t> line = LexUnsigned(lex_);
      if (!line) return lex_.Expected("a line number in the file location");
      int64_t column = 0, end_line = 0, end_column = 0;
      if (lex_.PeekRaw() == ':') {
        lex_.set_pos(lex_.pos() + 1);
        std::optional<int64_t> col = LexUnsigned(lex_);
        if (!col) return lex_.Expected("a column number in the file location");
        column = *col;
      }
      if (lex_.ConsumeKeyword("to")) {
        if (lex_.ConsumeIf(":")) {
          // `to :col`: the range ends on its first line.
          std::optional<int64_t> col = LexUnsigned(lex_);
          if (!col) return lex_.Expected("the range's end column");
          end_line = *line;
          end_column = *col;
        } else {
          std::optional<int64_t> last = LexUnsigned(lex_);
          if (!last) return lex_.Expected("the range's end line or ':column'");
          end_line = *last;
          if (lex_.PeekRaw() == ':') {
            lex_.set_pos(lex_.pos() + 1);
            std::optional<int64_t> col = LexUnsigned(lex_);
            if (!col) return lex_.Expected("the range's end column");
            end_column = *col;
          }
        }
      }
      return SourceLocation::FileLineCol(std::move(text), *line, column, end_line, end_column);
    }
    SourceLocationRef child;
    if (lex_.ConsumeIf("(")) {
      PLUGRT_ASSIGN_OR_RETURN(child, ParseLocationInstance());
      if (!lex_.ConsumeIf(")")) return lex_.Expected("')' after the name location's child");
    }
    return SourceLocation::Name(std::move(text), std::move(child));
  }
  if (c == '#') {
    lex_.set_pos(start + 1);
    std::string_view name = lex_.LexSuffixId();
    if (name.empty()) return lex_.Expected("a location alias name after '#'");
    auto use = std::make_shared<SourceLocation>();
    use->kind = SourceLocation::Kind::kAlias;
    use->text = std::string(name);
    alias_uses_.emplace_back(use, start);
    return SourceLocationRef(std::move(use));
  }
  if (lex_.ConsumeKeyword("unknown")) return SourceLocation::Unknown();
  if (lex_.ConsumeKeyword("callsite")) {
    if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' after 'callsite'");
    PLUGRT_ASSIGN_OR_RETURN(SourceLocationRef callee, ParseLocationInstance());
    if (!lex_.ConsumeKeyword("at")) return lex_.Expected("'at' in the callsite location");
    PLUGRT_ASSIGN_OR_RETURN(SourceLocationRef caller, ParseLocationInstance());
    if (!lex_.ConsumeIf(")")) return lex_.Expected("')' to close the callsite location");
    return SourceLocation::CallSite(std::move(callee), std::move(caller));
  }
  if (lex_.ConsumeKeyword("fused")) {
    std::string metadata;
    if (lex_.ConsumeIf("<")) {
      size_t meta_start = lex_.pos();
      lex_.Peek();
      meta_start = lex_.pos();
      PLUGRT_RETURN_IF_ERROR(ParseAttribute().status());
      metadata = std::string(lex_.text().substr(meta_start, lex_.pos() - meta_start));
      if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' after the fused location's metadata");
    }
    if (!lex_.ConsumeIf("[")) return lex_.Expected("'[' to open the fused locations");
    std::vector<SourceLocationRef> parts;
    while (true) {
      PLUGRT_ASSIGN_OR_RETURN(SourceLocationRef part, ParseLocationInstance());
      parts.push_back(std::move(part));
      if (lex_.ConsumeIf("]")) break;
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ']' in the fused locations");
    }
    return SourceLocation::Fused(std::move(parts), std::move(metadata));
  }
  return lex_.Expected("a location (\"file\":line:col, \"name\", callsite(...), fused[...], "
                       "unknown or #alias)");
}

Status Parser::ParseLocationAliasDefinition() {
  const size_t start = lex_.pos();
  lex_.set_pos(start + 1);  // '#'
  std::string name(lex_.LexSuffixId());
  if (name.empty()) return lex_.Expected("an alias name after '#'");
  if (!lex_.ConsumeIf("=")) return lex_.Expected("'=' in the alias definition #" + name);
  lex_.Peek();
  if (!lex_.PeekKeyword("loc")) {
    return lex_.ErrorAt(lex_.pos(), "only location aliases (#", name,
                        " = loc(...)) are supported at the top level");
  }
  PLUGRT_ASSIGN_OR_RETURN(SourceLocationRef loc, ParseOptionalLoc());
  if (!loc) return lex_.Expected("'loc(' in the alias definition #" + name);
  auto [it, inserted] = location_aliases_.emplace(name, AliasDefinition{std::move(loc), start});
  if (!inserted) return lex_.ErrorAt(start, "redefinition of location alias #", name);
  return OkStatus();
}

// Heights bound every walk of the resolved trees (renderers recurse); a
// definition is "being computed" while its subtree is walked, so meeting it
// again is a cycle.
StatusOr<int> Parser::AliasHeight(const std::string& name, int level) {
  auto it = location_aliases_.find(name);
  if (it == location_aliases_.end()) return 0;  // reported with the use
  AliasDefinition& def = it->second;
  if (def.height == -2) {
    return lex_.ErrorAt(def.pos, "location alias #", name, " refers to itself");
  }
  if (def.height >= 0) return def.height;
  def.height = -2;
  auto height = LocationHeight(*def.location, level, def.pos);
  if (!height.ok()) return height.status();
  def.height = *height;
  return *height;
}

StatusOr<int> Parser::LocationHeight(const SourceLocation& loc, int level, size_t pos) {
  if (level > kMaxNesting) {
    return lex_.ErrorAt(pos, "location aliases nest deeper than ", kMaxNesting, " levels");
  }
  int below = 0;
  if (loc.kind == SourceLocation::Kind::kAlias) {
    PLUGRT_ASSIGN_OR_RETURN(below, AliasHeight(loc.text, level + 1));
  }
  for (const SourceLocationRef& child : loc.children) {
    PLUGRT_ASSIGN_OR_RETURN(int h, LocationHeight(*child, level + 1, pos));
    below = std::max(below, h);
  }
  if (below + 1 > kMaxNesting) {
    return lex_.ErrorAt(pos, "location aliases nest deeper than ", kMaxNesting, " levels");
  }
  return below + 1;
}

Status Parser::ResolveLocationAliases() {
  for (auto& [use, pos] : alias_uses_) {
    if (location_aliases_.find(use->text) == location_aliases_.end()) {
      return lex_.ErrorAt(pos, "undefined location alias #", use->text);
    }
  }
  // Cycles are found by name before any use is linked to its definition:
  // linked, a cycle of aliases would be a cycle of shared pointers, never
  // freed.
  for (auto& [name, def] : location_aliases_) {
    PLUGRT_RETURN_IF_ERROR(AliasHeight(name, 0).status());
  }
  for (auto& [use, pos] : alias_uses_) use->target = location_aliases_.find(use->text)->second.location;
  alias_uses_.clear();
  return OkStatus();
}

}  // namespace plugrt::shlo::internal

namespace plugrt::shlo {

StatusOr<SourceLocationRef> ParseSourceLocation(std::string_view text) {
  internal::Parser parser(text, "<location>", 1);
  PLUGRT_ASSIGN_OR_RETURN(SourceLocationRef loc, parser.ParseLocationInstance());
  if (!parser.lex().AtEnd()) return parser.lex().Expected("the end of the location");
  PLUGRT_RETURN_IF_ERROR(parser.ResolveLocationAliases());
  return loc;
}

}  // namespace plugrt::shlo
