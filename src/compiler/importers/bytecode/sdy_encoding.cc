// plugrt StableHLO bytecode: Shardy's attributes in their own encoding.
// Each entry starts with a varint code naming the attribute (upstream
// numbers them 0-17 and never reuses a number); its parameters follow:
// strings as string-table indices, sizes and dims as signed varints,
// flags as one byte, and nested attributes as references to other entries
// of the attribute table (lists: a count, then the references). The
// spelling built here is MLIR's printed form of the attribute, so that the
// text parser and the sharding reader see what a text program holds.
#include "compiler/importers/bytecode/sdy_encoding.h"

#include <string>
#include <vector>

#include "stablehlo/ir.h"

namespace plugrt::shlo::bytecode {
namespace {

enum SdyAttrCode : uint64_t {
  kManualAxes = 0,
  kMeshAxis = 1,
  kMesh = 2,
  kSubAxisInfo = 3,
  kAxisRef = 4,
  kDimensionSharding = 5,
  kTensorShardingV1 = 6,
  kTensorShardingPerValueV1 = 7,
  kDimMapping = 8,
  kTensorMapping = 9,
  kOpShardingRule = 10,
  kAxisRefList = 11,
  kListOfAxisRefLists = 12,
  kAllToAllParam = 13,
  kAllToAllParamList = 14,
  kTensorShardingV2 = 15,
  kTensorShardingPerValueV2 = 16,
  kTensorShardingV3 = 17,
};

std::string Quoted(std::string_view s) { return Attribute::String(std::string(s)).ToString(); }

// Sets the spellings: MLIR writes `#sdy.family<...>` when the body starts
// with '<', and `#sdy<family body>` otherwise.
void Spell(BcAttr* a, std::string family, std::string body) {
  a->kind = BcAttr::Kind::kText;
  a->str = body.starts_with('<') ? StrCat("#sdy.", family, body)
                                 : StrCat("#sdy<", family, body, ">");
  a->family = std::move(family);
  a->sdy_body = std::move(body);
}

// Shardy names sharding-rule factors i, j, ..., z, then z_1, z_2, ...
std::string FactorName(int64_t factor) {
  constexpr int64_t kLastLetter = 'z' - 'i';
  if (factor >= 0 && factor <= kLastLetter) return std::string(1, static_cast<char>('i' + factor));
  return StrCat("z_", factor - kLastLetter);
}

class SdyDecoder {
 public:
  SdyDecoder(EncodingReader& r, EntryReader& entries) : r_(r), entries_(entries) {}

  Status Decode(BcAttr* a);

 private:
  // A list of references to attributes of `family` (empty: any Shardy one).
  Status ReadList(const char* family, std::vector<const BcAttr*>* out);
  // Their bodies joined by ", ".
  Status ReadJoined(const char* family, std::string* out);
  // An attribute of `family` that is a list of `element` attributes,
  // spelled between `open` and `close`.
  Status ListAttr(const char* element, const char* family, const char* open, const char* close,
                  BcAttr* a);
  Status ReadSignedList(std::vector<int64_t>* out);
  Status ReadFlag(bool* out);
  Status Expect(const BcAttr* a, const char* family);
  Status TensorSharding(int version, BcAttr* a);

  EncodingReader& r_;
  EntryReader& entries_;
};

Status SdyDecoder::Expect(const BcAttr* a, const char* family) {
  if (a->kind == BcAttr::Kind::kText && a->family == family) {
    return OkStatus();
  }
  return r_.Error("a Shardy attribute refers to ", a->kind == BcAttr::Kind::kText ? a->str : "an attribute",
                  " where it needs a ", family);
}

Status SdyDecoder::ReadList(const char* family, std::vector<const BcAttr*>* out) {
  uint64_t n = 0;
  PLUGRT_RETURN_IF_ERROR(r_.ReadCount(&n));
  out->reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    const BcAttr* element = nullptr;
    PLUGRT_RETURN_IF_ERROR(entries_.ReadAttr(r_, &element));
    if (family != nullptr) PLUGRT_RETURN_IF_ERROR(Expect(element, family));
    out->push_back(element);
  }
  return OkStatus();
}

Status SdyDecoder::ReadJoined(const char* family, std::string* out) {
  std::vector<const BcAttr*> list;
  PLUGRT_RETURN_IF_ERROR(ReadList(family, &list));
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) *out += ", ";
    *out += list[i]->sdy_body;
  }
  return OkStatus();
}

Status SdyDecoder::ListAttr(const char* element, const char* family, const char* open,
                            const char* close, BcAttr* a) {
  std::string body = open;
  PLUGRT_RETURN_IF_ERROR(ReadJoined(element, &body));
  Spell(a, family, body + close);
  return OkStatus();
}

Status SdyDecoder::ReadSignedList(std::vector<int64_t>* out) {
  uint64_t n = 0;
  PLUGRT_RETURN_IF_ERROR(r_.ReadCount(&n));
  out->resize(n);
  for (int64_t& v : *out) PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&v));
  return OkStatus();
}

Status SdyDecoder::ReadFlag(bool* out) {
  uint8_t byte = 0;
  PLUGRT_RETURN_IF_ERROR(r_.ReadByte(&byte));
  if (byte > 1) return r_.Error("a Shardy flag is ", int{byte}, ", not 0 or 1");
  *out = byte == 1;
  return OkStatus();
}

Status SdyDecoder::TensorSharding(int version, BcAttr* a) {
  const BcAttr* mesh = nullptr;
  PLUGRT_RETURN_IF_ERROR(entries_.ReadAttr(r_, &mesh));
  std::string body = "<";
  if (mesh->kind == BcAttr::Kind::kSymbolRef) {
    body += Attribute::SymbolRef(mesh->str).ToString();
  } else if (mesh->kind == BcAttr::Kind::kText && mesh->family == "mesh") {
    body += "mesh" + mesh->sdy_body;
  } else {
    return r_.Error("a Shardy sharding names neither a mesh nor a mesh symbol");
  }
  body += ", [";
  PLUGRT_RETURN_IF_ERROR(ReadJoined("dimension_sharding", &body));
  body += "]";
  std::string replicated, unreduced;
  PLUGRT_RETURN_IF_ERROR(ReadJoined("axis_ref", &replicated));
  if (version >= 2) PLUGRT_RETURN_IF_ERROR(ReadJoined("axis_ref", &unreduced));
  int64_t reduction = 0;  // sum
  if (version >= 3) PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&reduction));
  if (reduction < 0 || reduction > 2) return r_.Error("unknown Shardy reduction ", reduction);
  if (!replicated.empty()) body += StrCat(", replicated={", replicated, "}");
  if (!unreduced.empty()) {
    body += StrCat(", unreduced=", reduction == 1 ? "max" : reduction == 2 ? "min" : "", "{",
                   unreduced, "}");
  }
  body += ">";
  Spell(a, "sharding", std::move(body));
  return OkStatus();
}

Status SdyDecoder::Decode(BcAttr* a) {
  const size_t at = r_.offset();
  uint64_t code = 0;
  PLUGRT_RETURN_IF_ERROR(r_.ReadVarInt(&code));
  switch (code) {
    case kManualAxes: {
      std::vector<const BcAttr*> axes;
      PLUGRT_RETURN_IF_ERROR(ReadList(nullptr, &axes));
      std::string body = "{";
      for (size_t i = 0; i < axes.size(); ++i) {
        if (axes[i]->kind != BcAttr::Kind::kString) return r_.Error("a manual axis is not a string");
        body += StrCat(i > 0 ? ", " : "", Quoted(axes[i]->str));
      }
      Spell(a, "manual_axes", body + "}");
      return OkStatus();
    }
    case kMeshAxis: {
      std::string_view name;
      int64_t size = 0;
      PLUGRT_RETURN_IF_ERROR(entries_.ReadString(r_, &name));
      PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&size));
      Spell(a, "mesh_axis", StrCat(Quoted(name), "=", size));
      return OkStatus();
    }
    case kMesh: {
      std::string body = "<[";
      PLUGRT_RETURN_IF_ERROR(ReadJoined("mesh_axis", &body));
      body += "]";
      std::vector<int64_t> ids;
      PLUGRT_RETURN_IF_ERROR(ReadSignedList(&ids));
      if (!ids.empty()) {
        body += ", device_ids=[";
        for (size_t i = 0; i < ids.size(); ++i) body += StrCat(i > 0 ? ", " : "", ids[i]);
        body += "]";
      }
      Spell(a, "mesh", body + ">");
      return OkStatus();
    }
    case kSubAxisInfo: {
      int64_t pre = 0, size = 0;
      PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&pre));
      PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&size));
      Spell(a, "sub_axis_info", StrCat("(", pre, ")", size));
      return OkStatus();
    }
    case kAxisRef: {
      std::string_view name;
      const BcAttr* sub = nullptr;
      PLUGRT_RETURN_IF_ERROR(entries_.ReadString(r_, &name));
      PLUGRT_RETURN_IF_ERROR(entries_.ReadOptionalAttr(r_, &sub));
      std::string body = Quoted(name);
      if (sub != nullptr) {
        PLUGRT_RETURN_IF_ERROR(Expect(sub, "sub_axis_info"));
        body += ":" + sub->sdy_body;
      }
      Spell(a, "axis_ref", std::move(body));
      return OkStatus();
    }
    case kDimensionSharding: {
      std::string axes;
      PLUGRT_RETURN_IF_ERROR(ReadJoined("axis_ref", &axes));
      bool closed = false;
      PLUGRT_RETURN_IF_ERROR(ReadFlag(&closed));
      uint64_t priority = 0;
      bool has_priority = false;
      PLUGRT_RETURN_IF_ERROR(r_.ReadVarIntWithFlag(&priority, &has_priority));
      std::string body = "{" + axes;
      if (!closed) body += axes.empty() ? "?" : ", ?";
      body += "}";
      if (has_priority) body += StrCat("p", priority);
      Spell(a, "dimension_sharding", std::move(body));
      return OkStatus();
    }
    case kTensorShardingV1:
      return TensorSharding(1, a);
    case kTensorShardingV2:
      return TensorSharding(2, a);
    case kTensorShardingV3:
      return TensorSharding(3, a);
    case kTensorShardingPerValueV1:
    case kTensorShardingPerValueV2:
      return ListAttr("sharding", "sharding_per_value", "<[", "]>", a);
    case kDimMapping: {
      std::vector<int64_t> factors;
      PLUGRT_RETURN_IF_ERROR(ReadSignedList(&factors));
      std::string body;
      for (int64_t f : factors) body += FactorName(f);
      Spell(a, "dim_mapping", std::move(body));
      return OkStatus();
    }
    case kTensorMapping:
      return ListAttr("dim_mapping", "tensor_mapping", "[", "]", a);
    case kOpShardingRule: {
      std::vector<int64_t> sizes;
      PLUGRT_RETURN_IF_ERROR(ReadSignedList(&sizes));
      std::string operands, results;
      PLUGRT_RETURN_IF_ERROR(ReadJoined("tensor_mapping", &operands));
      PLUGRT_RETURN_IF_ERROR(ReadJoined("tensor_mapping", &results));
      std::string body = StrCat("<(", operands, ")->(", results, ")");
      if (!sizes.empty()) {
        body += " {";
        for (size_t i = 0; i < sizes.size(); ++i) {
          body += StrCat(i > 0 ? ", " : "", FactorName(static_cast<int64_t>(i)), "=", sizes[i]);
        }
        body += "}";
      }
      for (const char* kind : {"reduction", "need_replication", "permutation", "blocked_propagation"}) {
        std::vector<int64_t> factors;
        PLUGRT_RETURN_IF_ERROR(ReadSignedList(&factors));
        if (factors.empty()) continue;
        body += StrCat(" ", kind, "={");
        for (size_t i = 0; i < factors.size(); ++i) {
          body += StrCat(i > 0 ? ", " : "", FactorName(factors[i]));
        }
        body += "}";
      }
      bool custom = false;
      PLUGRT_RETURN_IF_ERROR(ReadFlag(&custom));
      if (custom) body += ", custom";
      Spell(a, "op_sharding_rule", body + ">");
      return OkStatus();
    }
    case kAxisRefList:
      return ListAttr("axis_ref", "axis_ref_list", "{", "}", a);
    case kListOfAxisRefLists:
      return ListAttr("axis_ref_list", "list_of_axis_ref_lists", "<[", "]>", a);
    case kAllToAllParam: {
      std::string axes;
      PLUGRT_RETURN_IF_ERROR(ReadJoined("axis_ref", &axes));
      int64_t src = 0, tgt = 0;
      PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&src));
      PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&tgt));
      Spell(a, "all_to_all_param", StrCat("{", axes, "}: ", src, "->", tgt));
      return OkStatus();
    }
    case kAllToAllParamList:
      return ListAttr("all_to_all_param", "all_to_all_param_list", "<[", "]>", a);
    default:
      return InvalidArgument("bytecode: at byte ", at, ": Shardy attribute code ", code,
                             " is not one plugrt knows (a newer Shardy than it reads)");
  }
}

}  // namespace

Status DecodeSdyAttr(EncodingReader& r, EntryReader& entries, BcAttr* a) {
  return SdyDecoder(r, entries).Decode(a);
}

}  // namespace plugrt::shlo::bytecode
