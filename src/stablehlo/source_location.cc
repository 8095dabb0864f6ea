#include "stablehlo/source_location.h"

#include <utility>

namespace plugrt::shlo {
namespace {

// Aliases may share subtrees (`fused[#a, #a]` nested n deep names 2^n
// leaves), so walks visit at most this many nodes and then say "...".
constexpr int kMaxVisitedNodes = 512;

const SourceLocation* Resolve(const SourceLocation* loc) {
  // Aliases chain only as deep as the parser let them (it checks depth).
  while (loc != nullptr && loc->kind == SourceLocation::Kind::kAlias) loc = loc->target.get();
  return loc;
}

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '\\';
      out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
      out += kHex[static_cast<unsigned char>(c) & 0xF];
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string Position(const SourceLocation& loc, bool mlir) {
  std::string out = std::to_string(loc.line);
  if (loc.column > 0 || loc.end_line > 0 || loc.end_column > 0) {
    out += ":" + std::to_string(loc.column);
  }
  if (loc.end_line > 0 || loc.end_column > 0) {
    out += mlir ? " to " : "-";
    if (loc.end_line != loc.line || !mlir) out += std::to_string(loc.end_line);
    out += ":" + std::to_string(loc.end_column);
  }
  return out;
}

class Renderer {
 public:
  explicit Renderer(bool mlir) : mlir_(mlir) {}

  std::string Render(const SourceLocation* raw) {
    const SourceLocation* loc = Resolve(raw);
    if (loc == nullptr) return mlir_ ? "unknown" : "";
    if (++visited_ > kMaxVisitedNodes) return mlir_ ? "unknown" : "...";
    switch (loc->kind) {
      case SourceLocation::Kind::kUnknown:
      case SourceLocation::Kind::kAlias:  // unresolved
        return mlir_ ? "unknown" : "";
      case SourceLocation::Kind::kFileLineCol:
        if (mlir_) return Quote(loc->text) + ":" + Position(*loc, true);
        return loc->text + ":" + Position(*loc, false);
      case SourceLocation::Kind::kName: {
        const SourceLocation* child = loc->children.empty() ? nullptr : loc->children[0].get();
        if (mlir_) {
          std::string out = Quote(loc->text);
          if (child != nullptr) out += "(" + Render(child) + ")";
          return out;
        }
        // JAX names a file position after the function holding it ("x.py:3:4
        // in f") and a whole call stack after the op ("jit(f)/add at ...").
        const SourceLocation* resolved = Resolve(child);
        std::string inner = child != nullptr ? Render(child) : "";
        if (inner.empty()) return loc->text;
        if (resolved->kind == SourceLocation::Kind::kFileLineCol) return inner + " in " + loc->text;
        return loc->text + " at " + inner;
      }
      case SourceLocation::Kind::kCallSite: {
        std::string callee = loc->children.size() > 0 ? Render(loc->children[0].get()) : "";
        std::string caller = loc->children.size() > 1 ? Render(loc->children[1].get()) : "";
        if (mlir_) return "callsite(" + callee + " at " + caller + ")";
        if (caller.empty()) return callee;
        if (callee.empty()) return "called from " + caller;
        return callee + ", called from " + caller;
      }
      case SourceLocation::Kind::kFused: {
        std::string out;
        if (mlir_) {
          out = "fused";
          if (!loc->text.empty()) out += "<" + loc->text + ">";
          out += "[";
        }
        bool first = true;
        for (const SourceLocationRef& part : loc->children) {
          std::string text = Render(part.get());
          if (text.empty()) continue;
          if (!first) out += ", ";
          out += text;
          first = false;
        }
        if (mlir_) {
          if (first) out += "unknown";  // MLIR needs at least one part
          out += "]";
        }
        return out;
      }
    }
    return "";
  }

 private:
  bool mlir_;
  int visited_ = 0;
};

const SourceLocation* FindFileLineCol(const SourceLocation* raw, int& budget) {
  const SourceLocation* loc = Resolve(raw);
  if (loc == nullptr || --budget < 0) return nullptr;
  if (loc->kind == SourceLocation::Kind::kFileLineCol) return loc;
  for (const SourceLocationRef& child : loc->children) {
    if (const SourceLocation* found = FindFileLineCol(child.get(), budget)) return found;
  }
  return nullptr;
}

SourceLocationRef Make(SourceLocation loc) {
  return std::make_shared<const SourceLocation>(std::move(loc));
}

}  // namespace

SourceLocationRef SourceLocation::Unknown() { return Make(SourceLocation{}); }

SourceLocationRef SourceLocation::FileLineCol(std::string file, int64_t line, int64_t column,
                                              int64_t end_line, int64_t end_column) {
  SourceLocation loc;
  loc.kind = Kind::kFileLineCol;
  loc.text = std::move(file);
  loc.line = line;
  loc.column = column;
  loc.end_line = end_line;
  loc.end_column = end_column;
  return Make(std::move(loc));
}

SourceLocationRef SourceLocation::Name(std::string name, SourceLocationRef child) {
  SourceLocation loc;
  loc.kind = Kind::kName;
  loc.text = std::move(name);
  if (child) loc.children.push_back(std::move(child));
  return Make(std::move(loc));
}

SourceLocationRef SourceLocation::CallSite(SourceLocationRef callee, SourceLocationRef caller) {
  SourceLocation loc;
  loc.kind = Kind::kCallSite;
  loc.children = {callee ? std::move(callee) : Unknown(), caller ? std::move(caller) : Unknown()};
  return Make(std::move(loc));
}

SourceLocationRef SourceLocation::Fused(std::vector<SourceLocationRef> parts,
                                        std::string metadata) {
  SourceLocation loc;
  loc.kind = Kind::kFused;
  loc.text = std::move(metadata);
  loc.children = std::move(parts);
  return Make(std::move(loc));
}

std::string SourceLocation::ToString() const { return Renderer(false).Render(this); }

std::string SourceLocation::ToMlir() const { return Renderer(true).Render(this); }

const SourceLocation* SourceLocation::FirstFileLineCol() const {
  int budget = kMaxVisitedNodes;
  return FindFileLineCol(this, budget);
}

}  // namespace plugrt::shlo
