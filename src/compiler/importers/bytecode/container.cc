// plugrt StableHLO bytecode: the MLIR bytecode container (header, sections,
// string/dialect/attribute-type/properties tables, the IR section with its
// lazily loadable isolated regions) and the builtin and VHLO attribute and
// type encodings, decoded into bytecode_ir.h's structures (Shardy's
// attributes and op properties: sdy_encoding.cc).
//
// Size: one decoder. The sections index each other (strings, dialects,
// attribute/type offsets, properties) and every encoding reads through the
// same bounds-checked cursor and tables; split, those would become a shared
// header of internals that no other reader uses.
#include "compiler/importers/bytecode/container.h"

#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "compiler/importers/bytecode/encoding_reader.h"
#include "compiler/importers/bytecode/bytecode_format.h"
#include "compiler/importers/bytecode/hlo_encoding.h"
#include "compiler/importers/bytecode/op_properties.h"
#include "compiler/importers/bytecode/sdy_encoding.h"
#include "compiler/importers/bytecode/vhlo_codes.h"
#include "compiler/importers/bytecode/vhlo_ops.h"

namespace plugrt::shlo::bytecode {
namespace {

// Deepest nesting of regions or attributes accepted.
constexpr int kMaxDepth = 200;

struct Entry {
  size_t dialect = 0;
  bool custom = false;
  std::string_view data;
  size_t base = 0;
  bool resolving = false;
  const void* value = nullptr;
};

std::string FormatDims(const std::vector<int64_t>& dims) {
  std::string out;
  for (int64_t d : dims) {
    out += d == INT64_MIN ? std::string("?") : std::to_string(d);
    out += "x";
  }
  return out;
}

class Decoder : public EntryReader {
 public:
  Decoder(std::string_view bytes, BcFile* file)
      : bytes_(bytes), file_(file), max_text_(bytes.size() * 16 + (size_t{1} << 20)) {}

  Status Run();

 private:
  Status ReadString(EncodingReader& r, std::string_view* out) override;
  Status ReadStringAt(EncodingReader& r, uint64_t index, std::string_view* out);

  Status ParseStrings(std::string_view data, size_t base);
  Status ParseDialects(std::string_view data, size_t base);
  Status ParseAttrTypeOffsets(std::string_view data, size_t base);
  Status ParseProperties(std::string_view data, size_t base);
  Status ParseResources(std::string_view data, size_t base, std::string_view offsets,
                        size_t offsets_base);

  Status ReadAttr(EncodingReader& r, const BcAttr** out) override;
  Status ReadOptionalAttr(EncodingReader& r, const BcAttr** out) override;
  Status ReadType(EncodingReader& r, const BcType** out) override;
  Status ResolveAttr(uint64_t index, size_t at, const BcAttr** out);
  Status ResolveType(uint64_t index, size_t at, const BcType** out);
  Status UnknownDialectEncoding(const Entry& e, const char* what) const;
  Status DecodeAttr(Entry& e, BcAttr* a);
  Status DecodeType(Entry& e, BcType* t);
  Status DecodeBuiltinAttr(EncodingReader& r, BcAttr* a);
  Status DecodeVhloAttr(EncodingReader& r, BcAttr* a);
  Status DecodeBuiltinType(EncodingReader& r, BcType* t);
  Status DecodeVhloType(EncodingReader& r, BcType* t);
  Status FunctionTypeBody(EncodingReader& r, BcType* t);
  Status TensorTypeBody(EncodingReader& r, bool with_encoding, BcType* t);
  Status TupleTypeBody(EncodingReader& r, BcType::Kind kind, BcType* t);
  Status UnrankedTensorTypeBody(EncodingReader& r, BcType* t);
  Status ReadTypeList(EncodingReader& r, std::vector<const BcType*>* out);
  // Spellings built from shared parts repeat them: bounded by the input.
  Status CheckSpelling(EncodingReader& r, const std::string& text) const {
    if (text.size() > max_text_) return r.Error("location spelling too large");
    return OkStatus();
  }
  Status ReadSignedList(EncodingReader& r, std::vector<int64_t>* out);
  Status ReadAPInt(EncodingReader& r, int bits, uint64_t* out);
  Status ReadQuantized(EncodingReader& r, bool per_axis, BcType* t);
  void FinishTensorText(BcType* t, const BcAttr* encoding);

  // IR.
  Status ParseBlock(EncodingReader& r, BcBlock* block, bool first_in_region,
                    uint64_t* num_ops);
  Status ParseRegions(EncodingReader& r, BcOp* op, size_t num_regions, bool isolated, int depth);
  Status ParseOp(EncodingReader& r, BcOp* op, size_t* num_regions, bool* isolated);
  // The properties of a non-VHLO op, by its row of the property table.
  Status ReadProperties(const EncodingReader& blob, const OpProperties* row, BcOp* op);
  Status DefineValue(EncodingReader& r, int64_t* id);
  Status SkipUseListOrders(EncodingReader& r, uint64_t num_values);

  std::string_view bytes_;
  BcFile* file_;
  size_t max_text_;
  uint64_t version_ = 0;
  std::vector<std::string_view> strings_;
  std::vector<std::string_view> dialects_;
  struct OpName {
    size_t dialect;
    std::string_view name;
    bool registered_known = false;
    bool registered = false;
  };
  std::vector<OpName> op_names_;
  std::vector<Entry> attrs_, types_;
  std::string_view attr_type_data_;
  size_t attr_type_base_ = 0;
  std::vector<std::pair<std::string_view, size_t>> properties_;  // blob + base
  // Dialect resources in the order the offset section declares them, which
  // is how dense_resource attributes refer to them.
  struct Resource {
    std::string_view key;
    bool has_blob = false;
    std::string_view blob;
  };
  std::vector<Resource> resources_;
  int depth_ = 0;

  // Value scopes: each isolated region opens one; a region reserves slots in
  // the innermost scope for the values it defines.
  struct Scope {
    std::vector<int64_t> values;  // global ids, -1 when not yet defined
    std::vector<size_t> next;     // next slot per open region
  };
  std::vector<Scope> scopes_;
};

Status Decoder::ReadStringAt(EncodingReader& r, uint64_t index, std::string_view* out) {
  if (index >= strings_.size()) return r.Error("string index ", index, " out of range");
  *out = strings_[index];
  return OkStatus();
}

Status Decoder::ReadString(EncodingReader& r, std::string_view* out) {
  uint64_t index = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
  return ReadStringAt(r, index, out);
}

Status Decoder::ParseStrings(std::string_view data, size_t base) {
  EncodingReader r(data, base);
  uint64_t count = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&count));
  strings_.resize(count);
  size_t end = data.size();
  for (uint64_t i = count; i-- > 0;) {
    uint64_t size = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&size));
    if (size == 0 || size > end) return r.Error("string size ", size, " exceeds the section");
    strings_[i] = data.substr(end - size, size - 1);
    end -= size;
  }
  if (data.size() - r.remaining() != end) {
    return r.Error("string section sizes do not match its data");
  }
  return OkStatus();
}

Status Decoder::ParseDialects(std::string_view data, size_t base) {
  EncodingReader r(data, base);
  uint64_t count = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&count));
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view name;
    if (version_ < kVersionDialectVersioning) {
      PLUGRT_RETURN_IF_ERROR(ReadString(r, &name));
    } else {
      uint64_t index = 0;
      bool has_version = false;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&index, &has_version));
      PLUGRT_RETURN_IF_ERROR(ReadStringAt(r, index, &name));
      if (has_version) {
        uint8_t id = 0;
        std::string_view contents;
        size_t contents_base = 0;
        PLUGRT_RETURN_IF_ERROR(r.ReadSection(&id, &contents, &contents_base));
        if (id != kDialectVersionsSection) {
          return r.Error("expected a dialect version section, found section ", int{id});
        }
      }
    }
    // Other dialects appear for what JAX puts next to VHLO: Shardy's ops and
    // attributes, in Shardy's own encoding (sdy_encoding.cc) or as text,
    // and other discardable attributes, which MLIR writes as their text when
    // their dialect has no bytecode encoding and the text parser reads.
    // Other ops and custom encodings are refused where they are met.
    dialects_.push_back(name);
  }
  if (version_ >= kVersionElideBlockArgLoc) {
    uint64_t num_ops = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadCount(&num_ops));
  }
  while (!r.empty()) {
    uint64_t dialect = 0, n = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&dialect));
    if (dialect >= dialects_.size()) return r.Error("dialect index ", dialect, " out of range");
    PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
    for (uint64_t i = 0; i < n; ++i) {
      OpName op{static_cast<size_t>(dialect), {}};
      if (version_ < kVersionNativeProperties) {
        PLUGRT_RETURN_IF_ERROR(ReadString(r, &op.name));
      } else {
        uint64_t index = 0;
        PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&index, &op.registered));
        op.registered_known = true;
        PLUGRT_RETURN_IF_ERROR(ReadStringAt(r, index, &op.name));
      }
      op_names_.push_back(op);
    }
  }
  return OkStatus();
}

Status Decoder::ParseAttrTypeOffsets(std::string_view data, size_t base) {
  EncodingReader r(data, base);
  uint64_t num_attrs = 0, num_types = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&num_attrs));
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&num_types));
  if (num_attrs + num_types > r.remaining()) return r.Error("too many attribute/type entries");
  attrs_.resize(num_attrs);
  types_.resize(num_types);
  uint64_t offset = 0;
  auto fill = [&](std::vector<Entry>& entries) -> Status {
    size_t index = 0;
    while (index < entries.size()) {
      uint64_t dialect = 0, n = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&dialect));
      if (dialect >= dialects_.size()) return r.Error("dialect index ", dialect, " out of range");
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&n));
      if (n > entries.size() - index) return r.Error("attribute/type group overflows the table");
      for (uint64_t i = 0; i < n; ++i) {
        Entry& e = entries[index++];
        uint64_t size = 0;
        PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&size, &e.custom));
        if (size > attr_type_data_.size() - offset) {
          return r.Error("attribute/type entry runs past its section");
        }
        e.dialect = static_cast<size_t>(dialect);
        e.data = attr_type_data_.substr(offset, size);
        e.base = attr_type_base_ + offset;
        offset += size;
      }
    }
    return OkStatus();
  };
  PLUGRT_RETURN_IF_ERROR(fill(attrs_));
  PLUGRT_RETURN_IF_ERROR(fill(types_));
  if (!r.empty()) return r.Error("trailing data in the attribute/type offset section");
  return OkStatus();
}

Status Decoder::ParseResources(std::string_view data, size_t base, std::string_view offsets,
                               size_t offsets_base) {
  EncodingReader r(offsets, offsets_base);
  EncodingReader contents(data, base);
  uint64_t external_groups = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&external_groups));
  // Each group: its key (external) or dialect, then per resource its key,
  // the size of its entry in the resource section, and its kind.
  auto group = [&](bool dialect_group) -> Status {
    uint64_t n = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
    for (uint64_t i = 0; i < n; ++i) {
      Resource res;
      uint64_t size = 0;
      uint8_t kind = 0;
      PLUGRT_RETURN_IF_ERROR(ReadString(r, &res.key));
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&size));
      PLUGRT_RETURN_IF_ERROR(r.ReadByte(&kind));
      if (size > contents.remaining()) return r.Error("resource entry runs past its section");
      const size_t at = contents.offset();
      std::string_view bytes;
      PLUGRT_RETURN_IF_ERROR(contents.ReadBytes(static_cast<size_t>(size), &bytes));
      if (!dialect_group) continue;
      EncodingReader entry(bytes, at);
      // A blob (kind 0): alignment, size, padding to the alignment from the
      // start of the file, data. An empty entry only declares the key.
      if (kind == 0 && !entry.empty()) {
        uint64_t alignment = 0, blob_size = 0;
        PLUGRT_RETURN_IF_ERROR(entry.ReadVarInt(&alignment));
        PLUGRT_RETURN_IF_ERROR(entry.ReadVarInt(&blob_size));
        PLUGRT_RETURN_IF_ERROR(entry.AlignTo(alignment));
        if (blob_size != entry.remaining()) {
          return entry.Error("resource '", res.key, "' claims ", blob_size, " bytes but holds ",
                             entry.remaining());
        }
        PLUGRT_RETURN_IF_ERROR(entry.ReadBytes(static_cast<size_t>(blob_size), &res.blob));
        res.has_blob = true;
      }
      resources_.push_back(res);
    }
    return OkStatus();
  };
  for (uint64_t i = 0; i < external_groups; ++i) {
    std::string_view key;
    PLUGRT_RETURN_IF_ERROR(ReadString(r, &key));
    PLUGRT_RETURN_IF_ERROR(group(false));
  }
  while (!r.empty()) {
    uint64_t dialect = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&dialect));
    if (dialect >= dialects_.size()) return r.Error("dialect index ", dialect, " out of range");
    PLUGRT_RETURN_IF_ERROR(group(true));
  }
  return OkStatus();
}

Status Decoder::ParseProperties(std::string_view data, size_t base) {
  if (data.empty()) return OkStatus();
  EncodingReader r(data, base);
  uint64_t count = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&count));
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&size));
    size_t at = r.offset();
    std::string_view blob;
    PLUGRT_RETURN_IF_ERROR(r.ReadBytes(static_cast<size_t>(size), &blob));
    properties_.emplace_back(blob, at);
  }
  if (!r.empty()) return r.Error("trailing data in the properties section");
  return OkStatus();
}

// ------------------------------------------------------------ attributes/types

Status Decoder::ReadAttr(EncodingReader& r, const BcAttr** out) {
  size_t at = r.offset();
  uint64_t index = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
  return ResolveAttr(index, at, out);
}

Status Decoder::ReadOptionalAttr(EncodingReader& r, const BcAttr** out) {
  size_t at = r.offset();
  uint64_t index = 0;
  bool present = false;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&index, &present));
  *out = nullptr;
  if (!present) return OkStatus();
  return ResolveAttr(index, at, out);
}

Status Decoder::ReadType(EncodingReader& r, const BcType** out) {
  size_t at = r.offset();
  uint64_t index = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
  return ResolveType(index, at, out);
}

Status Decoder::ResolveAttr(uint64_t index, size_t at, const BcAttr** out) {
  if (index >= attrs_.size()) {
    return InvalidArgument("bytecode: at byte ", at, ": attribute index ", index,
                           " out of range");
  }
  Entry& e = attrs_[index];
  if (e.value == nullptr) {
    if (e.resolving) {
      return InvalidArgument("bytecode: at byte ", e.base, ": attribute ", index,
                             " refers to itself");
    }
    if (++depth_ > kMaxDepth) {
      return InvalidArgument("bytecode: at byte ", e.base, ": attributes nest deeper than ",
                             kMaxDepth);
    }
    e.resolving = true;
    auto attr = std::make_unique<BcAttr>();
    Status s = DecodeAttr(e, attr.get());
    e.resolving = false;
    --depth_;
    PLUGRT_RETURN_IF_ERROR(s);
    e.value = attr.get();
    file_->attr_storage.push_back(std::move(attr));
  }
  *out = static_cast<const BcAttr*>(e.value);
  return OkStatus();
}

Status Decoder::ResolveType(uint64_t index, size_t at, const BcType** out) {
  if (index >= types_.size()) {
    return InvalidArgument("bytecode: at byte ", at, ": type index ", index, " out of range");
  }
  Entry& e = types_[index];
  if (e.value == nullptr) {
    if (e.resolving) {
      return InvalidArgument("bytecode: at byte ", e.base, ": type ", index,
                             " refers to itself");
    }
    if (++depth_ > kMaxDepth) {
      return InvalidArgument("bytecode: at byte ", e.base, ": types nest deeper than ",
                             kMaxDepth);
    }
    e.resolving = true;
    auto type = std::make_unique<BcType>();
    Status s = DecodeType(e, type.get());
    e.resolving = false;
    --depth_;
    PLUGRT_RETURN_IF_ERROR(s);
    e.value = type.get();
    file_->type_storage.push_back(std::move(type));
  }
  *out = static_cast<const BcType*>(e.value);
  return OkStatus();
}

Status Decoder::UnknownDialectEncoding(const Entry& e, const char* what) const {
  return InvalidArgument("bytecode: at byte ", e.base, ": a ", what, " of dialect '",
                         dialects_[e.dialect],
                         "' in its own binary encoding, which plugrt cannot read (only VHLO and "
                         "builtin ones, and other dialects' as text, are part of a StableHLO "
                         "portable artifact)");
}

Status Decoder::DecodeAttr(Entry& e, BcAttr* a) {
  EncodingReader r(e.data, e.base);
  if (!e.custom) {
    std::string_view text;
    PLUGRT_RETURN_IF_ERROR(r.ReadNullTerminated(&text));
    a->kind = BcAttr::Kind::kText;
    a->str = std::string(text);
  } else if (dialects_[e.dialect] == "builtin") {
    PLUGRT_RETURN_IF_ERROR(DecodeBuiltinAttr(r, a));
  } else if (dialects_[e.dialect] == "vhlo") {
    PLUGRT_RETURN_IF_ERROR(DecodeVhloAttr(r, a));
  } else if (dialects_[e.dialect] == "sdy") {
    PLUGRT_RETURN_IF_ERROR(DecodeSdyAttr(r, *this, a));
  } else if (IsHloDialect(dialects_[e.dialect])) {
    PLUGRT_RETURN_IF_ERROR(DecodeHloAttr(r, dialects_[e.dialect], *this, a));
  } else {
    return UnknownDialectEncoding(e, "attribute");
  }
  if (!r.empty()) return r.Error("unexpected trailing bytes in an attribute");
  return OkStatus();
}

Status Decoder::DecodeType(Entry& e, BcType* t) {
  EncodingReader r(e.data, e.base);
  if (!e.custom) {
    std::string_view text;
    PLUGRT_RETURN_IF_ERROR(r.ReadNullTerminated(&text));
    t->kind = BcType::Kind::kText;
    t->text = std::string(text);
  } else if (dialects_[e.dialect] == "builtin") {
    PLUGRT_RETURN_IF_ERROR(DecodeBuiltinType(r, t));
  } else if (dialects_[e.dialect] == "vhlo") {
    PLUGRT_RETURN_IF_ERROR(DecodeVhloType(r, t));
  } else if (IsHloDialect(dialects_[e.dialect])) {
    PLUGRT_RETURN_IF_ERROR(DecodeHloType(r, dialects_[e.dialect], *this, t));
  } else {
    return UnknownDialectEncoding(e, "type");
  }
  if (!r.empty()) return r.Error("unexpected trailing bytes in a type");
  // Types built from shared types spell them out at each use.
  if (t->text.size() > max_text_) {
    return InvalidArgument("bytecode: at byte ", e.base, ": type spelling exceeds ", max_text_,
                           " bytes");
  }
  return OkStatus();
}

Status Decoder::ReadTypeList(EncodingReader& r, std::vector<const BcType*>* out) {
  uint64_t n = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
  for (uint64_t i = 0; i < n; ++i) {
    const BcType* t = nullptr;
    PLUGRT_RETURN_IF_ERROR(ReadType(r, &t));
    out->push_back(t);
  }
  return OkStatus();
}

Status Decoder::ReadSignedList(EncodingReader& r, std::vector<int64_t>* out) {
  uint64_t n = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
  for (uint64_t i = 0; i < n; ++i) {
    int64_t v = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&v));
    out->push_back(v);
  }
  return OkStatus();
}

// APInt of a known width: one byte up to 8 bits, a signed varint up to 64.
Status Decoder::ReadAPInt(EncodingReader& r, int bits, uint64_t* out) {
  if (bits <= 8) {
    uint8_t b = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadByte(&b));
    *out = b;
    return OkStatus();
  }
  if (bits <= 64) {
    int64_t v = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&v));
    *out = static_cast<uint64_t>(v);
    return OkStatus();
  }
  return r.Error("integers wider than 64 bits are not supported");
}

Status Decoder::DecodeBuiltinAttr(EncodingReader& r, BcAttr* a) {
  size_t at = r.offset();
  uint64_t code = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&code));
  switch (code) {
    case kBuiltinArrayAttr: {  // ArrayAttr
      a->kind = BcAttr::Kind::kArray;
      uint64_t n = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
      for (uint64_t i = 0; i < n; ++i) {
        const BcAttr* e = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &e));
        a->elements.push_back(e);
      }
      return OkStatus();
    }
    case kBuiltinDictionaryAttr: {  // DictionaryAttr
      a->kind = BcAttr::Kind::kDictionary;
      uint64_t n = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n, 2));
      for (uint64_t i = 0; i < n; ++i) {
        const BcAttr *k = nullptr, *v = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &k));
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &v));
        if (k->kind != BcAttr::Kind::kString) return r.Error("dictionary key is not a string");
        a->entries.emplace_back(k, v);
      }
      return OkStatus();
    }
    case kBuiltinStringAttr:    // StringAttr
    case kBuiltinTypedStringAttr: {  // StringAttr with a type
      std::string_view s;
      PLUGRT_RETURN_IF_ERROR(ReadString(r, &s));
      if (code == kBuiltinTypedStringAttr) {
        const BcType* t = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadType(r, &t));
      }
      a->kind = BcAttr::Kind::kString;
      a->str = std::string(s);
      return OkStatus();
    }
    case kBuiltinFlatSymbolRefAttr:    // FlatSymbolRefAttr
    case kBuiltinSymbolRefAttr: {  // SymbolRefAttr
      const BcAttr* root = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &root));
      if (root->kind != BcAttr::Kind::kString) return r.Error("symbol name is not a string");
      a->kind = BcAttr::Kind::kSymbolRef;
      a->str = root->str;
      if (code == kBuiltinSymbolRefAttr) {
        uint64_t n = 0;
        PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
        for (uint64_t i = 0; i < n; ++i) {
          const BcAttr* leaf = nullptr;
          PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &leaf));
          if (leaf->kind != BcAttr::Kind::kSymbolRef) return r.Error("nested symbol is not one");
          a->str += "::@" + leaf->str;
        }
      }
      return OkStatus();
    }
    case kBuiltinTypeAttr:  // TypeAttr
      a->kind = BcAttr::Kind::kType;
      return ReadType(r, &a->type);
    case kBuiltinUnitAttr:  // UnitAttr
      a->kind = BcAttr::Kind::kUnit;
      return OkStatus();
    case kBuiltinIntegerAttr:    // IntegerAttr
    case kBuiltinFloatAttr: {  // FloatAttr
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &a->type));
      if (a->type->kind != BcType::Kind::kElement) return r.Error("number attribute of a non-scalar type");
      uint64_t v = 0;
      PLUGRT_RETURN_IF_ERROR(ReadAPInt(r, a->type->bits, &v));
      if (code == kBuiltinIntegerAttr) {
        a->kind = BcAttr::Kind::kInteger;
        a->int_value = static_cast<int64_t>(v);
      } else {
        a->kind = BcAttr::Kind::kFloat;
        a->bits = v;
      }
      return OkStatus();
    }
    case kBuiltinCallSiteLoc: {  // CallSiteLoc
      const BcAttr *callee = nullptr, *caller = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &callee));
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &caller));
      if (callee->kind != BcAttr::Kind::kLocation || caller->kind != BcAttr::Kind::kLocation) {
        return r.Error("call site location of non-locations");
      }
      a->kind = BcAttr::Kind::kLocation;
      a->str = "callsite(" + callee->str + " at " + caller->str + ")";
      return CheckSpelling(r, a->str);
    }
    case kBuiltinFileLineColLoc: {  // FileLineColLoc
      const BcAttr* file = nullptr;
      uint64_t line = 0, col = 0;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &file));
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&line));
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&col));
      if (file->kind != BcAttr::Kind::kString) return r.Error("location file is not a string");
      a->kind = BcAttr::Kind::kLocation;
      a->str = StrCat(QuoteMlirString(file->str), ":", std::min<uint64_t>(line, INT32_MAX), ":",
                      std::min<uint64_t>(col, INT32_MAX));
      return OkStatus();
    }
    case kBuiltinFileLineColRange: {  // FileLineColRange: file, then 0-4 numbers
      // The count says which numbers are there: none; the line; line and
      // column; line, column and the end column on that line; or line,
      // column, end line and end column.
      const BcAttr* file = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &file));
      if (file->kind != BcAttr::Kind::kString) return r.Error("location file is not a string");
      uint64_t n = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&n));
      if (n > 4) return r.Error("a file location range with ", n, " numbers");
      uint64_t v[4] = {0, 0, 0, 0};
      for (uint64_t i = 0; i < n; ++i) {
        PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&v[i]));
        v[i] = std::min<uint64_t>(v[i], INT32_MAX);
      }
      a->kind = BcAttr::Kind::kLocation;
      a->str = StrCat(QuoteMlirString(file->str), ":", v[0], ":", v[1]);
      if (n == 3) a->str += StrCat(" to :", v[2]);
      if (n == 4) a->str += StrCat(" to ", v[2], ":", v[3]);
      return OkStatus();
    }
    case kBuiltinFusedLoc:    // FusedLoc
    case kBuiltinFusedLocWithMetadata: {  // FusedLoc with metadata: the first located part
      uint64_t n = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
      a->kind = BcAttr::Kind::kLocation;
      a->str = "fused[";
      for (uint64_t i = 0; i < n; ++i) {
        const BcAttr* part = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &part));
        if (part->kind != BcAttr::Kind::kLocation) return r.Error("fused location of a non-location");
        a->str += (i ? ", " : "") + part->str;
        PLUGRT_RETURN_IF_ERROR(CheckSpelling(r, a->str));
      }
      a->str += "]";
      if (code == kBuiltinFusedLocWithMetadata) {  // metadata: not kept
        const BcAttr* metadata = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &metadata));
      }
      return OkStatus();
    }
    case kBuiltinNameLoc: {  // NameLoc: its child's position
      const BcAttr *name = nullptr, *child = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &name));
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &child));
      if (name->kind != BcAttr::Kind::kString || child->kind != BcAttr::Kind::kLocation) {
        return r.Error("name location of the wrong kinds");
      }
      a->kind = BcAttr::Kind::kLocation;
      a->str = QuoteMlirString(name->str);
      if (child->str != "unknown") a->str += "(" + child->str + ")";
      return CheckSpelling(r, a->str);
    }
    case kBuiltinUnknownLoc:  // UnknownLoc
      a->kind = BcAttr::Kind::kLocation;
      a->str = "unknown";
      return OkStatus();
    case kBuiltinDenseArrayAttr: {  // DenseArrayAttr
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &a->type));
      uint64_t size = 0, blob_size = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&size));
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&blob_size));
      std::string_view blob;
      PLUGRT_RETURN_IF_ERROR(r.ReadBytes(static_cast<size_t>(blob_size), &blob));
      a->kind = BcAttr::Kind::kDenseArray;
      a->int_value = static_cast<int64_t>(std::min<uint64_t>(size, INT64_MAX));
      a->data = std::string(blob);
      return OkStatus();
    }
    case kBuiltinDenseResourceAttr: {  // DenseResourceElementsAttr: type, handle
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &a->type));
      size_t handle_at = r.offset();
      uint64_t handle = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&handle));
      if (handle >= resources_.size()) {
        return InvalidArgument("bytecode: at byte ", handle_at, ": resource handle ", handle,
                               " out of range (the file declares ", resources_.size(), ")");
      }
      const Resource& res = resources_[handle];
      a->kind = BcAttr::Kind::kResource;
      a->str = std::string(res.key);
      a->bool_value = res.has_blob;
      a->data = std::string(res.blob);
      return OkStatus();
    }
    case kBuiltinDenseElementsAttr: {  // DenseIntOrFPElementsAttr
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &a->type));
      uint64_t blob_size = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&blob_size));
      std::string_view blob;
      PLUGRT_RETURN_IF_ERROR(r.ReadBytes(static_cast<size_t>(blob_size), &blob));
      a->kind = BcAttr::Kind::kTensor;
      a->data = std::string(blob);
      return OkStatus();
    }
    default:
      return InvalidArgument("bytecode: at byte ", at, ": builtin attribute kind ", code,
                             " is not supported in a StableHLO portable artifact");
  }
}

Status Decoder::DecodeVhloAttr(EncodingReader& r, BcAttr* a) {
  size_t at = r.offset();
  uint64_t code = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&code));
  if (const VhloEnumInfo* info = FindVhloEnumByCode(code)) {
    uint64_t v = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&v));
    std::optional<std::string_view> name = VhloEnumValueName(*info, v);
    if (!name) {
      return InvalidArgument("bytecode: at byte ", at, ": vhlo.", info->family,
                             "_v1 has no value ", v);
    }
    a->kind = BcAttr::Kind::kEnum;
    a->family = std::string(info->family);
    a->str = std::string(*name);
    return OkStatus();
  }
  switch (code) {
    case kVhloArrayAttr: {  // array_v1
      a->kind = BcAttr::Kind::kArray;
      uint64_t n = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
      for (uint64_t i = 0; i < n; ++i) {
        const BcAttr* e = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &e));
        a->elements.push_back(e);
      }
      return OkStatus();
    }
    case kVhloBoolAttr: {  // bool_v1
      uint64_t v = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&v));
      if (v > 1) return InvalidArgument("bytecode: at byte ", at, ": vhlo.bool_v1 value ", v);
      a->kind = BcAttr::Kind::kBool;
      a->bool_value = v == 1;
      return OkStatus();
    }
    case kVhloDictionaryAttr: {  // dictionary_v1
      a->kind = BcAttr::Kind::kDictionary;
      uint64_t n = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n, 2));
      for (uint64_t i = 0; i < n; ++i) {
        const BcAttr *k = nullptr, *v = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &k));
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &v));
        if (k->kind != BcAttr::Kind::kString) return r.Error("dictionary key is not a string");
        a->entries.emplace_back(k, v);
      }
      return OkStatus();
    }
    case kVhloFloatAttr:    // float_v1
    case kVhloIntegerAttr: {  // integer_v1
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &a->type));
      if (a->type->kind != BcType::Kind::kElement || a->type->is_float != (code == kVhloFloatAttr) ||
          a->type->text == "i1") {
        return InvalidArgument("bytecode: at byte ", at, ": ", code == kVhloFloatAttr ? "float" : "integer",
                               " attribute of type ", a->type->text);
      }
      uint64_t v = 0;
      PLUGRT_RETURN_IF_ERROR(ReadAPInt(r, a->type->bits, &v));
      if (code == kVhloFloatAttr) {
        a->kind = BcAttr::Kind::kFloat;
        a->bits = v;
      } else {
        a->kind = BcAttr::Kind::kInteger;
        int bits = a->type->bits;
        // Sign- or zero-extend from the type's width.
        if (bits < 64) {
          uint64_t mask = (uint64_t{1} << bits) - 1;
          v &= mask;
          if (a->type->text[0] == 'i' && (v >> (bits - 1)) & 1) v |= ~mask;
        }
        a->int_value = static_cast<int64_t>(v);
      }
      return OkStatus();
    }
    case kVhloOutputOperandAliasAttr: {  // output_operand_alias_v1
      a->kind = BcAttr::Kind::kOutputOperandAlias;
      PLUGRT_RETURN_IF_ERROR(ReadSignedList(r, &a->ints));
      PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&a->int_value));
      return ReadSignedList(r, &a->ints2);
    }
    case kVhloStringAttr: {  // string_v1
      std::string_view s;
      PLUGRT_RETURN_IF_ERROR(ReadString(r, &s));
      a->kind = BcAttr::Kind::kString;
      a->str = std::string(s);
      return OkStatus();
    }
    case kVhloTensorAttr: {  // tensor_v1
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &a->type));
      uint64_t size = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&size));
      std::string_view blob;
      PLUGRT_RETURN_IF_ERROR(r.ReadBytes(static_cast<size_t>(size), &blob));
      a->kind = BcAttr::Kind::kTensor;
      const BcType* t = a->type;
      if (t->kind != BcType::Kind::kTensor) {
        return InvalidArgument("bytecode: at byte ", at, ": tensor_v1 of type ", t->text);
      }
      // i1 tensors may be bit-packed (or 0xFF for a true splat).
      uint64_t n = 1;
      bool counted = true;
      for (int64_t d : t->dims) {
        if (d < 0 || (d > 0 && n > (uint64_t{1} << 40) / static_cast<uint64_t>(d))) {
          counted = false;
          break;
        }
        n *= static_cast<uint64_t>(d);
      }
      if (t->element->text == "i1" && counted) {
        uint64_t packed = (n + 7) / 8;
        if (blob.size() == 1 && static_cast<uint8_t>(blob[0]) == 0xFF) {
          a->data = std::string(1, '\1');
          return OkStatus();
        }
        if (blob.size() == packed && blob.size() != n) {
          a->data.resize(n);
          for (uint64_t i = 0; i < n; ++i) {
            a->data[i] = (static_cast<uint8_t>(blob[i / 8]) >> (i % 8)) & 1;
          }
          return OkStatus();
        }
      }
      a->data = std::string(blob);
      return OkStatus();
    }
    case kVhloTypeAttr:  // type_v1
      a->kind = BcAttr::Kind::kType;
      return ReadType(r, &a->type);
    case kVhloTypeExtensionsAttr:  // type_extensions_v1
      a->kind = BcAttr::Kind::kTypeExtensions;
      return ReadSignedList(r, &a->ints);
    case kVhloResultAccuracyAttr: {  // result_accuracy_v1
      a->kind = BcAttr::Kind::kResultAccuracy;
      PLUGRT_RETURN_IF_ERROR(ReadAPInt(r, 64, &a->atol_bits));
      PLUGRT_RETURN_IF_ERROR(ReadAPInt(r, 64, &a->rtol_bits));
      PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&a->int_value));
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &a->mode));
      if (a->mode->kind != BcAttr::Kind::kEnum || a->mode->family != "result_accuracy_mode") {
        return r.Error("result_accuracy_v1 mode is not a result_accuracy_mode_v1");
      }
      return OkStatus();
    }
    case kVhloSubAxisInfoAttr: {  // sub_axis_info_v1
      a->kind = BcAttr::Kind::kSdy;
      a->family = "sub_axis_info";
      int64_t pre = 0, size = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&pre));
      PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&size));
      a->ints = {pre, size};
      return OkStatus();
    }
    case kVhloAxisRefAttr: {  // axis_ref_v1: name, optional sub-axis info
      a->kind = BcAttr::Kind::kSdy;
      a->family = "axis_ref";
      const BcAttr* name = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &name));
      a->elements.push_back(name);
      uint64_t has_sub = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&has_sub));
      if (has_sub) {
        const BcAttr* sub = nullptr;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &sub));
        if (sub->kind != BcAttr::Kind::kSdy || sub->family != "sub_axis_info") {
          return r.Error("axis_ref_v1 sub-axis info of the wrong kind");
        }
        a->elements.push_back(sub);
      }
      if (name->kind != BcAttr::Kind::kString) return r.Error("axis_ref_v1 name is not a string");
      return OkStatus();
    }
    case kVhloReplicaGroupMeshAxesAttr: {  // replica_group_mesh_axes_v1: mesh, axes
      a->kind = BcAttr::Kind::kSdy;
      a->family = "replica_group_mesh_axes";
      const BcAttr *mesh = nullptr, *axes = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &mesh));
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &axes));
      a->elements = {mesh, axes};
      return OkStatus();
    }
    case kVhloMeshAxisAttr: {  // mesh_axis_v1: name, size
      a->kind = BcAttr::Kind::kSdy;
      a->family = "mesh_axis";
      const BcAttr* name = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &name));
      PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&a->int_value));
      a->elements.push_back(name);
      return OkStatus();
    }
    case kVhloMeshAttr: {  // mesh_v1: axes, optional device ids
      a->kind = BcAttr::Kind::kSdy;
      a->family = "mesh";
      const BcAttr *axes = nullptr, *ids = nullptr;
      PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &axes));
      PLUGRT_RETURN_IF_ERROR(ReadOptionalAttr(r, &ids));
      a->elements.push_back(axes);
      if (ids != nullptr) a->elements.push_back(ids);
      return OkStatus();
    }
    default:
      return InvalidArgument("bytecode: at byte ", at, ": unknown vhlo attribute kind ", code);
  }
}

void Decoder::FinishTensorText(BcType* t, const BcAttr* encoding) {
  t->text = "tensor<" + FormatDims(t->dims) + t->element->text;
  if (encoding != nullptr && encoding->kind == BcAttr::Kind::kTypeExtensions) {
    t->text += ", #stablehlo.type_extensions<bounds = [";
    for (size_t i = 0; i < encoding->ints.size(); ++i) {
      if (i > 0) t->text += ", ";
      int64_t b = encoding->ints[i];
      t->text += b == INT64_MIN ? std::string("?") : std::to_string(b);
    }
    t->text += "]>";
  }
  t->text += ">";
}

// Shortest decimal of a double that reads back exactly, with a '.' when it
// would otherwise look like an integer ("34.0", "0.5", "1e-05").
std::string DoubleText(double v) {
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof(buf), "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (std::isfinite(v) && s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

Status Decoder::ReadQuantized(EncodingReader& r, bool per_axis, BcType* t) {
  size_t at = r.offset();
  uint64_t flags = 0;
  const BcType *storage = nullptr, *expressed = nullptr;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&flags));
  PLUGRT_RETURN_IF_ERROR(ReadType(r, &storage));
  PLUGRT_RETURN_IF_ERROR(ReadType(r, &expressed));
  if (storage->kind != BcType::Kind::kElement || storage->is_float ||
      expressed->kind != BcType::Kind::kElement || !expressed->is_float) {
    return InvalidArgument("bytecode: at byte ", at, ": quantized type with storage ",
                           storage->text, " and expressed type ", expressed->text);
  }
  bool is_signed = (flags & 1) != 0;
  int bits = storage->bits;
  std::string spelling = StrCat(is_signed ? "i" : "u", bits);
  std::vector<std::pair<uint64_t, int64_t>> params;  // scale bits, zero point
  uint64_t axis = 0;
  int64_t lo = 0, hi = 0;
  if (per_axis) {
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&axis));
    PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&lo));
    PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&hi));
    uint64_t n = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t s = 0;
      PLUGRT_RETURN_IF_ERROR(ReadAPInt(r, 64, &s));
      params.emplace_back(s, 0);
    }
    uint64_t m = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadCount(&m));
    if (m != n) return r.Error("quantized type has ", n, " scales but ", m, " zero points");
    for (uint64_t i = 0; i < m; ++i) {
      PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&params[i].second));
    }
  } else {
    uint64_t s = 0;
    int64_t zp = 0;
    PLUGRT_RETURN_IF_ERROR(ReadAPInt(r, 64, &s));
    PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&zp));
    PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&lo));
    PLUGRT_RETURN_IF_ERROR(r.ReadSignedVarInt(&hi));
    params.emplace_back(s, zp);
  }
  if (bits < 1 || bits > 32) return r.Error("quantized storage of ", bits, " bits");
  int64_t def_lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  int64_t def_hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  if (lo != def_lo || hi != def_hi) spelling += StrCat("<", lo, ":", hi, ">");
  spelling += ":" + expressed->text;
  auto param_text = [](uint64_t scale_bits, int64_t zp) {
    std::string s = DoubleText(std::bit_cast<double>(scale_bits));
    if (zp != 0) s += StrCat(":", zp);
    return s;
  };
  if (per_axis) {
    spelling += StrCat(":", axis, ", {");
    for (size_t i = 0; i < params.size(); ++i) {
      if (i > 0) spelling += ", ";
      spelling += param_text(params[i].first, params[i].second);
    }
    spelling += "}";
  } else {
    spelling += ", " + param_text(params[0].first, params[0].second);
  }
  t->kind = BcType::Kind::kQuantized;
  t->bits = bits;
  t->text = "!quant.uniform<" + spelling + ">";
  return OkStatus();
}

Status Decoder::DecodeVhloType(EncodingReader& r, BcType* t) {
  size_t at = r.offset();
  uint64_t code = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&code));
  if (const VhloElementInfo* e = FindVhloElementByCode(code)) {
    t->kind = BcType::Kind::kElement;
    t->text = std::string(e->name);
    t->bits = e->bits;
    t->is_float = e->is_float;
    return OkStatus();
  }
  switch (code) {
    case kVhloComplexType: {  // complex_v1
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &t->element));
      if (t->element->kind != BcType::Kind::kElement || !t->element->is_float) {
        return r.Error("complex of ", t->element->text);
      }
      t->kind = BcType::Kind::kComplex;
      t->text = "complex<" + t->element->text + ">";
      t->bits = 2 * t->element->bits;
      return OkStatus();
    }
    case kVhloFunctionType:  // function_v1
      return FunctionTypeBody(r, t);
    case kVhloRankedTensorType:    // ranked_tensor_v1
    case kVhloRankedTensorWithEncodingType:  // ranked_tensor_v1 with an encoding
      return TensorTypeBody(r, code == kVhloRankedTensorWithEncodingType, t);
    case kVhloTokenType:
      t->kind = BcType::Kind::kToken;
      t->text = "!stablehlo.token";
      return OkStatus();
    case kVhloTupleType:    // tuple_v1
    case kVhloFutureType:  // future_v1
      return TupleTypeBody(r, code == kVhloTupleType ? BcType::Kind::kTuple : BcType::Kind::kFuture,
                           t);
    case kVhloQuantizedType:
    case kVhloQuantizedPerAxisType:
      return ReadQuantized(r, code == kVhloQuantizedPerAxisType, t);
    case kVhloUnrankedTensorType:  // unranked_tensor_v1
      return UnrankedTensorTypeBody(r, t);
    case kVhloWitnessType:
      t->kind = BcType::Kind::kText;
      t->text = "!shape.witness";
      return OkStatus();
    case kVhloNoneType:
      t->kind = BcType::Kind::kNone;
      t->text = "none";
      return OkStatus();
    case kVhloRankedBufferType: {  // ranked_buffer_v1
      PLUGRT_RETURN_IF_ERROR(ReadSignedList(r, &t->dims));
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &t->element));
      t->kind = BcType::Kind::kBuffer;
      t->text = "memref<" + FormatDims(t->dims) + t->element->text + ">";
      return OkStatus();
    }
    default:
      return InvalidArgument("bytecode: at byte ", at, ": unknown vhlo type kind ", code);
  }
}

// The parameters VHLO's and builtin's function, tensor, tuple and unranked
// tensor types share (same order in both encodings).
Status Decoder::FunctionTypeBody(EncodingReader& r, BcType* t) {
  PLUGRT_RETURN_IF_ERROR(ReadTypeList(r, &t->types));
  PLUGRT_RETURN_IF_ERROR(ReadTypeList(r, &t->results));
  t->kind = BcType::Kind::kFunction;
  t->text = "(";
  for (size_t i = 0; i < t->types.size(); ++i) {
    t->text += (i ? ", " : "") + t->types[i]->text;
    if (t->text.size() > max_text_) return r.Error("function type spelling too large");
  }
  t->text += ") -> (";
  for (size_t i = 0; i < t->results.size(); ++i) {
    t->text += (i ? ", " : "") + t->results[i]->text;
    if (t->text.size() > max_text_) return r.Error("function type spelling too large");
  }
  t->text += ")";
  return OkStatus();
}

Status Decoder::TensorTypeBody(EncodingReader& r, bool with_encoding, BcType* t) {
  const BcAttr* encoding = nullptr;
  if (with_encoding) PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &encoding));
  PLUGRT_RETURN_IF_ERROR(ReadSignedList(r, &t->dims));
  for (int64_t& d : t->dims) {
    if (d < 0 && d != INT64_MIN) return r.Error("tensor dimension ", d);
  }
  PLUGRT_RETURN_IF_ERROR(ReadType(r, &t->element));
  if (t->element->kind != BcType::Kind::kElement && t->element->kind != BcType::Kind::kComplex &&
      t->element->kind != BcType::Kind::kQuantized) {
    return r.Error("tensor of ", t->element->text);
  }
  t->kind = BcType::Kind::kTensor;
  FinishTensorText(t, encoding);
  return OkStatus();
}

Status Decoder::TupleTypeBody(EncodingReader& r, BcType::Kind kind, BcType* t) {
  PLUGRT_RETURN_IF_ERROR(ReadTypeList(r, &t->types));
  t->kind = kind;
  t->text = kind == BcType::Kind::kTuple ? "tuple<" : "!stablehlo.future<";
  for (size_t i = 0; i < t->types.size(); ++i) {
    t->text += (i ? ", " : "") + t->types[i]->text;
    if (t->text.size() > max_text_) return r.Error("tuple type spelling too large");
  }
  t->text += ">";
  return OkStatus();
}

Status Decoder::UnrankedTensorTypeBody(EncodingReader& r, BcType* t) {
  PLUGRT_RETURN_IF_ERROR(ReadType(r, &t->element));
  t->kind = BcType::Kind::kUnrankedTensor;
  t->text = "tensor<*x" + t->element->text + ">";
  return OkStatus();
}

Status Decoder::DecodeBuiltinType(EncodingReader& r, BcType* t) {
  size_t at = r.offset();
  uint64_t code = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&code));
  t->kind = BcType::Kind::kElement;
  switch (code) {
    case 0: {  // IntegerType: width << 2 | signedness
      uint64_t v = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&v));
      uint64_t width = v >> 2;
      if (width == 0 || width > 64) return r.Error("integer type of ", width, " bits");
      t->bits = static_cast<int>(width);
      t->text = StrCat((v & 3) == 2 ? "ui" : ((v & 3) == 1 ? "si" : "i"), width);
      return OkStatus();
    }
    case 1: t->text = "index"; t->bits = 64; return OkStatus();
    case 3: t->text = "bf16"; t->bits = 16; t->is_float = true; return OkStatus();
    case 4: t->text = "f16"; t->bits = 16; t->is_float = true; return OkStatus();
    case 5: t->text = "f32"; t->bits = 32; t->is_float = true; return OkStatus();
    case 6: t->text = "f64"; t->bits = 64; t->is_float = true; return OkStatus();
    case 12: t->kind = BcType::Kind::kNone; t->text = "none"; return OkStatus();
    case 9: {
      PLUGRT_RETURN_IF_ERROR(ReadType(r, &t->element));
      t->kind = BcType::Kind::kComplex;
      t->text = "complex<" + t->element->text + ">";
      return OkStatus();
    }
    case 2:  // FunctionType
      return FunctionTypeBody(r, t);
    case 13:  // RankedTensorType
    case 14:  // RankedTensorType with an encoding
      return TensorTypeBody(r, code == 14, t);
    case 15:  // TupleType
      return TupleTypeBody(r, BcType::Kind::kTuple, t);
    case 18:  // UnrankedTensorType
      return UnrankedTensorTypeBody(r, t);
    default:
      return InvalidArgument("bytecode: at byte ", at, ": builtin type kind ", code,
                             " (memref, vector or a float type the IR lacks) is not supported");
  }
}

// ------------------------------------------------------------------------ IR

Status Decoder::DefineValue(EncodingReader& r, int64_t* id) {
  Scope& scope = scopes_.back();
  if (scope.next.empty() || scope.next.back() >= scope.values.size()) {
    return r.Error("more values defined than the region declared");
  }
  *id = file_->num_values++;
  scope.values[scope.next.back()++] = *id;
  return OkStatus();
}

Status Decoder::SkipUseListOrders(EncodingReader& r, uint64_t num_values) {
  uint64_t n = 1;
  if (num_values > 1) PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t index = 0, count = 0;
    bool pairs = false;
    if (num_values > 1) PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
    PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&count, &pairs));
    if (count > r.remaining()) return r.Error("use-list order longer than the data");
    for (uint64_t j = 0; j < count; ++j) PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
  }
  return OkStatus();
}

Status Decoder::ParseBlock(EncodingReader& r, BcBlock* block, bool, uint64_t* num_ops) {
  bool has_args = false;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(num_ops, &has_args));
  if (*num_ops > r.remaining()) return r.Error("block claims ", *num_ops, " operations");
  if (has_args) {
    uint64_t n = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
    for (uint64_t i = 0; i < n; ++i) {
      const BcType* type = nullptr;
      const BcAttr* loc = nullptr;
      if (version_ >= kVersionElideBlockArgLoc) {
        size_t at = r.offset();
        uint64_t index = 0;
        bool has_loc = false;
        PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&index, &has_loc));
        PLUGRT_RETURN_IF_ERROR(ResolveType(index, at, &type));
        if (has_loc) PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &loc));
      } else {
        PLUGRT_RETURN_IF_ERROR(ReadType(r, &type));
        PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &loc));
      }
      int64_t id = 0;
      PLUGRT_RETURN_IF_ERROR(DefineValue(r, &id));
      block->arg_ids.push_back(id);
      block->arg_types.push_back(type);
    }
  }
  if (version_ >= kVersionUseListOrdering && has_args) {
    uint8_t has_orders = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadByte(&has_orders));
    if (has_orders) PLUGRT_RETURN_IF_ERROR(SkipUseListOrders(r, block->arg_ids.size()));
  }
  return OkStatus();
}

Status Decoder::ReadProperties(const EncodingReader& blob, const OpProperties* row, BcOp* op) {
  if (row == nullptr) {
    return blob.Error("properties of '", op->name,
                      "', an op plugrt knows without inherent attributes");
  }
  if (row->segments) {
    return blob.Error("'", op->name, "' sizes its operand groups with segment properties, "
                      "which plugrt does not read");
  }
  // The current attribute set, then the older one: the first that decodes
  // the blob exactly.
  Status first = OkStatus();
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt == 1 && row->older.empty()) break;
    EncodingReader pr = blob;
    std::vector<std::pair<std::string, const BcAttr*>> read;
    Status s = OkStatus();
    OpProperties::ForEach(attempt == 0 ? row->spec : row->older,
                          [&](const OpProperties::Property& p) {
                            if (!s.ok()) return;
                            const BcAttr* value = nullptr;
                            s = p.optional ? ReadOptionalAttr(pr, &value) : ReadAttr(pr, &value);
                            if (s.ok() && value != nullptr) {
                              read.emplace_back(std::string(p.name), value);
                            }
                          });
    if (s.ok() && !pr.empty()) {
      s = pr.Error("unexpected trailing bytes in the properties of ", op->name);
    }
    if (s.ok()) {
      for (auto& entry : read) op->attributes.push_back(std::move(entry));
      return OkStatus();
    }
    if (attempt == 0) first = s;
  }
  return first;
}

Status Decoder::ParseOp(EncodingReader& r, BcOp* op, size_t* num_regions, bool* isolated) {
  op->offset = r.offset();
  uint64_t name_index = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&name_index));
  if (name_index >= op_names_.size()) return r.Error("operation name index ", name_index);
  const OpName& name = op_names_[name_index];
  op->name = StrCat(dialects_[name.dialect], ".", name.name);
  const std::string_view dialect = dialects_[name.dialect];
  const VhloOpInfo* info = nullptr;
  const OpProperties* properties = nullptr;
  if (dialect == "vhlo") {
    info = FindVhloOp(name.name);
    if (info == nullptr) {
      return InvalidArgument("bytecode: at byte ", op->offset, ": unknown operation '", op->name,
                             "' (an op version newer than plugrt reads, or not a VHLO op)");
    }
  } else {
    properties = FindOpProperties(op->name);
    // The HLO dialects' ops without inherent attributes have no row; which
    // of them plugrt runs is the reader's to say. Other dialects' ops need
    // one.
    if (properties == nullptr && !IsHloDialect(dialect) &&
        op->name != "builtin.unrealized_conversion_cast") {
      return InvalidArgument("bytecode: at byte ", op->offset, ": unsupported operation '",
                             op->name, "'");
    }
  }
  uint8_t mask = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadByte(&mask));
  if (mask & 0x80) return r.Error("unknown bits in the operation encoding mask");
  PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &op->location));
  if (op->location->kind != BcAttr::Kind::kLocation) return r.Error("operation location is not a location");
  if (mask & kHasAttrs) {
    const BcAttr* dict = nullptr;
    PLUGRT_RETURN_IF_ERROR(ReadAttr(r, &dict));
    if (dict->kind != BcAttr::Kind::kDictionary) return r.Error("operation attributes are not a dictionary");
    for (const auto& [k, v] : dict->entries) op->attributes.emplace_back(k->str, v);
  }
  if (mask & kHasProperties) {
    if (version_ < kVersionNativeProperties) return r.Error("properties before bytecode version 5");
    size_t at = r.offset();
    uint64_t index = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
    if (!name.registered) {
      const BcAttr* dict = nullptr;
      PLUGRT_RETURN_IF_ERROR(ResolveAttr(index, at, &dict));
      if (dict->kind != BcAttr::Kind::kDictionary) return r.Error("properties are not a dictionary");
      for (const auto& [k, v] : dict->entries) op->attributes.emplace_back(k->str, v);
    } else {
      if (index >= properties_.size()) return r.Error("properties index ", index, " out of range");
      EncodingReader pr(properties_[index].first, properties_[index].second);
      if (info != nullptr) {
        for (std::string_view attr_name : info->attributes) {
          if (attr_name.empty()) break;
          const BcAttr* value = nullptr;
          PLUGRT_RETURN_IF_ERROR(ReadAttr(pr, &value));
          op->attributes.emplace_back(std::string(attr_name), value);
        }
        if (!pr.empty()) return pr.Error("unexpected trailing bytes in the properties of ", op->name);
      } else {
        PLUGRT_RETURN_IF_ERROR(ReadProperties(pr, properties, op));
      }
    }
  }
  if (mask & kHasResults) {
    PLUGRT_RETURN_IF_ERROR(ReadTypeList(r, &op->result_types));
  }
  if (mask & kHasOperands) {
    uint64_t n = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadCount(&n));
    for (uint64_t i = 0; i < n; ++i) {
      size_t at = r.offset();
      uint64_t index = 0;
      PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&index));
      const Scope& scope = scopes_.back();
      if (index >= scope.values.size() || scope.values[index] < 0) {
        return InvalidArgument("bytecode: at byte ", at, ": operand refers to value ", index,
                               ", which is not defined before its use");
      }
      op->operand_ids.push_back(scope.values[index]);
    }
  }
  if (mask & kHasSuccessors) return r.Error("operations with successor blocks are not supported");
  if ((mask & kHasUseListOrders) && version_ >= kVersionUseListOrdering) {
    PLUGRT_RETURN_IF_ERROR(SkipUseListOrders(r, op->result_types.size()));
  }
  *num_regions = 0;
  *isolated = false;
  if (mask & kHasInlineRegions) {
    uint64_t n = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadVarIntWithFlag(&n, isolated));
    if (n > r.remaining() + 1 || n > 64) return r.Error("operation claims ", n, " regions");
    *num_regions = static_cast<size_t>(n);
  }
  for (size_t i = 0; i < op->result_types.size(); ++i) {
    int64_t id = 0;
    PLUGRT_RETURN_IF_ERROR(DefineValue(r, &id));
    op->result_ids.push_back(id);
  }
  return OkStatus();
}

Status Decoder::ParseRegions(EncodingReader& outer, BcOp* op, size_t num_regions, bool isolated,
                             int depth) {
  if (depth > kMaxDepth) return outer.Error("regions nest deeper than ", kMaxDepth);
  std::optional<EncodingReader> section;
  EncodingReader* r = &outer;
  if (isolated && version_ >= kVersionLazyLoading) {
    uint8_t id = 0;
    std::string_view contents;
    size_t base = 0;
    PLUGRT_RETURN_IF_ERROR(outer.ReadSection(&id, &contents, &base));
    if (id != kIrSection) return outer.Error("expected an IR section for the regions of ", op->name);
    section.emplace(contents, base);
    r = &*section;
  }
  if (isolated) scopes_.emplace_back();
  for (size_t ri = 0; ri < num_regions; ++ri) {
    BcRegion& region = op->regions.emplace_back();
    uint64_t num_blocks = 0;
    PLUGRT_RETURN_IF_ERROR(r->ReadCount(&num_blocks));
    if (num_blocks == 0) continue;
    uint64_t num_values = 0;
    PLUGRT_RETURN_IF_ERROR(r->ReadCount(&num_values));
    Scope& scope = scopes_.back();
    size_t first = scope.values.size();
    scope.values.resize(first + num_values, -1);
    scope.next.push_back(first);
    region.blocks.resize(num_blocks);
    for (BcBlock& block : region.blocks) {
      uint64_t num_ops = 0;
      PLUGRT_RETURN_IF_ERROR(ParseBlock(*r, &block, &block == &region.blocks[0], &num_ops));
      for (uint64_t i = 0; i < num_ops; ++i) {
        auto child = std::make_unique<BcOp>();
        size_t child_regions = 0;
        bool child_isolated = false;
        PLUGRT_RETURN_IF_ERROR(ParseOp(*r, child.get(), &child_regions, &child_isolated));
        if (child_regions > 0) {
          PLUGRT_RETURN_IF_ERROR(
              ParseRegions(*r, child.get(), child_regions, child_isolated, depth + 1));
        }
        block.ops.push_back(std::move(child));
      }
    }
    Scope& after = scopes_.back();
    after.values.resize(first);
    after.next.pop_back();
  }
  if (isolated) scopes_.pop_back();
  if (section && !section->empty()) return section->Error("trailing data after regions");
  return OkStatus();
}

Status Decoder::Run() {
  EncodingReader r(bytes_, 0);
  std::string_view magic;
  if (bytes_.size() < 4 || bytes_.substr(0, 4) != std::string_view("ML\xEFR", 4)) {
    return InvalidArgument("bytecode: at byte 0: missing the MLIR bytecode magic 'ML\\xEFR'");
  }
  PLUGRT_RETURN_IF_ERROR(r.ReadBytes(4, &magic));
  size_t version_at = r.offset();
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&version_));
  if (version_ > kMaxBytecodeVersion) {
    return InvalidArgument("bytecode: at byte ", version_at, ": bytecode version ", version_,
                           " is newer than the newest plugrt reads (", kMaxBytecodeVersion, ")");
  }
  file_->version = version_;
  std::string_view producer;
  PLUGRT_RETURN_IF_ERROR(r.ReadNullTerminated(&producer));
  file_->producer = std::string(producer);

  std::optional<std::pair<std::string_view, size_t>> sections[kNumSections];
  while (!r.empty()) {
    size_t at = r.offset();
    uint8_t id = 0;
    std::string_view contents;
    size_t base = 0;
    PLUGRT_RETURN_IF_ERROR(r.ReadSection(&id, &contents, &base));
    if (sections[id]) {
      return InvalidArgument("bytecode: at byte ", at, ": section ", int{id}, " appears twice");
    }
    sections[id] = std::make_pair(contents, base);
  }
  for (uint8_t id : {kStringSection, kDialectSection, kAttrTypeSection, kAttrTypeOffsetSection,
                     kIrSection}) {
    if (!sections[id]) {
      return InvalidArgument("bytecode: at byte ", bytes_.size(), ": missing section ", int{id});
    }
  }
  PLUGRT_RETURN_IF_ERROR(ParseStrings(sections[kStringSection]->first,
                                      sections[kStringSection]->second));
  if (sections[kPropertiesSection]) {
    PLUGRT_RETURN_IF_ERROR(ParseProperties(sections[kPropertiesSection]->first,
                                           sections[kPropertiesSection]->second));
  }
  PLUGRT_RETURN_IF_ERROR(ParseDialects(sections[kDialectSection]->first,
                                       sections[kDialectSection]->second));
  if (sections[kResourceOffsetSection]) {
    std::pair<std::string_view, size_t> data{std::string_view(), 0};
    if (sections[kResourceSection]) data = *sections[kResourceSection];
    PLUGRT_RETURN_IF_ERROR(ParseResources(data.first, data.second,
                                          sections[kResourceOffsetSection]->first,
                                          sections[kResourceOffsetSection]->second));
  }
  attr_type_data_ = sections[kAttrTypeSection]->first;
  attr_type_base_ = sections[kAttrTypeSection]->second;
  PLUGRT_RETURN_IF_ERROR(ParseAttrTypeOffsets(sections[kAttrTypeOffsetSection]->first,
                                              sections[kAttrTypeOffsetSection]->second));

  // The IR section holds one block: the top-level ops.
  EncodingReader ir(sections[kIrSection]->first, sections[kIrSection]->second);
  scopes_.emplace_back();
  scopes_.back().next.push_back(0);
  BcBlock top;
  uint64_t num_ops = 0;
  PLUGRT_RETURN_IF_ERROR(ParseBlock(ir, &top, true, &num_ops));
  for (uint64_t i = 0; i < num_ops; ++i) {
    auto op = std::make_unique<BcOp>();
    size_t num_regions = 0;
    bool isolated = false;
    PLUGRT_RETURN_IF_ERROR(ParseOp(ir, op.get(), &num_regions, &isolated));
    if (num_regions > 0) {
      PLUGRT_RETURN_IF_ERROR(ParseRegions(ir, op.get(), num_regions, isolated, 1));
    }
    file_->top_ops.push_back(std::move(op));
  }
  if (!ir.empty()) return ir.Error("trailing data in the IR section");
  return OkStatus();
}

}  // namespace

std::string QuoteMlirString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u >= 0x7F) {
      char buf[4];
      std::snprintf(buf, sizeof(buf), "\\%02X", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool IsBytecode(std::string_view bytes) {
  return bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("ML\xEFR", 4);
}

StatusOr<std::unique_ptr<BcFile>> DecodeBytecode(std::string_view bytes) {
  auto file = std::make_unique<BcFile>();
  Decoder decoder(bytes, file.get());
  PLUGRT_RETURN_IF_ERROR(decoder.Run());
  return file;
}

}  // namespace plugrt::shlo::bytecode
