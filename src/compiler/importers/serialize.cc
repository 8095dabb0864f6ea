// plugrt compiler: the binary IR (serialize.h says the layout).
//
// Size: the writer and the loader of one format, kept side by side so the
// two directions cannot drift; the loader's checks of hostile bytes are
// most of it.
#include "compiler/importers/serialize.h"

#include <bit>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/byte_io.h"
#include "common/content_hash.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo {
namespace {

constexpr std::string_view kMagic = "PLUGRTIR";
static_assert(kMagic.size() + 4 + 8 == internal::kModuleHeaderSize);

// Deeper than the parser's own limit (256, counting more kinds of nesting),
// so every parsed module loads; recursion stays far from the stack's end.
constexpr int kMaxDepth = 512;
// The parser's limits on tensor types and dense literals.
constexpr size_t kMaxRank = 64;
constexpr int64_t kMaxDim = int64_t{1} << 48;
constexpr int64_t kMaxDenseElements = int64_t{1} << 40;

// Stable codes of the encoding; enum values of the IR may change order.
// kTypeQuantized: a tensor or element type over a quantized element type,
// stored as its MLIR text (read back by the type parser).
enum TypeCode : uint8_t {
  kTypeToken = 0, kTypeElement, kTypeTensor, kTypeTuple, kTypeUnsupported, kTypeQuantized
};

constexpr Attribute::Kind kAttrKinds[] = {
    Attribute::Kind::kUnit,       Attribute::Kind::kBool,         Attribute::Kind::kInteger,
    Attribute::Kind::kFloat,      Attribute::Kind::kString,       Attribute::Kind::kType,
    Attribute::Kind::kSymbolRef,  Attribute::Kind::kArray,        Attribute::Kind::kDenseArray,
    Attribute::Kind::kDenseElements, Attribute::Kind::kDictionary, Attribute::Kind::kEnum,
    Attribute::Kind::kStruct,
};
constexpr size_t kNumAttrKinds = sizeof(kAttrKinds) / sizeof(kAttrKinds[0]);

uint64_t AttrKindCode(Attribute::Kind kind) {
  for (size_t i = 0; i < kNumAttrKinds; ++i) {
    if (kAttrKinds[i] == kind) return i;
  }
  return kNumAttrKinds;  // unreachable for a valid kind; fails to load
}

// Bits of an attribute's field mask: which fields are stored.
enum AttrField : uint32_t {
  kFieldBool = 1u << 0,
  kFieldInt = 1u << 1,
  kFieldFloat = 1u << 2,
  kFieldStr = 1u << 3,
  kFieldEnumValue = 1u << 4,
  kFieldType = 1u << 5,
  kFieldElements = 1u << 6,
  kFieldInts = 1u << 7,
  kFieldFloats = 1u << 8,
  kFieldFields = 1u << 9,
  kFieldDense = 1u << 10,
  kAllFields = (1u << 11) - 1,
};

// ---------------------------------------------------------------- writer

class Writer {
 public:
  std::string Run(const Module& module) {
    Str(module.name);
    Attrs(module.attributes);
    Loc(module.location);
    U(module.functions.size());
    for (const auto& f : module.functions) Func(*f);

    std::string payload;
    ByteWriter table(payload);
    table.Varint(strings_.size());
    for (std::string_view s : strings_) {
      table.Varint(s.size());
      table.Bytes(s);
    }
    payload += body_;

    std::string out(kMagic);
    ByteWriter header(out);
    header.U32(kModuleFormatVersion);
    header.U64(payload.size());
    header.Bytes(payload);
    header.U64(Checksum64(payload));
    return out;
  }

 private:
  void U(uint64_t v) { ByteWriter(body_).Varint(v); }
  void S(int64_t v) { ByteWriter(body_).SignedVarint(v); }
  void Byte(uint8_t v) { body_.push_back(static_cast<char>(v)); }
  // Strings go to the table in first-use order, which keeps output deterministic.
  void Str(std::string_view s) {
    auto [it, inserted] = string_index_.emplace(s, strings_.size());
    if (inserted) strings_.push_back(s);
    U(it->second);
  }

  void Loc(const Location& loc) {
    // Tag bit 0: no file name; bit 1: a source location follows (MLIR text;
    // Str keeps views, so the text lives in source_text_, node-based).
    const std::string* source = nullptr;
    if (loc.source) {
      auto [it, inserted] = source_text_.try_emplace(loc.source.get());
      if (inserted) it->second = loc.source->ToMlir();
      if (it->second != "unknown") source = &it->second;
    }
    U((loc.file ? 0 : 1) | (source != nullptr ? 2 : 0));
    if (loc.file) Str(*loc.file);
    S(loc.line);
    S(loc.column);
    if (source != nullptr) Str(*source);
  }

  void TypeOf(const Type& t) {
    if (t.is_quantized()) {
      Byte(kTypeQuantized);
      // The string table keeps views: the text must outlive the writer's use.
      Str(owned_texts_.emplace_back(t.ToString()));
      return;
    }
    switch (t.kind()) {
      case Type::Kind::kToken:
        Byte(kTypeToken);
        return;
      case Type::Kind::kElement:
        Byte(kTypeElement);
        Str(ElementTypeName(t.element_type()));
        return;
      case Type::Kind::kTensor:
        Byte(kTypeTensor);
        Str(ElementTypeName(t.element_type()));
        U(t.dims().size());
        for (int64_t d : t.dims()) S(d);
        return;
      case Type::Kind::kTuple:
        Byte(kTypeTuple);
        U(t.tuple_elements().size());
        for (const Type& e : t.tuple_elements()) TypeOf(e);
        return;
      case Type::Kind::kUnsupported:
        Byte(kTypeUnsupported);
        Str(t.unsupported_text());
        return;
    }
  }

  void Attrs(const std::vector<NamedAttribute>& attrs) {
    U(attrs.size());
    for (const auto& [name, value] : attrs) {
      Str(name);
      Attr(value);
    }
  }

  void Attr(const Attribute& a) {
    U(AttrKindCode(a.kind));
    uint32_t mask = 0;
    if (a.bool_value) mask |= kFieldBool;
    if (a.int_value != 0) mask |= kFieldInt;
    if (std::bit_cast<uint64_t>(a.float_value) != 0) mask |= kFieldFloat;
    if (!a.str.empty()) mask |= kFieldStr;
    if (!a.enum_value.empty()) mask |= kFieldEnumValue;
    // A default Type is the token type, so the token type needs no bytes.
    if (!a.type.is_token()) mask |= kFieldType;
    if (!a.elements.empty()) mask |= kFieldElements;
    if (!a.ints.empty()) mask |= kFieldInts;
    if (!a.floats.empty()) mask |= kFieldFloats;
    if (!a.fields.empty()) mask |= kFieldFields;
    if (a.dense) mask |= kFieldDense;
    U(mask);
    if (mask & kFieldInt) S(a.int_value);
    if (mask & kFieldFloat) ByteWriter(body_).Fixed(std::bit_cast<uint64_t>(a.float_value), 8);
    if (mask & kFieldStr) Str(a.str);
    if (mask & kFieldEnumValue) Str(a.enum_value);
    if (mask & kFieldType) TypeOf(a.type);
    if (mask & kFieldElements) {
      U(a.elements.size());
      for (const Attribute& e : a.elements) Attr(e);
    }
    if (mask & kFieldInts) {
      U(a.ints.size());
      for (int64_t v : a.ints) S(v);
    }
    if (mask & kFieldFloats) {
      U(a.floats.size());
      for (double v : a.floats) ByteWriter(body_).Fixed(std::bit_cast<uint64_t>(v), 8);
    }
    if (mask & kFieldFields) Attrs(a.fields);
    if (mask & kFieldDense) {
      // 0: inline data; k > 0: the same data as dense literal k - 1.
      auto [it, inserted] = dense_index_.emplace(a.dense.get(), dense_index_.size());
      if (!inserted) {
        U(it->second + 1);
      } else {
        U(0);
        Byte(a.dense->splat ? 1 : 0);
        U(a.dense->bytes.size());
        body_.append(reinterpret_cast<const char*>(a.dense->bytes.data()), a.dense->bytes.size());
      }
    }
  }

  void Define(const Value* v) {
    value_index_[v] = values_.size();
    values_.push_back(v);
  }

  void RegionOf(const Region* region) {
    if (region == nullptr) {
      U(0);  // fails to load: a region needs a block
      return;
    }
    const size_t saved = values_.size();
    U(region->blocks.size());
    for (const auto& block : region->blocks) {
      U(block->arguments.size());
      for (const auto& arg : block->arguments) {
        TypeOf(arg->type);
        Str(arg->name);
        Define(arg.get());
      }
      U(block->operations.size());
      for (const auto& op : block->operations) Op(*op);
    }
    // The region's values go out of scope.
    for (size_t i = saved; i < values_.size(); ++i) value_index_.erase(values_[i]);
    values_.resize(saved);
  }

  void Op(const Operation& op) {
    Str(op.name);
    Loc(op.location);
    U(op.operands.size());
    for (const Value* v : op.operands) {
      auto it = v == nullptr ? value_index_.end() : value_index_.find(v);
      U(it == value_index_.end() ? 0 : it->second + 1);
    }
    Attrs(op.attributes);
    U(op.regions.size());
    for (const auto& region : op.regions) RegionOf(region.get());
    // Results come after the regions: a region cannot use its op's results.
    U(op.results.size());
    for (const auto& result : op.results) {
      TypeOf(result->type);
      Str(result->name);
    }
    for (const auto& result : op.results) Define(result.get());
  }

  void Func(const Function& f) {
    value_index_.clear();
    values_.clear();
    Str(f.name);
    Byte(f.is_public ? 1 : 0);
    Loc(f.location);
    U(f.input_types.size());
    for (const Type& t : f.input_types) TypeOf(t);
    U(f.result_types.size());
    for (const Type& t : f.result_types) TypeOf(t);
    U(f.arg_attributes.size());
    for (const auto& attrs : f.arg_attributes) Attrs(attrs);
    U(f.result_attributes.size());
    for (const auto& attrs : f.result_attributes) Attrs(attrs);
    Attrs(f.attributes);
    RegionOf(f.body.get());
  }

  std::string body_;
  std::deque<std::string> owned_texts_;  // texts made while writing (quantized types)
  std::vector<std::string_view> strings_;
  std::unordered_map<std::string_view, uint64_t> string_index_;
  std::vector<const Value*> values_;
  std::unordered_map<const Value*, uint64_t> value_index_;
  std::unordered_map<const DenseData*, uint64_t> dense_index_;
  std::unordered_map<const SourceLocation*, std::string> source_text_;
};

// ---------------------------------------------------------------- reader

class Reader {
 public:
  Reader(std::string_view data, size_t base) : in_(data, "serialized module", base) {
    // Copied strings may total a generous multiple of the input (short
    // indices name long names), never an unbounded amount.
    string_budget_ = 64 * static_cast<uint64_t>(data.size()) + (uint64_t{1} << 20);
  }

  StatusOr<std::unique_ptr<Module>> Run() {
    PLUGRT_RETURN_IF_ERROR(ReadStringTable());
    auto module = std::make_unique<Module>();
    PLUGRT_RETURN_IF_ERROR(OwnedString(&module->name, "module name"));
    PLUGRT_RETURN_IF_ERROR(ReadAttrs(&module->attributes, "module attribute"));
    PLUGRT_RETURN_IF_ERROR(ReadLoc(&module->location));
    size_t count = 0;
    PLUGRT_RETURN_IF_ERROR(Count(&count, "function"));
    std::unordered_set<std::string> names;
    for (size_t i = 0; i < count; ++i) {
      size_t start = in_.position();
      auto func = std::make_unique<Function>();
      PLUGRT_RETURN_IF_ERROR(ReadFunction(func.get()));
      if (!names.insert(func->name).second) {
        return ErrorAt(start, "function @", func->name, " is defined twice");
      }
      module->functions.push_back(std::move(func));
    }
    PLUGRT_RETURN_IF_ERROR(in_.ExpectEnd("the module"));
    return module;
  }

 private:
  template <typename... Args>
  Status ErrorAt(size_t pos, const Args&... args) const {
    return in_.ErrorAt(pos, args...);
  }
  template <typename... Args>
  Status Error(const Args&... args) const {
    return in_.Error(args...);
  }
  size_t Left() const { return in_.left(); }

  class DepthGuard {
   public:
    explicit DepthGuard(Reader* r) : r_(r) { ++r_->depth_; }
    ~DepthGuard() { --r_->depth_; }
    Status Check() const {
      if (r_->depth_ > kMaxDepth) return r_->Error("nesting deeper than ", kMaxDepth);
      return OkStatus();
    }

   private:
    Reader* r_;
  };

  Status Varint(uint64_t* out, const char* what) { return in_.Varint(out, what); }
  Status Signed(int64_t* out, const char* what) { return in_.SignedVarint(out, what); }
  Status Count(size_t* out, const char* what, size_t min_bytes = 1) {
    return in_.Count(out, what, min_bytes);
  }
  Status Byte(uint8_t* out, const char* what) { return in_.U8(out, what); }
  Status Fixed64(uint64_t* out, const char* what) { return in_.U64(out, what); }

  Status ReadStringTable() {
    size_t count = 0;
    PLUGRT_RETURN_IF_ERROR(Count(&count, "string table entry"));
    strings_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      size_t len = 0;
      PLUGRT_RETURN_IF_ERROR(Count(&len, "string length (bytes)"));
      std::string_view text;
      PLUGRT_RETURN_IF_ERROR(in_.Bytes(len, &text, "string"));
      strings_.push_back(text);
    }
    files_.resize(count);
    sources_.resize(count);
    return OkStatus();
  }
  Status StringRef(std::string_view* out, const char* what, size_t* index = nullptr) {
    size_t start = in_.position();
    uint64_t v = 0;
    PLUGRT_RETURN_IF_ERROR(Varint(&v, what));
    if (v >= strings_.size()) {
      return ErrorAt(start, what, " names string ", v, " but the table has ", strings_.size());
    }
    *out = strings_[v];
    if (index != nullptr) *index = static_cast<size_t>(v);
    return OkStatus();
  }
  Status OwnedString(std::string* out, const char* what) {
    size_t start = in_.position();
    std::string_view s;
    PLUGRT_RETURN_IF_ERROR(StringRef(&s, what));
    if (s.size() > string_budget_) {
      return ErrorAt(start, "strings copied out of the table exceed ", 64,
                     " times the input size");
    }
    string_budget_ -= s.size();
    out->assign(s);
    return OkStatus();
  }

  Status ReadLoc(Location* loc) {
    // Tag bit 0: no file name; bit 1: a source location follows.
    uint64_t tag = 0;
    size_t start = in_.position();
    PLUGRT_RETURN_IF_ERROR(Varint(&tag, "location"));
    if (tag > 3) return ErrorAt(start, "bad location tag ", tag);
    if ((tag & 1) == 0) {
      std::string_view name;
      size_t index = 0;
      PLUGRT_RETURN_IF_ERROR(StringRef(&name, "location file", &index));
      // One shared file name per string, as the parser shares one per file.
      if (!files_[index]) files_[index] = std::make_shared<const std::string>(name);
      loc->file = files_[index];
    }
    int64_t line = 0, column = 0;
    start = in_.position();
    PLUGRT_RETURN_IF_ERROR(Signed(&line, "location line"));
    PLUGRT_RETURN_IF_ERROR(Signed(&column, "location column"));
    if (line < INT_MIN || line > INT_MAX || column < INT_MIN || column > INT_MAX) {
      return ErrorAt(start, "location ", line, ":", column, " out of range");
    }
    loc->line = static_cast<int>(line);
    loc->column = static_cast<int>(column);
    if (tag & 2) {
      std::string_view text;
      size_t index = 0;
      start = in_.position();
      PLUGRT_RETURN_IF_ERROR(StringRef(&text, "source location", &index));
      // Ops of one source line share one tree, as they do when parsed.
      auto& cached = sources_[index];
      if (!cached) {
        auto parsed = ParseSourceLocation(text);
        if (!parsed.ok()) {
          return ErrorAt(start, "bad source location: ", parsed.status().message());
        }
        cached = *std::move(parsed);
      }
      loc->source = cached;
    }
    return OkStatus();
  }

  Status ElementTypeRef(ElementType* out) {
    size_t start = in_.position();
    std::string_view name;
    PLUGRT_RETURN_IF_ERROR(StringRef(&name, "element type"));
    auto et = ParseElementTypeName(name);
    if (!et) return ErrorAt(start, "unknown element type '", name, "'");
    *out = *et;
    return OkStatus();
  }

  Status ReadType(Type* out) {
    DepthGuard guard(this);
    PLUGRT_RETURN_IF_ERROR(guard.Check());
    size_t start = in_.position();
    uint8_t tag = 0;
    PLUGRT_RETURN_IF_ERROR(Byte(&tag, "type"));
    switch (tag) {
      case kTypeToken:
        *out = Type::Token();
        return OkStatus();
      case kTypeElement: {
        ElementType et;
        PLUGRT_RETURN_IF_ERROR(ElementTypeRef(&et));
        *out = Type::Element(et);
        return OkStatus();
      }
      case kTypeTensor: {
        ElementType et;
        PLUGRT_RETURN_IF_ERROR(ElementTypeRef(&et));
        size_t rank_pos = in_.position();
        size_t rank = 0;
        PLUGRT_RETURN_IF_ERROR(Count(&rank, "tensor rank"));
        if (rank > kMaxRank) return ErrorAt(rank_pos, "tensor rank ", rank, " above ", kMaxRank);
        std::vector<int64_t> dims(rank);
        for (size_t i = 0; i < rank; ++i) {
          size_t dim_pos = in_.position();
          PLUGRT_RETURN_IF_ERROR(Signed(&dims[i], "dimension size"));
          if (dims[i] != kDynamicSize && (dims[i] < 0 || dims[i] > kMaxDim)) {
            return ErrorAt(dim_pos, "bad dimension size ", dims[i]);
          }
        }
        *out = Type::Tensor(et, std::move(dims));
        return OkStatus();
      }
      case kTypeTuple: {
        size_t count = 0;
        PLUGRT_RETURN_IF_ERROR(Count(&count, "tuple element"));
        std::vector<Type> elements;
        for (size_t i = 0; i < count; ++i) {
          Type e;
          PLUGRT_RETURN_IF_ERROR(ReadType(&e));
          elements.push_back(std::move(e));
        }
        *out = Type::Tuple(std::move(elements));
        return OkStatus();
      }
      case kTypeUnsupported: {
        std::string text;
        PLUGRT_RETURN_IF_ERROR(OwnedString(&text, "type text"));
        *out = Type::Unsupported(std::move(text));
        return OkStatus();
      }
      case kTypeQuantized: {
        std::string text;
        PLUGRT_RETURN_IF_ERROR(OwnedString(&text, "quantized type text"));
        StatusOr<Type> type = ParseTypeText(text);
        if (!type.ok() || !type->is_quantized()) {
          return ErrorAt(start, "bad quantized type '", text, "'");
        }
        *out = std::move(*type);
        return OkStatus();
      }
      default:
        return ErrorAt(start, "unknown type tag ", static_cast<int>(tag));
    }
  }

  Status ReadAttrs(std::vector<NamedAttribute>* out, const char* what) {
    size_t count = 0;
    PLUGRT_RETURN_IF_ERROR(Count(&count, what, 2));
    for (size_t i = 0; i < count; ++i) {
      NamedAttribute named;
      PLUGRT_RETURN_IF_ERROR(OwnedString(&named.first, "attribute name"));
      PLUGRT_RETURN_IF_ERROR(ReadAttr(&named.second));
      out->push_back(std::move(named));
    }
    return OkStatus();
  }

  Status ReadDense(std::shared_ptr<const DenseData>* out) {
    size_t start = in_.position();
    uint64_t ref = 0;
    PLUGRT_RETURN_IF_ERROR(Varint(&ref, "dense literal"));
    if (ref != 0) {
      if (ref > denses_.size()) {
        return ErrorAt(start, "dense literal names earlier literal ", ref - 1, " but only ",
                       denses_.size(), " came before");
      }
      *out = denses_[ref - 1];
      return OkStatus();
    }
    auto data = std::make_shared<DenseData>();
    uint8_t splat = 0;
    size_t flag_pos = in_.position();
    PLUGRT_RETURN_IF_ERROR(Byte(&splat, "dense splat flag"));
    if (splat > 1) return ErrorAt(flag_pos, "bad dense splat flag ", static_cast<int>(splat));
    data->splat = splat == 1;
    size_t len = 0;
    PLUGRT_RETURN_IF_ERROR(Count(&len, "dense literal (bytes)"));
    std::string_view bytes;
    PLUGRT_RETURN_IF_ERROR(in_.Bytes(len, &bytes, "dense literal"));
    data->bytes.resize(len);
    if (len > 0) std::memcpy(data->bytes.data(), bytes.data(), len);
    denses_.push_back(data);
    *out = std::move(data);
    return OkStatus();
  }

  // The parser's guarantees for dense literals, which the printer and the
  // CPU backend rely on when they index the data.
  Status CheckDense(const Attribute& a, size_t start) const {
    if (a.kind != Attribute::Kind::kDenseElements) {
      if (a.dense) return ErrorAt(start, "dense data on a non-dense attribute");
      return OkStatus();
    }
    if (!a.dense) {
      if (a.type.kind() != Type::Kind::kUnsupported) {
        return ErrorAt(start, "dense literal of type ", a.type.ToString(), " has no data");
      }
      return OkStatus();
    }
    if (!a.type.is_tensor() || !a.type.has_static_shape()) {
      return ErrorAt(start, "dense literal needs a static tensor type, not ", a.type.ToString());
    }
    int64_t n = a.type.num_elements();
    if (n < 0 || n > kMaxDenseElements) {
      return ErrorAt(start, "dense literal type ", a.type.ToString(), " is too large");
    }
    size_t eb = static_cast<size_t>(StorageBytes(a.type.element_type()));
    size_t have = a.dense->bytes.size();
    bool ok = a.dense->splat ? have == eb : have % eb == 0 && have / eb == static_cast<size_t>(n);
    if (!ok) {
      return ErrorAt(start, "dense literal holds ", have, " bytes, which does not fit ",
                     a.dense->splat ? "a splat of " : "", a.type.ToString());
    }
    return OkStatus();
  }

  Status ReadAttr(Attribute* a) {
    DepthGuard guard(this);
    PLUGRT_RETURN_IF_ERROR(guard.Check());
    size_t start = in_.position();
    uint64_t code = 0;
    PLUGRT_RETURN_IF_ERROR(Varint(&code, "attribute kind"));
    if (code >= kNumAttrKinds) return ErrorAt(start, "unknown attribute kind ", code);
    a->kind = kAttrKinds[code];
    size_t mask_pos = in_.position();
    uint64_t mask = 0;
    PLUGRT_RETURN_IF_ERROR(Varint(&mask, "attribute field mask"));
    if (mask & ~uint64_t{kAllFields}) {
      return ErrorAt(mask_pos, "unknown attribute fields in mask 0x", std::hex, mask);
    }
    a->bool_value = (mask & kFieldBool) != 0;
    if (mask & kFieldInt) PLUGRT_RETURN_IF_ERROR(Signed(&a->int_value, "integer attribute"));
    if (mask & kFieldFloat) {
      uint64_t bits = 0;
      PLUGRT_RETURN_IF_ERROR(Fixed64(&bits, "float attribute"));
      a->float_value = std::bit_cast<double>(bits);
    }
    if (mask & kFieldStr) PLUGRT_RETURN_IF_ERROR(OwnedString(&a->str, "attribute string"));
    if (mask & kFieldEnumValue) {
      PLUGRT_RETURN_IF_ERROR(OwnedString(&a->enum_value, "enum value"));
    }
    if (mask & kFieldType) PLUGRT_RETURN_IF_ERROR(ReadType(&a->type));
    if (mask & kFieldElements) {
      size_t count = 0;
      PLUGRT_RETURN_IF_ERROR(Count(&count, "array element", 2));
      for (size_t i = 0; i < count; ++i) {
        Attribute e;
        PLUGRT_RETURN_IF_ERROR(ReadAttr(&e));
        a->elements.push_back(std::move(e));
      }
    }
    if (mask & kFieldInts) {
      size_t count = 0;
      PLUGRT_RETURN_IF_ERROR(Count(&count, "dense array integer"));
      a->ints.resize(count);
      for (size_t i = 0; i < count; ++i) {
        PLUGRT_RETURN_IF_ERROR(Signed(&a->ints[i], "dense array integer"));
      }
    }
    if (mask & kFieldFloats) {
      size_t count = 0;
      PLUGRT_RETURN_IF_ERROR(Count(&count, "dense array float", 8));
      a->floats.resize(count);
      for (size_t i = 0; i < count; ++i) {
        uint64_t bits = 0;
        PLUGRT_RETURN_IF_ERROR(Fixed64(&bits, "dense array float"));
        a->floats[i] = std::bit_cast<double>(bits);
      }
    }
    if (mask & kFieldFields) PLUGRT_RETURN_IF_ERROR(ReadAttrs(&a->fields, "attribute field"));
    if (mask & kFieldDense) PLUGRT_RETURN_IF_ERROR(ReadDense(&a->dense));
    if (a->kind == Attribute::Kind::kDenseArray && a->type.kind() != Type::Kind::kElement) {
      return ErrorAt(start, "dense array of non-element type ", a->type.ToString());
    }
    return CheckDense(*a, start);
  }

  // Reads the blocks of `region`; its values leave scope at the end.
  Status ReadRegion(Region* region) {
    DepthGuard guard(this);
    PLUGRT_RETURN_IF_ERROR(guard.Check());
    const size_t saved = values_.size();
    size_t start = in_.position();
    size_t num_blocks = 0;
    PLUGRT_RETURN_IF_ERROR(Count(&num_blocks, "block", 2));
    if (num_blocks == 0) return ErrorAt(start, "region without blocks");
    for (size_t b = 0; b < num_blocks; ++b) {
      auto block = std::make_unique<Block>();
      block->parent = region;
      Block* raw = block.get();
      region->blocks.push_back(std::move(block));
      size_t num_args = 0;
      PLUGRT_RETURN_IF_ERROR(Count(&num_args, "block argument", 2));
      for (size_t i = 0; i < num_args; ++i) {
        auto value = std::make_unique<Value>();
        PLUGRT_RETURN_IF_ERROR(ReadType(&value->type));
        PLUGRT_RETURN_IF_ERROR(OwnedString(&value->name, "argument name"));
        value->owner_block = raw;
        value->index = static_cast<int>(i);
        values_.push_back(value.get());
        raw->arguments.push_back(std::move(value));
      }
      size_t num_ops = 0;
      PLUGRT_RETURN_IF_ERROR(Count(&num_ops, "operation", 8));
      for (size_t i = 0; i < num_ops; ++i) {
        auto op = std::make_unique<Operation>();
        op->parent = raw;
        Operation* op_raw = op.get();
        raw->operations.push_back(std::move(op));
        PLUGRT_RETURN_IF_ERROR(ReadOp(op_raw));
      }
    }
    values_.resize(saved);
    return OkStatus();
  }

  Status ReadOp(Operation* op) {
    PLUGRT_RETURN_IF_ERROR(OwnedString(&op->name, "op name"));
    op->code = LookupOpCode(op->name);
    PLUGRT_RETURN_IF_ERROR(ReadLoc(&op->location));
    size_t count = 0;
    PLUGRT_RETURN_IF_ERROR(Count(&count, "operand"));
    for (size_t i = 0; i < count; ++i) {
      size_t start = in_.position();
      uint64_t ref = 0;
      PLUGRT_RETURN_IF_ERROR(Varint(&ref, "operand"));
      if (ref == 0) {
        return ErrorAt(start, "operand #", i, " of ", op->name,
                       " was not defined in scope when the module was written");
      }
      if (ref > values_.size()) {
        return ErrorAt(start, "operand #", i, " of ", op->name, " names value ", ref - 1,
                       " but only ", values_.size(), " are in scope");
      }
      op->operands.push_back(values_[ref - 1]);
    }
    PLUGRT_RETURN_IF_ERROR(ReadAttrs(&op->attributes, "op attribute"));
    PLUGRT_RETURN_IF_ERROR(Count(&count, "region", 2));
    for (size_t i = 0; i < count; ++i) {
      auto region = std::make_unique<Region>();
      region->parent_op = op;
      Region* raw = region.get();
      op->regions.push_back(std::move(region));
      PLUGRT_RETURN_IF_ERROR(ReadRegion(raw));
    }
    PLUGRT_RETURN_IF_ERROR(Count(&count, "result", 2));
    for (size_t i = 0; i < count; ++i) {
      auto value = std::make_unique<Value>();
      PLUGRT_RETURN_IF_ERROR(ReadType(&value->type));
      PLUGRT_RETURN_IF_ERROR(OwnedString(&value->name, "result name"));
      value->defining_op = op;
      value->index = static_cast<int>(i);
      op->results.push_back(std::move(value));
    }
    for (const auto& result : op->results) values_.push_back(result.get());
    return OkStatus();
  }

  Status ReadTypes(std::vector<Type>* out, const char* what) {
    size_t count = 0;
    PLUGRT_RETURN_IF_ERROR(Count(&count, what));
    for (size_t i = 0; i < count; ++i) {
      Type t;
      PLUGRT_RETURN_IF_ERROR(ReadType(&t));
      out->push_back(std::move(t));
    }
    return OkStatus();
  }

  Status ReadFunction(Function* f) {
    values_.clear();
    PLUGRT_RETURN_IF_ERROR(OwnedString(&f->name, "function name"));
    size_t flag_pos = in_.position();
    uint8_t is_public = 0;
    PLUGRT_RETURN_IF_ERROR(Byte(&is_public, "function visibility"));
    if (is_public > 1) return ErrorAt(flag_pos, "bad visibility flag ", int{is_public});
    f->is_public = is_public == 1;
    PLUGRT_RETURN_IF_ERROR(ReadLoc(&f->location));
    PLUGRT_RETURN_IF_ERROR(ReadTypes(&f->input_types, "function input"));
    PLUGRT_RETURN_IF_ERROR(ReadTypes(&f->result_types, "function result"));
    for (auto* lists : {&f->arg_attributes, &f->result_attributes}) {
      size_t count = 0;
      PLUGRT_RETURN_IF_ERROR(Count(&count, "attribute list"));
      for (size_t i = 0; i < count; ++i) {
        std::vector<NamedAttribute> attrs;
        PLUGRT_RETURN_IF_ERROR(ReadAttrs(&attrs, "argument attribute"));
        lists->push_back(std::move(attrs));
      }
    }
    PLUGRT_RETURN_IF_ERROR(ReadAttrs(&f->attributes, "function attribute"));
    size_t body_pos = in_.position();
    f->body = std::make_unique<Region>();
    PLUGRT_RETURN_IF_ERROR(ReadRegion(f->body.get()));
    // The parser makes the entry block's arguments from the inputs.
    const Block& entry = f->body->front();
    bool match = entry.arguments.size() == f->input_types.size();
    for (size_t i = 0; match && i < entry.arguments.size(); ++i) {
      match = entry.arguments[i]->type == f->input_types[i];
    }
    if (!match) {
      return ErrorAt(body_pos, "the entry block arguments of @", f->name,
                     " do not match its input types");
    }
    return OkStatus();
  }

  ByteReader in_;
  int depth_ = 0;
  uint64_t string_budget_ = 0;
  std::vector<std::string_view> strings_;
  std::vector<std::shared_ptr<const std::string>> files_;  // per string, made on use
  std::vector<SourceLocationRef> sources_;                 // per string, parsed on use
  std::vector<Value*> values_;                              // in scope, definition order
  std::vector<std::shared_ptr<const DenseData>> denses_;
};

}  // namespace

namespace internal {

StatusOr<std::unique_ptr<Module>> DecodeModulePayload(std::string_view payload,
                                                      size_t base_offset) {
  Reader reader(payload, base_offset);
  return reader.Run();
}

}  // namespace internal

std::string SerializeModule(const Module& module) { return Writer().Run(module); }

StatusOr<std::unique_ptr<Module>> DeserializeModule(std::string_view bytes) {
  using internal::kModuleHeaderSize;
  using internal::kModuleTrailerSize;
  for (size_t i = 0; i < kMagic.size() && i < bytes.size(); ++i) {
    if (bytes[i] != kMagic[i]) {
      return InvalidArgument("not a plugrt serialized module: bad magic at byte ", i,
                             " (expected the bytes to start with \"", kMagic, "\")");
    }
  }
  if (bytes.size() >= 12) {
    uint32_t version = static_cast<uint32_t>(ByteReader::LoadFixed(bytes.substr(8), 4));
    if (version != kModuleFormatVersion) {
      return InvalidArgument("serialized module has format version ", version,
                             ", but this plugrt reads only format version ", kModuleFormatVersion,
                             "; serialize it again with this version");
    }
  }
  if (bytes.size() < kModuleHeaderSize + kModuleTrailerSize) {
    return InvalidArgument("serialized module is truncated at byte ", bytes.size(),
                           ": header and checksum need ", kModuleHeaderSize + kModuleTrailerSize,
                           " bytes");
  }
  uint64_t length = ByteReader::LoadFixed(bytes.substr(12), 8);
  uint64_t available = bytes.size() - kModuleHeaderSize - kModuleTrailerSize;
  if (length > available) {
    return InvalidArgument("serialized module is truncated at byte ", bytes.size(), ": header says ",
                           length, " payload bytes but only ", available,
                           " follow (with the 8-byte checksum)");
  }
  if (length < available) {
    return InvalidArgument("serialized module is corrupt at byte ",
                           kModuleHeaderSize + length + kModuleTrailerSize, ": ",
                           available - length, " bytes after the checksum");
  }
  std::string_view payload = bytes.substr(kModuleHeaderSize, length);
  size_t hash_pos = kModuleHeaderSize + length;
  uint64_t stored = ByteReader::LoadFixed(bytes.substr(hash_pos), 8);
  uint64_t actual = Checksum64(payload);
  if (stored != actual) {
    return InvalidArgument("serialized module is corrupt: the checksum at byte ", hash_pos,
                           " does not match the payload (bytes ", kModuleHeaderSize, "..",
                           hash_pos, ")");
  }
  return internal::DecodeModulePayload(payload, kModuleHeaderSize);
}

}  // namespace plugrt::shlo
