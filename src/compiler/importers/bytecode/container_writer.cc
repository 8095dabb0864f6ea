// plugrt StableHLO bytecode: the MLIR bytecode container as upstream MLIR's
// "MLIR Bytecode Format" document describes it, written in the format
// version a StableHLO release reads: sections in the order upstream writes
// them (dialects, attribute/type offsets, attributes and types, IR,
// resources, strings, properties); isolated regions as nested IR sections
// from version 2 (lazy loading); block-argument locations elided from
// version 4; VHLO op attributes as native properties (in the op table's
// order) from version 5, in the op's attribute dictionary before.
//
// Size: the mirror of container.cc: one encoder whose sections refer to
// each other's tables (strings, dialects, attribute offsets), written in
// the order upstream writes them.
#include "compiler/importers/bytecode/container_writer.h"

#include "compiler/importers/bytecode/op_properties.h"

#include <algorithm>
#include <cctype>
#include <bit>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "compiler/importers/bytecode/bytecode_format.h"
#include "compiler/importers/bytecode/encoding_reader.h"
#include "compiler/importers/bytecode/encoding_writer.h"
#include "compiler/importers/bytecode/op_properties.h"
#include "compiler/importers/bytecode/vhlo_codes.h"
#include "compiler/importers/bytecode/vhlo_ops.h"
#include "stablehlo/quant_type.h"

namespace plugrt::shlo::bytecode {
namespace {

constexpr size_t kBuiltin = 0;
constexpr size_t kVhlo = 1;

// An APInt of `bits` width as the bytecode writes it: one byte up to 8
// bits, else the value sign-extended from its width as a signed varint.
void WriteAPInt(EncodingWriter& w, uint64_t value, int bits) {
  if (bits <= 8) {
    w.WriteByte(static_cast<uint8_t>(value));
    return;
  }
  if (bits < 64) {
    uint64_t sign = uint64_t{1} << (bits - 1);
    value &= (sign << 1) - 1;
    value = (value ^ sign) - sign;
  }
  w.WriteSignedVarInt(static_cast<int64_t>(value));
}

class Encoder {
 public:
  Encoder(VhloVersion target) : target_(target), version_(BytecodeVersionFor(target)) {}

  StatusOr<std::string> Run(const BcFile& file);

 private:
  struct Entry {
    size_t dialect;
    bool custom;
    std::string bytes;
  };

  // The dialect of an attribute spelled `text`: "#name.rest" names dialect
  // "name" (numbered after builtin and vhlo); anything else is builtin's.
  size_t TextDialect(std::string_view text) {
    if (text.size() < 3 || text[0] != '#') return kBuiltin;
    size_t end = 1;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '_')) {
      ++end;
    }
    if (end == 1 || end >= text.size() || text[end] != '.') return kBuiltin;
    const std::string_view name = text.substr(1, end - 1);
    if (name == "builtin") return kBuiltin;
    if (name == "vhlo") return kVhlo;
    for (size_t i = 0; i < extra_dialects_.size(); ++i) {
      if (extra_dialects_[i] == name) return 2 + i;
    }
    extra_dialects_.emplace_back(name);
    return 1 + extra_dialects_.size();
  }

  uint64_t String(std::string_view s) {
    auto [it, inserted] = string_index_.emplace(std::string(s), strings_.size());
    if (inserted) strings_.emplace_back(s);
    return it->second;
  }
  uint64_t AddEntry(std::vector<Entry>& table, std::map<std::tuple<size_t, bool, std::string>, uint64_t>& index,
                    Entry entry) {
    auto key = std::make_tuple(entry.dialect, entry.custom, entry.bytes);
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    uint64_t i = table.size();
    table.push_back(std::move(entry));
    index.emplace(std::move(key), i);
    return i;
  }
  Status CheckAttrVersion(uint64_t code) {
    if (VhloAttrMinVersion(code) <= target_) return OkStatus();
    return InvalidArgument("writing StableHLO ", target_.ToString(), ": ", op_context_,
                           " uses ", VhloAttrName(code), ", which first exists in StableHLO ",
                           VhloAttrMinVersion(code).ToString());
  }
  Status CheckTypeVersion(uint64_t code) {
    if (VhloTypeMinVersion(code) <= target_) return OkStatus();
    return InvalidArgument("writing StableHLO ", target_.ToString(), ": ", op_context_,
                           " uses ", VhloTypeName(code), ", which first exists in StableHLO ",
                           VhloTypeMinVersion(code).ToString());
  }

  StatusOr<uint64_t> Attr(const BcAttr* a);
  StatusOr<uint64_t> BuiltinAttr(const BcAttr* a, EncodingWriter& w);
  Status VhloAttr(const BcAttr* a, EncodingWriter& w);
  StatusOr<uint64_t> Type(const BcType* t);
  Status TypeList(const std::vector<const BcType*>& types, EncodingWriter& w);
  StatusOr<uint64_t> StringAttr(std::string_view s, bool builtin);
  StatusOr<uint64_t> SortedDict(const std::vector<std::pair<std::string, const BcAttr*>>& entries,
                                bool builtin);

  void CollectOpNames(const BcOp& op);
  Status Op(const BcOp& op, EncodingWriter& w);
  Status Region(const BcRegion& region, EncodingWriter& w);
  Status Block(const BcBlock& block, EncodingWriter& w);
  void DefineValue(int64_t id) {
    Scope& scope = scopes_.back();
    scope.index.emplace(id, scope.next.back()++);
  }
  StatusOr<uint64_t> ValueIndex(int64_t id) {
    auto it = scopes_.back().index.find(id);
    if (it == scopes_.back().index.end()) {
      return Internal("bytecode writer: ", op_context_, " uses a value not defined before it");
    }
    return it->second;
  }

  VhloVersion target_;
  uint64_t version_;
  std::string op_context_ = "the module";
  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint64_t> string_index_;
  std::vector<Entry> attrs_, types_;
  std::map<std::tuple<size_t, bool, std::string>, uint64_t> attr_index_, type_index_;
  std::unordered_map<const BcAttr*, uint64_t> attr_memo_;
  std::unordered_map<const BcType*, uint64_t> type_memo_;
  std::vector<std::pair<size_t, std::string>> op_names_;  // dialect, name
  std::vector<std::string> extra_dialects_;  // after builtin and vhlo: text attributes' only
  std::map<std::string, uint64_t> op_name_index_;
  std::vector<std::string> properties_;

  // Value numbering as the reader resolves it: each isolated region starts
  // a scope; a region reserves numbers for its own values (block arguments
  // and results of its ops) after those reserved around it, its nested
  // regions number theirs after that (reusing the numbers once they close).
  struct Scope {
    std::unordered_map<int64_t, uint64_t> index;
    uint64_t end = 0;               // numbers reserved so far
    std::vector<uint64_t> next;     // next number per open region
  };
  std::vector<Scope> scopes_;
};

// ------------------------------------------------------------ attributes

StatusOr<uint64_t> Encoder::StringAttr(std::string_view s, bool builtin) {
  EncodingWriter w;
  if (builtin) {
    w.WriteVarInt(kBuiltinStringAttr);
    w.WriteVarInt(String(s));
    return AddEntry(attrs_, attr_index_, {kBuiltin, true, w.Take()});
  }
  w.WriteVarInt(kVhloStringAttr);
  w.WriteVarInt(String(s));
  return AddEntry(attrs_, attr_index_, {kVhlo, true, w.Take()});
}

StatusOr<uint64_t> Encoder::SortedDict(
    const std::vector<std::pair<std::string, const BcAttr*>>& entries, bool builtin) {
  std::vector<std::pair<std::string, const BcAttr*>> sorted = entries;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  EncodingWriter w;
  w.WriteVarInt(builtin ? uint64_t{kBuiltinDictionaryAttr} : uint64_t{kVhloDictionaryAttr});
  w.WriteVarInt(sorted.size());
  for (const auto& [k, v] : sorted) {
    PLUGRT_ASSIGN_OR_RETURN(uint64_t key, StringAttr(k, builtin));
    PLUGRT_ASSIGN_OR_RETURN(uint64_t value, Attr(v));
    w.WriteVarInt(key);
    w.WriteVarInt(value);
  }
  return AddEntry(attrs_, attr_index_, {builtin ? kBuiltin : kVhlo, true, w.Take()});
}

StatusOr<uint64_t> Encoder::Attr(const BcAttr* a) {
  auto memo = attr_memo_.find(a);
  if (memo != attr_memo_.end()) return memo->second;
  EncodingWriter w;
  uint64_t index = 0;
  if (a->kind == BcAttr::Kind::kText) {
    // An attribute VHLO has no encoding for: its MLIR spelling, under its
    // own dialect as MLIR writes it (#sdy.op_sharding_rule<...>: "sdy").
    w.WriteNullTerminated(a->str);
    index = AddEntry(attrs_, attr_index_, {TextDialect(a->str), false, w.Take()});
  } else if (a->kind == BcAttr::Kind::kDictionary) {
    std::vector<std::pair<std::string, const BcAttr*>> entries;
    for (const auto& [k, v] : a->entries) entries.emplace_back(k->str, v);
    PLUGRT_ASSIGN_OR_RETURN(index, SortedDict(entries, a->builtin));
  } else if (a->builtin) {
    PLUGRT_ASSIGN_OR_RETURN(index, BuiltinAttr(a, w));
  } else {
    PLUGRT_RETURN_IF_ERROR(VhloAttr(a, w));
    index = AddEntry(attrs_, attr_index_, {kVhlo, true, w.Take()});
  }
  attr_memo_.emplace(a, index);
  return index;
}

StatusOr<uint64_t> Encoder::BuiltinAttr(const BcAttr* a, EncodingWriter& w) {
  switch (a->kind) {
    case BcAttr::Kind::kString:
      return StringAttr(a->str, true);
    case BcAttr::Kind::kUnit:
      w.WriteVarInt(kBuiltinUnitAttr);
      break;
    case BcAttr::Kind::kSymbolRef: {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t root, StringAttr(a->str, true));
      w.WriteVarInt(kBuiltinFlatSymbolRefAttr);
      w.WriteVarInt(root);
      break;
    }
    case BcAttr::Kind::kLocation: {
      if (a->family == "file") {
        PLUGRT_ASSIGN_OR_RETURN(uint64_t file, StringAttr(a->str, true));
        w.WriteVarInt(kBuiltinFileLineColLoc);
        w.WriteVarInt(file);
        w.WriteVarInt(static_cast<uint64_t>(std::max<int64_t>(0, a->ints[0])));
        w.WriteVarInt(static_cast<uint64_t>(std::max<int64_t>(0, a->ints[1])));
      } else if (a->family == "name") {
        PLUGRT_ASSIGN_OR_RETURN(uint64_t name, StringAttr(a->str, true));
        PLUGRT_ASSIGN_OR_RETURN(uint64_t child, Attr(a->elements[0]));
        w.WriteVarInt(kBuiltinNameLoc);
        w.WriteVarInt(name);
        w.WriteVarInt(child);
      } else if (a->family == "callsite") {
        PLUGRT_ASSIGN_OR_RETURN(uint64_t callee, Attr(a->elements[0]));
        PLUGRT_ASSIGN_OR_RETURN(uint64_t caller, Attr(a->elements[1]));
        w.WriteVarInt(kBuiltinCallSiteLoc);
        w.WriteVarInt(callee);
        w.WriteVarInt(caller);
      } else if (a->family == "fused") {
        std::vector<uint64_t> parts;
        for (const BcAttr* p : a->elements) {
          PLUGRT_ASSIGN_OR_RETURN(uint64_t i, Attr(p));
          parts.push_back(i);
        }
        w.WriteVarInt(kBuiltinFusedLoc);
        w.WriteVarInt(parts.size());
        for (uint64_t i : parts) w.WriteVarInt(i);
      } else {
        w.WriteVarInt(kBuiltinUnknownLoc);
      }
      break;
    }
    default:
      return Internal("bytecode writer: builtin attribute kind ", static_cast<int>(a->kind));
  }
  return AddEntry(attrs_, attr_index_, {kBuiltin, true, w.Take()});
}

Status Encoder::VhloAttr(const BcAttr* a, EncodingWriter& w) {
  switch (a->kind) {
    case BcAttr::Kind::kArray: {
      std::vector<uint64_t> elements;
      for (const BcAttr* e : a->elements) {
        PLUGRT_ASSIGN_OR_RETURN(uint64_t i, Attr(e));
        elements.push_back(i);
      }
      w.WriteVarInt(kVhloArrayAttr);
      w.WriteVarInt(elements.size());
      for (uint64_t i : elements) w.WriteVarInt(i);
      return OkStatus();
    }
    case BcAttr::Kind::kBool:
      w.WriteVarInt(kVhloBoolAttr);
      w.WriteVarInt(a->bool_value ? 1 : 0);
      return OkStatus();
    case BcAttr::Kind::kEnum: {
      const VhloEnumInfo* info = FindVhloEnumByFamily(a->family);
      std::optional<uint64_t> v = info ? VhloEnumValueNumber(*info, a->str) : std::nullopt;
      if (!v) {
        return InvalidArgument("writing StableHLO ", target_.ToString(), ": ", op_context_,
                               ": #stablehlo<", a->family, " ", a->str, "> has no VHLO form");
      }
      PLUGRT_RETURN_IF_ERROR(CheckAttrVersion(info->code));
      w.WriteVarInt(info->code);
      w.WriteVarInt(*v);
      return OkStatus();
    }
    case BcAttr::Kind::kFloat:
    case BcAttr::Kind::kInteger: {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t type, Type(a->type));
      w.WriteVarInt(a->kind == BcAttr::Kind::kFloat ? kVhloFloatAttr : kVhloIntegerAttr);
      w.WriteVarInt(type);
      WriteAPInt(w, a->kind == BcAttr::Kind::kFloat ? a->bits : static_cast<uint64_t>(a->int_value),
                 a->type->bits);
      return OkStatus();
    }
    case BcAttr::Kind::kOutputOperandAlias:
      w.WriteVarInt(kVhloOutputOperandAliasAttr);
      w.WriteVarInt(a->ints.size());
      for (int64_t v : a->ints) w.WriteSignedVarInt(v);
      w.WriteSignedVarInt(a->int_value);
      w.WriteVarInt(a->ints2.size());
      for (int64_t v : a->ints2) w.WriteSignedVarInt(v);
      return OkStatus();
    case BcAttr::Kind::kString:
      w.WriteVarInt(kVhloStringAttr);
      w.WriteVarInt(String(a->str));
      return OkStatus();
    case BcAttr::Kind::kTensor: {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t type, Type(a->type));
      w.WriteVarInt(kVhloTensorAttr);
      w.WriteVarInt(type);
      std::string data = a->data;
      int64_t count = 1;
      for (int64_t d : a->type->dims) count *= d;
      // Equal elements are a splat: one element, as MLIR holds them.
      auto storage = [](const BcType* e) -> size_t {
        if (e == nullptr || e->kind != BcType::Kind::kElement) return 0;
        return e->bits <= 8 ? 1 : e->bits <= 16 ? 2 : e->bits <= 32 ? 4 : 8;
      };
      const BcType* element = a->type->element;
      size_t width = storage(element);
      if (element != nullptr && element->kind == BcType::Kind::kComplex) {
        width = 2 * storage(element->element);
      }
      if (count > 1 && width > 0 && data.size() == width * static_cast<size_t>(count)) {
        bool equal = true;
        for (size_t i = width; equal && i < data.size(); i += width) {
          equal = data.compare(i, width, data, 0, width) == 0;
        }
        if (equal) data.resize(width);
      }
      if (a->type->element != nullptr && a->type->element->text == "i1") {
        // Booleans are bit-packed; a splat of several is one byte 0x00 or
        // 0xFF (a packed byte of up to 8 elements would be ambiguous).
        int64_t n = 1;
        for (int64_t d : a->type->dims) n *= d;
        if (data.size() == 1 && n > 1) {
          data = std::string(1, data[0] ? '\xFF' : '\0');
        } else {
          std::string packed(static_cast<size_t>((n + 7) / 8), '\0');
          for (int64_t i = 0; i < n && static_cast<size_t>(i) < data.size(); ++i) {
            if (data[static_cast<size_t>(i)]) packed[static_cast<size_t>(i / 8)] |= static_cast<char>(1 << (i % 8));
          }
          data = std::move(packed);
        }
      }
      w.WriteVarInt(data.size());
      w.WriteBytes(data);
      return OkStatus();
    }
    case BcAttr::Kind::kType: {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t type, Type(a->type));
      w.WriteVarInt(kVhloTypeAttr);
      w.WriteVarInt(type);
      return OkStatus();
    }
    case BcAttr::Kind::kResultAccuracy: {
      PLUGRT_RETURN_IF_ERROR(CheckAttrVersion(kVhloResultAccuracyAttr));
      PLUGRT_ASSIGN_OR_RETURN(uint64_t mode, Attr(a->mode));
      w.WriteVarInt(kVhloResultAccuracyAttr);
      WriteAPInt(w, a->atol_bits, 64);
      WriteAPInt(w, a->rtol_bits, 64);
      w.WriteSignedVarInt(a->int_value);
      w.WriteVarInt(mode);
      return OkStatus();
    }
    case BcAttr::Kind::kSdy: {
      // Collectives over mesh axes (to_vhlo.cc's MeshAttr).
      std::vector<uint64_t> parts;
      for (const BcAttr* e : a->elements) {
        PLUGRT_ASSIGN_OR_RETURN(uint64_t i, Attr(e));
        parts.push_back(i);
      }
      uint64_t code = a->family == "sub_axis_info"             ? kVhloSubAxisInfoAttr
                      : a->family == "axis_ref"                ? kVhloAxisRefAttr
                      : a->family == "replica_group_mesh_axes" ? kVhloReplicaGroupMeshAxesAttr
                      : a->family == "mesh_axis"               ? kVhloMeshAxisAttr
                                                               : kVhloMeshAttr;
      PLUGRT_RETURN_IF_ERROR(CheckAttrVersion(code));
      w.WriteVarInt(code);
      if (code == kVhloSubAxisInfoAttr) {
        w.WriteSignedVarInt(a->ints.at(0));
        w.WriteSignedVarInt(a->ints.at(1));
      } else if (code == kVhloAxisRefAttr) {
        w.WriteVarInt(parts.at(0));
        w.WriteVarInt(parts.size() > 1 ? 1 : 0);
        if (parts.size() > 1) w.WriteVarInt(parts[1]);
      } else if (code == kVhloReplicaGroupMeshAxesAttr) {
        w.WriteVarInt(parts.at(0));
        w.WriteVarInt(parts.at(1));
      } else if (code == kVhloMeshAxisAttr) {
        w.WriteVarInt(parts.at(0));
        w.WriteSignedVarInt(a->int_value);
      } else {
        w.WriteVarInt(parts.at(0));
        if (parts.size() > 1) {
          w.WriteVarIntWithFlag(parts[1], true);
        } else {
          w.WriteVarInt(0);
        }
      }
      return OkStatus();
    }
    default:
      return InvalidArgument("writing StableHLO ", target_.ToString(), ": ", op_context_,
                             ": attribute kind ", static_cast<int>(a->kind), " has no VHLO form");
  }
}

// ------------------------------------------------------------------ types

Status Encoder::TypeList(const std::vector<const BcType*>& types, EncodingWriter& w) {
  std::vector<uint64_t> indices;
  for (const BcType* t : types) {
    PLUGRT_ASSIGN_OR_RETURN(uint64_t i, Type(t));
    indices.push_back(i);
  }
  w.WriteVarInt(indices.size());
  for (uint64_t i : indices) w.WriteVarInt(i);
  return OkStatus();
}

StatusOr<uint64_t> Encoder::Type(const BcType* t) {
  auto memo = type_memo_.find(t);
  if (memo != type_memo_.end()) return memo->second;
  EncodingWriter w;
  auto kind = [&](uint64_t code) -> Status {
    PLUGRT_RETURN_IF_ERROR(CheckTypeVersion(code));
    w.WriteVarInt(code);
    return OkStatus();
  };
  switch (t->kind) {
    case BcType::Kind::kElement: {
      const VhloElementInfo* e = FindVhloElementByName(t->text);
      if (e == nullptr) {
        return InvalidArgument("writing StableHLO ", target_.ToString(), ": ", op_context_,
                               ": element type ", t->text, " has no VHLO form");
      }
      PLUGRT_RETURN_IF_ERROR(kind(e->code));
      break;
    }
    case BcType::Kind::kComplex: {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t element, Type(t->element));
      PLUGRT_RETURN_IF_ERROR(kind(kVhloComplexType));
      w.WriteVarInt(element);
      break;
    }
    case BcType::Kind::kTensor:
    case BcType::Kind::kBuffer: {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t element, Type(t->element));
      PLUGRT_RETURN_IF_ERROR(
          kind(t->kind == BcType::Kind::kTensor ? kVhloRankedTensorType : kVhloRankedBufferType));
      w.WriteVarInt(t->dims.size());
      for (int64_t d : t->dims) w.WriteSignedVarInt(d);
      w.WriteVarInt(element);
      break;
    }
    case BcType::Kind::kUnrankedTensor: {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t element, Type(t->element));
      PLUGRT_RETURN_IF_ERROR(kind(kVhloUnrankedTensorType));
      w.WriteVarInt(element);
      break;
    }
    case BcType::Kind::kFunction: {
      EncodingWriter lists;
      PLUGRT_RETURN_IF_ERROR(TypeList(t->types, lists));
      PLUGRT_RETURN_IF_ERROR(TypeList(t->results, lists));
      PLUGRT_RETURN_IF_ERROR(kind(kVhloFunctionType));
      w.WriteBytes(lists.bytes());
      break;
    }
    case BcType::Kind::kTuple:
    case BcType::Kind::kFuture: {
      EncodingWriter list;
      PLUGRT_RETURN_IF_ERROR(TypeList(t->types, list));
      PLUGRT_RETURN_IF_ERROR(kind(t->kind == BcType::Kind::kTuple ? kVhloTupleType : kVhloFutureType));
      w.WriteBytes(list.bytes());
      break;
    }
    case BcType::Kind::kToken:
      PLUGRT_RETURN_IF_ERROR(kind(kVhloTokenType));
      break;
    case BcType::Kind::kNone:
      PLUGRT_RETURN_IF_ERROR(kind(kVhloNoneType));
      break;
    case BcType::Kind::kText:
      if (t->text != "!shape.witness") {
        return InvalidArgument("writing StableHLO ", target_.ToString(), ": ", op_context_,
                               ": type ", t->text, " has no VHLO form");
      }
      PLUGRT_RETURN_IF_ERROR(kind(kVhloWitnessType));
      break;
    case BcType::Kind::kQuantized: {
      // "!quant.uniform<" body ">"
      std::string_view body = t->text;
      body.remove_prefix(std::string_view("!quant.uniform<").size());
      body.remove_suffix(1);
      size_t offset = 0;
      PLUGRT_ASSIGN_OR_RETURN(UniformQuantParams q, ParseQuantParamsBody(body, &offset));
      // The storage type is signless; the flags say whether it is signed.
      BcType storage, expressed;
      storage.text = StrCat("i", BitWidth(q.storage));
      storage.bits = BitWidth(q.storage);
      expressed.text = std::string(ElementTypeName(q.expressed));
      PLUGRT_ASSIGN_OR_RETURN(uint64_t storage_index, Type(&storage));
      PLUGRT_ASSIGN_OR_RETURN(uint64_t expressed_index, Type(&expressed));
      type_memo_.erase(&storage);
      type_memo_.erase(&expressed);
      PLUGRT_RETURN_IF_ERROR(kind(q.per_axis() ? kVhloQuantizedPerAxisType : kVhloQuantizedType));
      w.WriteVarInt(IsSignedInteger(q.storage) ? 1 : 0);
      w.WriteVarInt(storage_index);
      w.WriteVarInt(expressed_index);
      if (q.per_axis()) {
        w.WriteVarInt(static_cast<uint64_t>(q.quantized_dimension));
        w.WriteSignedVarInt(q.storage_min);
        w.WriteSignedVarInt(q.storage_max);
        w.WriteVarInt(q.scales.size());
        for (double s : q.scales) WriteAPInt(w, std::bit_cast<uint64_t>(s), 64);
        w.WriteVarInt(q.zero_points.size());
        for (int64_t z : q.zero_points) w.WriteSignedVarInt(z);
      } else {
        WriteAPInt(w, std::bit_cast<uint64_t>(q.scales.empty() ? 1.0 : q.scales[0]), 64);
        w.WriteSignedVarInt(q.zero_points.empty() ? 0 : q.zero_points[0]);
        w.WriteSignedVarInt(q.storage_min);
        w.WriteSignedVarInt(q.storage_max);
      }
      break;
    }
  }
  uint64_t index = AddEntry(types_, type_index_, {kVhlo, true, w.Take()});
  type_memo_.emplace(t, index);
  return index;
}

// -------------------------------------------------------------------- IR

// Whether no op in `op`'s regions uses a value defined outside them: then
// the regions are written as isolated (their own value numbering; a nested
// section a reader may load lazily), as upstream's writer decides it.
void CollectValues(const BcOp& op, std::unordered_set<int64_t>* defined,
                   std::vector<int64_t>* used) {
  for (const BcRegion& r : op.regions) {
    for (const BcBlock& b : r.blocks) {
      defined->insert(b.arg_ids.begin(), b.arg_ids.end());
      for (const auto& child : b.ops) {
        defined->insert(child->result_ids.begin(), child->result_ids.end());
        used->insert(used->end(), child->operand_ids.begin(), child->operand_ids.end());
        CollectValues(*child, defined, used);
      }
    }
  }
}

bool IsolatedFromAbove(const BcOp& op) {
  std::unordered_set<int64_t> defined;
  std::vector<int64_t> used;
  CollectValues(op, &defined, &used);
  for (int64_t id : used) {
    if (!defined.count(id)) return false;
  }
  return true;
}

void Encoder::CollectOpNames(const BcOp& op) {
  size_t dot = op.name.find('.');
  std::string dialect = op.name.substr(0, dot);
  std::string name = op.name.substr(dot + 1);
  if (!op_name_index_.count(op.name)) {
    op_name_index_.emplace(op.name, 0);
    op_names_.emplace_back(dialect == "builtin" ? kBuiltin : kVhlo, name);
  }
  for (const BcRegion& r : op.regions) {
    for (const BcBlock& b : r.blocks) {
      for (const auto& child : b.ops) CollectOpNames(*child);
    }
  }
}

Status Encoder::Block(const BcBlock& block, EncodingWriter& w) {
  bool has_args = !block.arg_ids.empty();
  w.WriteVarIntWithFlag(block.ops.size(), has_args);
  if (has_args) {
    w.WriteVarInt(block.arg_ids.size());
    for (size_t i = 0; i < block.arg_ids.size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t type, Type(block.arg_types[i]));
      if (version_ >= kVersionElideBlockArgLoc) {
        w.WriteVarIntWithFlag(type, false);
      } else {
        BcAttr unknown;
        unknown.kind = BcAttr::Kind::kLocation;
        unknown.builtin = true;
        unknown.family = "unknown";
        PLUGRT_ASSIGN_OR_RETURN(uint64_t loc, Attr(&unknown));
        attr_memo_.erase(&unknown);
        w.WriteVarInt(type);
        w.WriteVarInt(loc);
      }
      DefineValue(block.arg_ids[i]);
    }
    if (version_ >= kVersionUseListOrdering) w.WriteByte(0);  // no use-list orders
  }
  for (const auto& op : block.ops) PLUGRT_RETURN_IF_ERROR(Op(*op, w));
  return OkStatus();
}

Status Encoder::Region(const BcRegion& region, EncodingWriter& w) {
  w.WriteVarInt(region.blocks.size());
  if (region.blocks.empty()) return OkStatus();
  uint64_t own = 0;
  for (const BcBlock& b : region.blocks) {
    own += b.arg_ids.size();
    for (const auto& op : b.ops) own += op->result_ids.size();
  }
  w.WriteVarInt(own);
  Scope& scope = scopes_.back();
  uint64_t first = scope.end;
  scope.end += own;
  scope.next.push_back(first);
  for (const BcBlock& b : region.blocks) PLUGRT_RETURN_IF_ERROR(Block(b, w));
  // Values of this region go out of scope; nested siblings reuse numbers.
  Scope& after = scopes_.back();
  for (auto it = after.index.begin(); it != after.index.end();) {
    it = it->second >= first ? after.index.erase(it) : std::next(it);
  }
  after.end = first;
  after.next.pop_back();
  return OkStatus();
}

Status Encoder::Op(const BcOp& op, EncodingWriter& w) {
  std::string saved_context = op_context_;
  op_context_ = op.name;
  // VHLO ops by their VHLO table, others (builtin.module, and func, sdy or
  // the HLO dialects when a test writes them directly) by the property
  // table.
  const bool is_vhlo = op.name.starts_with("vhlo.");
  const VhloOpInfo* info = is_vhlo ? FindVhloOp(op.name.substr(5)) : nullptr;
  const OpProperties* row = is_vhlo ? nullptr : FindOpProperties(op.name);
  if (is_vhlo && info == nullptr) return Internal("bytecode writer: no table entry for ", op.name);
  auto is_property = [&](const std::string& n) {
    if (row != nullptr) return row->Has(n);
    if (info == nullptr) return false;
    for (std::string_view p : info->attributes) {
      if (p == n) return true;
    }
    return false;
  };
  const bool native = version_ >= kVersionNativeProperties;
  std::vector<std::pair<std::string, const BcAttr*>> dict;
  for (const auto& [n, v] : op.attributes) {
    if (!native || !is_property(n)) dict.emplace_back(n, v);
  }
  uint8_t mask = 0;
  if (!dict.empty()) mask |= kHasAttrs;
  const bool has_properties =
      native && (row != nullptr ? !row->spec.empty() : info != nullptr && !info->attributes[0].empty());
  if (has_properties) mask |= kHasProperties;
  if (!op.result_types.empty()) mask |= kHasResults;
  if (!op.operand_ids.empty()) mask |= kHasOperands;
  if (!op.regions.empty()) mask |= kHasInlineRegions;

  w.WriteVarInt(op_name_index_.at(op.name));
  w.WriteByte(mask);
  BcAttr unknown;
  unknown.kind = BcAttr::Kind::kLocation;
  unknown.builtin = true;
  unknown.family = "unknown";
  PLUGRT_ASSIGN_OR_RETURN(uint64_t loc, Attr(op.location ? op.location : &unknown));
  attr_memo_.erase(&unknown);
  w.WriteVarInt(loc);
  if (mask & kHasAttrs) {
    PLUGRT_ASSIGN_OR_RETURN(uint64_t d, SortedDict(dict, true));
    w.WriteVarInt(d);
  }
  if (has_properties) {
    EncodingWriter props;
    if (row != nullptr) {
      Status status = OkStatus();
      OpProperties::ForEach(row->spec, [&](const OpProperties::Property& p) {
        if (!status.ok()) return;
        const BcAttr* v = op.attribute(p.name);
        if (v == nullptr && !p.optional) {
          status = Internal("bytecode writer: ", op.name, " lacks ", p.name);
          return;
        }
        if (v == nullptr) {
          props.WriteVarInt(0);
          return;
        }
        StatusOr<uint64_t> i = Attr(v);
        if (!i.ok()) {
          status = i.status();
          return;
        }
        if (p.optional) {
          props.WriteVarIntWithFlag(*i, true);
        } else {
          props.WriteVarInt(*i);
        }
      });
      PLUGRT_RETURN_IF_ERROR(status);
    } else {
      for (std::string_view n : info->attributes) {
        if (n.empty()) break;
        const BcAttr* v = op.attribute(n);
        if (v == nullptr) return Internal("bytecode writer: ", op.name, " lacks ", n);
        PLUGRT_ASSIGN_OR_RETURN(uint64_t i, Attr(v));
        props.WriteVarInt(i);
      }
    }
    w.WriteVarInt(properties_.size());
    properties_.push_back(props.Take());
  }
  if (mask & kHasResults) {
    PLUGRT_RETURN_IF_ERROR(TypeList(op.result_types, w));
  }
  if (mask & kHasOperands) {
    w.WriteVarInt(op.operand_ids.size());
    for (int64_t id : op.operand_ids) {
      PLUGRT_ASSIGN_OR_RETURN(uint64_t i, ValueIndex(id));
      w.WriteVarInt(i);
    }
  }
  const bool isolated = IsolatedFromAbove(op);
  if (mask & kHasInlineRegions) w.WriteVarIntWithFlag(op.regions.size(), isolated);
  for (int64_t id : op.result_ids) DefineValue(id);
  if (!op.regions.empty()) {
    if (isolated) scopes_.emplace_back();
    if (isolated && version_ >= kVersionLazyLoading) {
      EncodingWriter section;
      for (const BcRegion& r : op.regions) PLUGRT_RETURN_IF_ERROR(Region(r, section));
      w.WriteSection(kIrSection, section.bytes());
    } else {
      for (const BcRegion& r : op.regions) PLUGRT_RETURN_IF_ERROR(Region(r, w));
    }
    if (isolated) scopes_.pop_back();
  }
  op_context_ = saved_context;
  return OkStatus();
}

StatusOr<std::string> Encoder::Run(const BcFile& file) {
  String("builtin");
  String("vhlo");
  for (const auto& op : file.top_ops) CollectOpNames(*op);
  std::stable_sort(op_names_.begin(), op_names_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < op_names_.size(); ++i) {
    const auto& [dialect, name] = op_names_[i];
    op_name_index_[StrCat(dialect == kBuiltin ? "builtin." : "vhlo.", name)] = i;
    String(name);  // early: small string numbers for the dialect section
  }

  // IR first: it fills the string, attribute, type and property tables.
  EncodingWriter ir;
  scopes_.emplace_back();
  scopes_.back().next.push_back(0);
  ir.WriteVarIntWithFlag(file.top_ops.size(), false);
  for (const auto& op : file.top_ops) PLUGRT_RETURN_IF_ERROR(Op(*op, ir));

  EncodingWriter dialects;
  std::vector<uint64_t> dialect_names = {String("builtin"), String("vhlo")};
  for (const std::string& name : extra_dialects_) dialect_names.push_back(String(name));
  dialects.WriteVarInt(dialect_names.size());
  for (uint64_t d : dialect_names) {
    if (version_ >= kVersionDialectVersioning) {
      dialects.WriteVarIntWithFlag(d, false);
    } else {
      dialects.WriteVarInt(d);
    }
  }
  if (version_ >= kVersionElideBlockArgLoc) dialects.WriteVarInt(op_names_.size());
  for (size_t i = 0; i < op_names_.size();) {
    size_t j = i;
    while (j < op_names_.size() && op_names_[j].first == op_names_[i].first) ++j;
    dialects.WriteVarInt(op_names_[i].first);
    dialects.WriteVarInt(j - i);
    for (size_t k = i; k < j; ++k) {
      uint64_t s = String(op_names_[k].second);
      if (version_ >= kVersionNativeProperties) {
        dialects.WriteVarIntWithFlag(s, true);
      } else {
        dialects.WriteVarInt(s);
      }
    }
    i = j;
  }

  EncodingWriter offsets, attr_types;
  offsets.WriteVarInt(attrs_.size());
  offsets.WriteVarInt(types_.size());
  for (const std::vector<Entry>* table : {&attrs_, &types_}) {
    for (size_t i = 0; i < table->size();) {
      size_t j = i;
      while (j < table->size() && (*table)[j].dialect == (*table)[i].dialect) ++j;
      offsets.WriteVarInt((*table)[i].dialect);
      offsets.WriteVarInt(j - i);
      for (size_t k = i; k < j; ++k) {
        offsets.WriteVarIntWithFlag((*table)[k].bytes.size(), (*table)[k].custom);
        attr_types.WriteBytes((*table)[k].bytes);
      }
      i = j;
    }
  }

  EncodingWriter strings;
  strings.WriteVarInt(strings_.size());
  for (size_t i = strings_.size(); i-- > 0;) strings.WriteVarInt(strings_[i].size() + 1);
  for (const std::string& s : strings_) strings.WriteNullTerminated(s);

  EncodingWriter resource_offsets;
  resource_offsets.WriteVarInt(0);  // no resource groups

  EncodingWriter out;
  out.WriteBytes(std::string_view("ML\xEFR", 4));
  out.WriteVarInt(version_);
  out.WriteNullTerminated("StableHLO_v" + target_.ToString());
  out.WriteSection(kDialectSection, dialects.bytes());
  out.WriteSection(kAttrTypeOffsetSection, offsets.bytes());
  out.WriteSection(kAttrTypeSection, attr_types.bytes());
  out.WriteSection(kIrSection, ir.bytes());
  out.WriteSection(kResourceOffsetSection, resource_offsets.bytes());
  out.WriteSection(kResourceSection, "");
  out.WriteSection(kStringSection, strings.bytes());
  if (version_ >= kVersionNativeProperties) {
    EncodingWriter props;
    props.WriteVarInt(properties_.size());
    for (const std::string& p : properties_) {
      props.WriteVarInt(p.size());
      props.WriteBytes(p);
    }
    out.WriteSection(kPropertiesSection, props.bytes());
  }
  return out.Take();
}

}  // namespace

StatusOr<std::string> EncodeBytecode(const BcFile& file, VhloVersion target) {
  Encoder encoder(target);
  return encoder.Run(file);
}

}  // namespace plugrt::shlo::bytecode
