// plugrt MLIR bytecode: mhlo, stablehlo and chlo attributes and types in
// their own encodings. The three dialects share most attribute kinds but
// number them differently; a table per dialect maps codes to kinds, and
// one decoder per kind reads the parameters.
#include "compiler/importers/bytecode/hlo_encoding.h"

#include <span>
#include <string>
#include <vector>

#include "compiler/importers/bytecode/vhlo_codes.h"

namespace plugrt::shlo::bytecode {
namespace {

enum class Kind : uint8_t {
  kNone,  // a code the dialect does not use
  kArgResultAlias,
  kChannelHandle,
  kComparisonDirection,
  kComparisonType,
  kConv,
  kDot,
  kFftType,
  kGather,
  kPrecision,
  kRngAlgorithm,
  kRngDistribution,
  kScatter,
  kTranspose,
  kTypeExtensions,
  kDomainKind,
  kFusionKind,
  kOutputOperandAlias,
  kResultAccuracyMode,
  kResultAccuracy,
  kDotAlgorithm,
  kMeshAxes,  // stablehlo's replica-group mesh attributes (codes 18-22)
};

// Attribute kinds by code, per dialect.
constexpr Kind kMhloCodes[] = {
    Kind::kArgResultAlias,  Kind::kChannelHandle,      Kind::kComparisonDirection,
    Kind::kComparisonType,  Kind::kConv,               Kind::kDot,
    Kind::kFftType,         Kind::kGather,             Kind::kPrecision,
    Kind::kRngAlgorithm,    Kind::kRngDistribution,    Kind::kScatter,
    Kind::kTranspose,       Kind::kTypeExtensions,     Kind::kDomainKind,
    Kind::kFusionKind,      Kind::kOutputOperandAlias, Kind::kResultAccuracyMode,
    Kind::kResultAccuracy,
};
constexpr Kind kStablehloCodes[] = {
    Kind::kNone,               Kind::kChannelHandle,     Kind::kComparisonDirection,
    Kind::kComparisonType,     Kind::kConv,              Kind::kDot,
    Kind::kFftType,            Kind::kGather,            Kind::kPrecision,
    Kind::kRngAlgorithm,       Kind::kRngDistribution,   Kind::kScatter,
    Kind::kTranspose,          Kind::kTypeExtensions,    Kind::kOutputOperandAlias,
    Kind::kDotAlgorithm,       Kind::kResultAccuracyMode, Kind::kResultAccuracy,
    Kind::kMeshAxes,           Kind::kMeshAxes,          Kind::kMeshAxes,
    Kind::kMeshAxes,           Kind::kMeshAxes,
};
constexpr Kind kChloCodes[] = {Kind::kComparisonDirection, Kind::kComparisonType};

std::span<const Kind> CodesOf(std::string_view dialect) {
  if (dialect == "mhlo") return kMhloCodes;
  if (dialect == "stablehlo") return kStablehloCodes;
  if (dialect == "chlo") return kChloCodes;
  return {};
}

std::string List(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

class HloDecoder {
 public:
  HloDecoder(EncodingReader& r, std::string_view dialect, EntryReader& entries)
      : r_(r), dialect_(dialect), entries_(entries) {}

  Status Decode(BcAttr* a);

 private:
  Status Int(int64_t* out) { return r_.ReadSignedVarInt(out); }
  Status Ints(std::vector<int64_t>* out) {
    uint64_t n = 0;
    PLUGRT_RETURN_IF_ERROR(r_.ReadCount(&n));
    out->resize(n);
    for (int64_t& v : *out) PLUGRT_RETURN_IF_ERROR(r_.ReadSignedVarInt(&v));
    return OkStatus();
  }
  // An enum of `family` whose values VHLO numbers as this dialect does.
  Status Enum(const char* family, BcAttr* a);
  // An enum whose values are listed here (mhlo's domain and fusion kinds).
  Status LocalEnum(const char* family, std::span<const std::string_view> values, BcAttr* a);
  // Gather and scatter dimension numbers: five lists and the index vector
  // dimension, or three lists before the batching dimensions were added.
  Status GatherLike(const char* family, std::span<const std::string_view> lists, BcAttr* a);
  void Text(BcAttr* a, std::string text) {
    a->kind = BcAttr::Kind::kText;
    a->str = std::move(text);
  }

  EncodingReader& r_;
  std::string_view dialect_;
  EntryReader& entries_;
};

Status HloDecoder::Enum(const char* family, BcAttr* a) {
  size_t at = r_.offset();
  uint64_t v = 0;
  PLUGRT_RETURN_IF_ERROR(r_.ReadVarInt(&v));
  const VhloEnumInfo* info = FindVhloEnumByFamily(family);
  std::optional<std::string_view> name = info ? VhloEnumValueName(*info, v) : std::nullopt;
  if (!name) {
    return InvalidArgument("bytecode: at byte ", at, ": ", dialect_, " ", family, " value ", v,
                           " is not one plugrt knows");
  }
  if (dialect_ == "chlo") {
    Text(a, StrCat("#chlo<", family, " ", *name, ">"));
  } else {
    a->kind = BcAttr::Kind::kEnum;
    a->family = family;
    a->str = std::string(*name);
  }
  return OkStatus();
}

Status HloDecoder::LocalEnum(const char* family, std::span<const std::string_view> values,
                             BcAttr* a) {
  size_t at = r_.offset();
  uint64_t v = 0;
  PLUGRT_RETURN_IF_ERROR(r_.ReadVarInt(&v));
  if (v >= values.size()) {
    return InvalidArgument("bytecode: at byte ", at, ": ", dialect_, " ", family, " value ", v,
                           " is not one plugrt knows");
  }
  Text(a, StrCat("#", dialect_, "<", family, " ", values[v], ">"));
  return OkStatus();
}

Status HloDecoder::GatherLike(const char* family, std::span<const std::string_view> lists,
                              BcAttr* a) {
  // lists: the five names in encoding order; the batching ones are 2 and 3.
  const EncodingReader start = r_;
  for (bool with_batching : {true, false}) {
    r_ = start;
    std::vector<std::vector<int64_t>> values(lists.size());
    Status s = OkStatus();
    for (size_t i = 0; i < lists.size() && s.ok(); ++i) {
      if (!with_batching && (i == 2 || i == 3)) continue;
      s = Ints(&values[i]);
    }
    int64_t index_vector_dim = 0;
    if (s.ok()) s = Int(&index_vector_dim);
    if (!s.ok() || !r_.empty()) {
      if (!with_batching) return s.ok() ? r_.Error("unexpected trailing bytes in ", family) : s;
      continue;
    }
    std::string body;
    for (size_t i = 0; i < lists.size(); ++i) {
      if (values[i].empty()) continue;
      body += StrCat(lists[i], " = ", List(values[i]), ", ");
    }
    Text(a, StrCat("#stablehlo.", family, "<", body, "index_vector_dim = ", index_vector_dim,
                   ">"));
    return OkStatus();
  }
  return OkStatus();
}

Status HloDecoder::Decode(BcAttr* a) {
  size_t at = r_.offset();
  uint64_t code = 0;
  PLUGRT_RETURN_IF_ERROR(r_.ReadVarInt(&code));
  std::span<const Kind> codes = CodesOf(dialect_);
  const Kind kind = code < codes.size() ? codes[code] : Kind::kNone;
  switch (kind) {
    case Kind::kNone:
      return InvalidArgument("bytecode: at byte ", at, ": ", dialect_, " attribute code ", code,
                             " is not one plugrt knows (a newer ", dialect_,
                             " than it reads)");
    case Kind::kMeshAxes:
      return InvalidArgument("bytecode: at byte ", at, ": ", dialect_,
                             " replica-group mesh attributes (code ", code,
                             ") are not supported");
    case Kind::kComparisonDirection:
      return Enum("comparison_direction", a);
    case Kind::kComparisonType:
      return Enum("comparison_type", a);
    case Kind::kFftType:
      return Enum("fft_type", a);
    case Kind::kPrecision:
      return Enum("precision", a);
    case Kind::kRngAlgorithm:
      return Enum("rng_algorithm", a);
    case Kind::kRngDistribution:
      return Enum("rng_distribution", a);
    case Kind::kTranspose:
      return Enum("transpose", a);
    case Kind::kResultAccuracyMode:
      return Enum("result_accuracy_mode", a);
    case Kind::kDomainKind: {
      static constexpr std::string_view kValues[] = {"sharding"};
      return LocalEnum("kind", kValues, a);
    }
    case Kind::kFusionKind: {
      static constexpr std::string_view kValues[] = {"kLoop", "kInput", "kOutput", "kCustom"};
      return LocalEnum("fusion_kind", kValues, a);
    }
    case Kind::kChannelHandle: {
      int64_t handle = 0, type = 0;
      PLUGRT_RETURN_IF_ERROR(Int(&handle));
      PLUGRT_RETURN_IF_ERROR(Int(&type));
      Text(a, StrCat("#stablehlo.channel_handle<handle = ", handle, ", type = ", type, ">"));
      return OkStatus();
    }
    case Kind::kConv: {
      static constexpr std::string_view kGroups[3][3] = {
          {"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions"},
          {"kernel_input_feature_dimension", "kernel_output_feature_dimension",
           "kernel_spatial_dimensions"},
          {"output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions"}};
      std::string body;
      for (const auto& group : kGroups) {
        int64_t first = 0, second = 0;
        std::vector<int64_t> spatial;
        PLUGRT_RETURN_IF_ERROR(Int(&first));
        PLUGRT_RETURN_IF_ERROR(Int(&second));
        PLUGRT_RETURN_IF_ERROR(Ints(&spatial));
        body += StrCat(body.empty() ? "" : ", ", group[0], " = ", first, ", ", group[1], " = ",
                       second, ", ", group[2], " = ", List(spatial));
      }
      Text(a, StrCat("#stablehlo.conv<raw ", body, ">"));
      return OkStatus();
    }
    case Kind::kDot: {
      static constexpr std::string_view kLists[] = {
          "lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
          "rhs_contracting_dimensions"};
      std::string body;
      for (std::string_view name : kLists) {
        std::vector<int64_t> v;
        PLUGRT_RETURN_IF_ERROR(Ints(&v));
        if (!v.empty()) body += StrCat(body.empty() ? "" : ", ", name, " = ", List(v));
      }
      Text(a, StrCat("#stablehlo.dot<", body, ">"));
      return OkStatus();
    }
    case Kind::kGather: {
      static constexpr std::string_view kLists[] = {
          "offset_dims", "collapsed_slice_dims", "operand_batching_dims",
          "start_indices_batching_dims", "start_index_map"};
      return GatherLike("gather", kLists, a);
    }
    case Kind::kScatter: {
      static constexpr std::string_view kLists[] = {
          "update_window_dims", "inserted_window_dims", "input_batching_dims",
          "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"};
      return GatherLike("scatter", kLists, a);
    }
    case Kind::kTypeExtensions:
      a->kind = BcAttr::Kind::kTypeExtensions;
      return Ints(&a->ints);
    case Kind::kOutputOperandAlias:
      a->kind = BcAttr::Kind::kOutputOperandAlias;
      PLUGRT_RETURN_IF_ERROR(Ints(&a->ints));
      PLUGRT_RETURN_IF_ERROR(Int(&a->int_value));
      return Ints(&a->ints2);
    case Kind::kArgResultAlias: {
      std::vector<int64_t> arg_tuple, result_tuple;
      int64_t result = 0;
      uint64_t must_alias = 0;
      PLUGRT_RETURN_IF_ERROR(Ints(&arg_tuple));
      PLUGRT_RETURN_IF_ERROR(Int(&result));
      PLUGRT_RETURN_IF_ERROR(Ints(&result_tuple));
      PLUGRT_RETURN_IF_ERROR(r_.ReadVarInt(&must_alias));
      std::string body;
      if (!arg_tuple.empty()) body += StrCat("tuple_indices = ", List(arg_tuple), ", ");
      result_tuple.insert(result_tuple.begin(), result);
      body += StrCat("result_index = ", List(result_tuple));
      if (must_alias) body += ", must_alias";
      Text(a, StrCat("#mhlo.result_alias<", body, ">"));
      return OkStatus();
    }
    case Kind::kResultAccuracy: {
      a->kind = BcAttr::Kind::kResultAccuracy;
      int64_t atol = 0, rtol = 0;
      PLUGRT_RETURN_IF_ERROR(Int(&atol));  // f64 bits as a signed varint
      PLUGRT_RETURN_IF_ERROR(Int(&rtol));
      a->atol_bits = static_cast<uint64_t>(atol);
      a->rtol_bits = static_cast<uint64_t>(rtol);
      PLUGRT_RETURN_IF_ERROR(Int(&a->int_value));
      PLUGRT_RETURN_IF_ERROR(entries_.ReadAttr(r_, &a->mode));
      if (a->mode->kind != BcAttr::Kind::kEnum || a->mode->family != "result_accuracy_mode") {
        return r_.Error("a result accuracy's mode is not a result_accuracy_mode");
      }
      return OkStatus();
    }
    case Kind::kDotAlgorithm: {
      static constexpr std::string_view kTypes[] = {"lhs_precision_type", "rhs_precision_type",
                                                    "accumulation_type"};
      static constexpr std::string_view kInts[] = {
          "lhs_component_count", "rhs_component_count", "num_primitive_operations"};
      std::string body;
      for (std::string_view name : kTypes) {
        const BcType* t = nullptr;
        PLUGRT_RETURN_IF_ERROR(entries_.ReadType(r_, &t));
        body += StrCat(name, " = ", t->text, ", ");
      }
      for (std::string_view name : kInts) {
        int64_t v = 0;
        PLUGRT_RETURN_IF_ERROR(Int(&v));
        body += StrCat(name, " = ", v, ", ");
      }
      int64_t imprecise = 0;
      PLUGRT_RETURN_IF_ERROR(Int(&imprecise));
      Text(a, StrCat("#stablehlo.dot_algorithm<", body, "allow_imprecise_accumulation = ",
                     imprecise ? "true" : "false", ">"));
      return OkStatus();
    }
  }
  return OkStatus();
}

}  // namespace

bool IsHloDialect(std::string_view dialect) { return !CodesOf(dialect).empty(); }

Status DecodeHloAttr(EncodingReader& r, std::string_view dialect, EntryReader& entries,
                     BcAttr* a) {
  return HloDecoder(r, dialect, entries).Decode(a);
}

Status DecodeHloType(EncodingReader& r, std::string_view dialect, EntryReader&, BcType* t) {
  size_t at = r.offset();
  uint64_t code = 0;
  PLUGRT_RETURN_IF_ERROR(r.ReadVarInt(&code));
  // Both number the token type 0; mhlo's 1 is an async bundle and
  // stablehlo's a future, which only asynchronous ops produce.
  if (code == 0 && dialect != "chlo") {
    t->kind = BcType::Kind::kToken;
    t->text = "!stablehlo.token";
    return OkStatus();
  }
  return InvalidArgument("bytecode: at byte ", at, ": ", dialect, " type code ", code,
                         code == 1 ? " (an asynchronous bundle or future) is not supported"
                                   : " is not one plugrt knows");
}

}  // namespace plugrt::shlo::bytecode
