#include "eager/function_library.h"

#include <cctype>
#include <set>

#include "common/trim.h"

namespace plugrt::eager {

namespace {

bool IsSymbolChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

// A cursor over the text that skips comments and strings when matching
// brackets; errors name the byte offset.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  size_t pos = 0;
  bool AtEnd() const { return pos >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos]; }
  bool StartsWith(std::string_view s) const { return text_.substr(pos).starts_with(s); }

  void SkipSpace() {
    while (!AtEnd()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos]))) {
        ++pos;
      } else if (StartsWith("//")) {
        while (!AtEnd() && text_[pos] != '\n') ++pos;
      } else {
        break;
      }
    }
  }

  // From an opening bracket at `pos`, moves past its match. '<' counts only
  // where it is a type's bracket ("->" is not a closing one).
  Status SkipBalanced() {
    const size_t start = pos;
    std::string stack;
    do {
      if (AtEnd()) return InvalidArgument("unbalanced '", text_[start], "' at byte ", start);
      char c = text_[pos];
      if (c == '"') {
        for (++pos; !AtEnd() && text_[pos] != '"'; ++pos) {
          if (text_[pos] == '\\') ++pos;
        }
      } else if (StartsWith("//")) {
        while (!AtEnd() && text_[pos] != '\n') ++pos;
        continue;
      } else if (c == '(' || c == '[' || c == '{' || c == '<') {
        stack.push_back(c);
      } else if (c == '>' && pos > 0 && text_[pos - 1] == '-') {
        // an arrow
      } else if (c == ')' || c == ']' || c == '}' || c == '>') {
        const char open = c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : '<';
        if (stack.empty() || stack.back() != open) {
          return InvalidArgument("unexpected '", c, "' at byte ", pos);
        }
        stack.pop_back();
      }
      ++pos;
    } while (!stack.empty());
    return OkStatus();
  }

  std::string_view Slice(size_t from, size_t to) const { return text_.substr(from, to - from); }

 private:
  std::string_view text_;
};

// Splits at commas outside brackets.
StatusOr<std::vector<std::string_view>> SplitTopLevel(std::string_view list) {
  std::vector<std::string_view> parts;
  Scanner s(list);
  size_t start = 0;
  while (!s.AtEnd()) {
    char c = s.Peek();
    if (c == '(' || c == '[' || c == '{' || c == '<' || c == '"') {
      if (c == '"') {
        // A string outside brackets: skip it like a bracketed group.
        for (++s.pos; !s.AtEnd() && s.Peek() != '"'; ++s.pos) {
          if (s.Peek() == '\\') ++s.pos;
        }
        ++s.pos;
        continue;
      }
      PLUGRT_RETURN_IF_ERROR(s.SkipBalanced());
      continue;
    }
    if (c == ',') {
      parts.push_back(TrimSpace(s.Slice(start, s.pos)));
      start = s.pos + 1;
    }
    ++s.pos;
  }
  std::string_view last = TrimSpace(s.Slice(start, s.pos));
  if (!last.empty() || !parts.empty()) parts.push_back(last);
  return parts;
}

// The type of "TYPE {attrs} loc(...)": what comes before the attributes.
std::string TypeOf(std::string_view item) {
  Scanner s(item);
  while (!s.AtEnd()) {
    char c = s.Peek();
    if (c == '<' || c == '(' || c == '[') {
      if (!s.SkipBalanced().ok()) break;
      continue;
    }
    if (c == '{' || s.StartsWith(" loc(") || s.StartsWith("loc(")) break;
    ++s.pos;
  }
  return std::string(TrimSpace(item.substr(0, s.pos)));
}

struct Parsed {
  FunctionSignature signature;
  std::string private_text;
  std::vector<std::string> references;
};

// Parses one func.func whose keyword ends at `s.pos`.
StatusOr<Parsed> ParseFunction(Scanner& s, std::string_view text) {
  Parsed parsed;
  s.SkipSpace();
  for (std::string_view visibility : {"public", "private", "nested"}) {
    if (s.StartsWith(visibility)) {
      s.pos += visibility.size();
      s.SkipSpace();
      break;
    }
  }
  if (s.Peek() != '@') return InvalidArgument("func.func without a @name at byte ", s.pos);
  const size_t name_start = ++s.pos;
  while (!s.AtEnd() && IsSymbolChar(s.Peek())) ++s.pos;
  parsed.signature.name = std::string(s.Slice(name_start, s.pos));
  if (parsed.signature.name.empty()) {
    return InvalidArgument("func.func with an empty or quoted name at byte ", name_start);
  }
  const size_t after_name = s.pos;
  s.SkipSpace();
  if (s.Peek() != '(') {
    return InvalidArgument("@", parsed.signature.name, ": expected '(' at byte ", s.pos);
  }
  const size_t args_start = s.pos;
  PLUGRT_RETURN_IF_ERROR(s.SkipBalanced());
  PLUGRT_ASSIGN_OR_RETURN(auto args, SplitTopLevel(s.Slice(args_start + 1, s.pos - 1)));
  for (std::string_view arg : args) {
    size_t colon = arg.find(':');
    if (colon == std::string_view::npos) {
      return InvalidArgument("@", parsed.signature.name, ": argument '", arg,
                             "' has no type (an external declaration cannot be loaded)");
    }
    parsed.signature.argument_types.push_back(TypeOf(arg.substr(colon + 1)));
  }
  s.SkipSpace();
  if (s.StartsWith("->")) {
    s.pos += 2;
    s.SkipSpace();
    if (s.Peek() == '(') {
      const size_t results_start = s.pos;
      PLUGRT_RETURN_IF_ERROR(s.SkipBalanced());
      PLUGRT_ASSIGN_OR_RETURN(auto results, SplitTopLevel(s.Slice(results_start + 1, s.pos - 1)));
      for (std::string_view r : results) parsed.signature.result_types.push_back(TypeOf(r));
    } else {
      const size_t type_start = s.pos;
      while (!s.AtEnd() && !std::isspace(static_cast<unsigned char>(s.Peek())) &&
             s.Peek() != '{') {
        if (s.Peek() == '<') {
          PLUGRT_RETURN_IF_ERROR(s.SkipBalanced());
        } else {
          ++s.pos;
        }
      }
      parsed.signature.result_types.push_back(std::string(s.Slice(type_start, s.pos)));
    }
    s.SkipSpace();
  }
  if (s.StartsWith("attributes")) {
    s.pos += 10;
    s.SkipSpace();
    if (s.Peek() != '{') return InvalidArgument("expected '{' after 'attributes' at byte ", s.pos);
    PLUGRT_RETURN_IF_ERROR(s.SkipBalanced());
    s.SkipSpace();
  }
  if (s.Peek() != '{') {
    return InvalidArgument("@", parsed.signature.name,
                           ": expected the function body '{' at byte ", s.pos,
                           " (an external declaration cannot be loaded)");
  }
  const size_t body_start = s.pos;
  PLUGRT_RETURN_IF_ERROR(s.SkipBalanced());
  std::string_view body = s.Slice(body_start, s.pos);
  for (size_t at = body.find('@'); at != std::string_view::npos; at = body.find('@', at + 1)) {
    size_t end = at + 1;
    while (end < body.size() && IsSymbolChar(body[end])) ++end;
    if (end > at + 1) parsed.references.emplace_back(body.substr(at + 1, end - at - 1));
  }
  parsed.private_text = "func.func private @" + parsed.signature.name +
                        std::string(text.substr(after_name, s.pos - after_name)) + "\n";
  return parsed;
}

}  // namespace

Status FunctionLibrary::Load(std::string_view text) {
  std::vector<Parsed> found;
  Scanner s(text);
  // Brackets outside the functions (a module around them) must balance too.
  std::string open;
  while (!s.AtEnd()) {
    char c = s.Peek();
    if (c == '(' || c == '[' || c == '{') {
      open.push_back(c);
      ++s.pos;
    } else if (c == ')' || c == ']' || c == '}') {
      const char expected = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (open.empty() || open.back() != expected) {
        return InvalidArgument("LoadFunctions: unexpected '", c, "' at byte ", s.pos);
      }
      open.pop_back();
      ++s.pos;
    } else if (c == '"') {
      const size_t start = s.pos;
      for (++s.pos; !s.AtEnd() && s.Peek() != '"'; ++s.pos) {
        if (s.Peek() == '\\') ++s.pos;
      }
      if (s.AtEnd()) return InvalidArgument("LoadFunctions: unterminated string at byte ", start);
      ++s.pos;
    } else if (s.StartsWith("//")) {
      s.SkipSpace();
    } else if (s.StartsWith("func.func") &&
               (s.pos == 0 || !IsSymbolChar(text[s.pos - 1]))) {
      s.pos += 9;
      PLUGRT_ASSIGN_OR_RETURN(Parsed parsed, ParseFunction(s, text));
      found.push_back(std::move(parsed));
    } else {
      ++s.pos;
    }
  }
  if (!open.empty()) {
    return InvalidArgument("LoadFunctions: '", open.back(), "' is never closed");
  }
  if (found.empty()) return InvalidArgument("LoadFunctions: the text defines no func.func");
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> names;
  for (const Parsed& p : found) {
    const std::string& name = p.signature.name;
    if (name == "main") {
      return InvalidArgument("LoadFunctions: @main is the entry of the programs the context "
                             "builds; give the function another name");
    }
    if (functions_.count(name) > 0 || !names.insert(name).second) {
      return InvalidArgument("LoadFunctions: function @", name, " is already loaded");
    }
  }
  for (Parsed& p : found) {
    std::string name = p.signature.name;
    functions_[name] = Function{std::move(p.signature), std::move(p.private_text),
                                std::move(p.references)};
  }
  return OkStatus();
}

bool FunctionLibrary::Contains(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mu_);
  return functions_.find(name) != functions_.end();
}

StatusOr<FunctionSignature> FunctionLibrary::Signature(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = functions_.find(name);
  if (it == functions_.end()) return NotFound("no function @", name, " is loaded in the context");
  return it->second.signature;
}

std::vector<std::string> FunctionLibrary::Names() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  for (const auto& [name, f] : functions_) names.push_back(name);
  return names;
}

StatusOr<std::string> FunctionLibrary::DefinitionsFor(const std::vector<std::string>& roots) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> seen;
  std::vector<std::string> pending(roots.begin(), roots.end());
  for (const std::string& root : roots) {
    if (functions_.find(root) == functions_.end()) {
      return NotFound("no function @", root, " is loaded in the context");
    }
  }
  while (!pending.empty()) {
    std::string name = std::move(pending.back());
    pending.pop_back();
    auto it = functions_.find(name);
    // Symbols that are not loaded functions (e.g. a custom call target) stay
    // for the compiler to judge.
    if (it == functions_.end() || !seen.insert(name).second) continue;
    for (const std::string& callee : it->second.references) pending.push_back(callee);
  }
  std::string text;
  for (const std::string& name : seen) text += functions_.find(name)->second.private_text;
  return text;
}

}  // namespace plugrt::eager
