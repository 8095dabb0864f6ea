// Compile options <-> the serialized xla.CompileOptionsProto, through the
// generated lite classes of proto/compile_options.proto.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compile_options/compile_options.h"
#include "proto/compile_options.pb.h"

namespace plugrt {
namespace {

using google::protobuf::io::CodedInputStream;
using google::protobuf::internal::WireFormatLite;

// PJRT buffer types and their xla.PrimitiveType numbers (xla/xla_data.proto).
struct TypeEntry {
  PJRT_Buffer_Type pjrt;
  int primitive;
  const char* name;
};
constexpr TypeEntry kTypes[] = {
    {PJRT_Buffer_Type_PRED, 1, "pred"},
    {PJRT_Buffer_Type_S1, 30, "s1"},
    {PJRT_Buffer_Type_S2, 26, "s2"},
    {PJRT_Buffer_Type_S4, 21, "s4"},
    {PJRT_Buffer_Type_S8, 2, "s8"},
    {PJRT_Buffer_Type_S16, 3, "s16"},
    {PJRT_Buffer_Type_S32, 4, "s32"},
    {PJRT_Buffer_Type_S64, 5, "s64"},
    {PJRT_Buffer_Type_U1, 31, "u1"},
    {PJRT_Buffer_Type_U2, 27, "u2"},
    {PJRT_Buffer_Type_U4, 22, "u4"},
    {PJRT_Buffer_Type_U8, 6, "u8"},
    {PJRT_Buffer_Type_U16, 7, "u16"},
    {PJRT_Buffer_Type_U32, 8, "u32"},
    {PJRT_Buffer_Type_U64, 9, "u64"},
    {PJRT_Buffer_Type_F16, 10, "f16"},
    {PJRT_Buffer_Type_F32, 11, "f32"},
    {PJRT_Buffer_Type_BF16, 16, "bf16"},
    {PJRT_Buffer_Type_F64, 12, "f64"},
    {PJRT_Buffer_Type_F8E5M2, 19, "f8e5m2"},
    {PJRT_Buffer_Type_F8E4M3, 28, "f8e4m3"},
    {PJRT_Buffer_Type_F8E4M3FN, 20, "f8e4m3fn"},
    {PJRT_Buffer_Type_F8E4M3B11FNUZ, 23, "f8e4m3b11fnuz"},
    {PJRT_Buffer_Type_F8E3M4, 29, "f8e3m4"},
    {PJRT_Buffer_Type_F8E5M2FNUZ, 24, "f8e5m2fnuz"},
    {PJRT_Buffer_Type_F8E4M3FNUZ, 25, "f8e4m3fnuz"},
    {PJRT_Buffer_Type_F4E2M1FN, 32, "f4e2m1fn"},
    {PJRT_Buffer_Type_F8E8M0FNU, 33, "f8e8m0fnu"},
    {PJRT_Buffer_Type_C64, 15, "c64"},
    {PJRT_Buffer_Type_C128, 18, "c128"},
    {PJRT_Buffer_Type_TOKEN, 17, "token"},
};
// Element types of shapes that are not arrays.
constexpr int kPrimitiveTuple = 13;
constexpr int kPrimitiveOpaque = 14;
constexpr int kPrimitiveBuffer = 34;

const TypeEntry* FindByPjrt(PJRT_Buffer_Type type) {
  for (const TypeEntry& entry : kTypes) {
    if (entry.pjrt == type) return &entry;
  }
  return nullptr;
}

const TypeEntry* FindByPrimitive(int primitive) {
  for (const TypeEntry& entry : kTypes) {
    if (entry.primitive == primitive) return &entry;
  }
  return nullptr;
}

// ---- locating the problem in bytes the parser refused ----------------------

// The nested messages whose framing we check, so that an error can say where
// it is.
struct Schema;
struct NestedField {
  int number;
  const char* name;
  const Schema* schema;
  bool repeated;
};
struct Schema {
  std::vector<NestedField> fields;
};

const Schema& LeafSchema() {
  static const Schema schema;
  return schema;
}
const Schema& ShapeSchema() {
  static const Schema schema{{{4, "tuple_shapes", &schema, true},
                              {5, "layout", &LeafSchema(), false}}};
  return schema;
}
const Schema& DeviceAssignmentSchema() {
  static const Schema schema{{{3, "computation_devices", &LeafSchema(), true}}};
  return schema;
}
const Schema& BuildOptionsSchema() {
  static const Schema schema{{{9, "device_assignment", &DeviceAssignmentSchema(), false}}};
  return schema;
}
const Schema& OptionOverrideEntrySchema() {
  static const Schema schema{{{2, "value", &LeafSchema(), false}}};
  return schema;
}

const Schema& CompileOptionsSchema() {
  static const Schema schema{{{1, "argument_layouts", &ShapeSchema(), true},
                              {3, "executable_build_options", &BuildOptionsSchema(), false},
                              {7, "env_option_overrides", &OptionOverrideEntrySchema(), true}}};
  return schema;
}

constexpr int kMaxNesting = 64;

// Walks the tag/length framing of `bytes` (and of the nested messages
// `schema` names) and describes the first break in it; empty when the
// framing holds. `path` names the message and `base` is its offset in the
// whole message, for the description.
std::string FindFramingError(std::string_view bytes, const Schema& schema,
                             const std::string& path, int base, int depth) {
  const std::string where = path.empty() ? "" : StrCat(path, ": ");
  if (depth > kMaxNesting) return StrCat(where, "messages nest more than ", kMaxNesting, " deep");
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                      static_cast<int>(bytes.size()));
  in.PushLimit(static_cast<int>(bytes.size()));
  std::vector<int> seen(schema.fields.size(), 0);
  while (in.BytesUntilLimit() > 0) {
    const int offset = base + in.CurrentPosition();
    const uint32_t tag = in.ReadTag();
    const int number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    if (tag == 0 || number == 0) {
      return StrCat(where, "invalid field tag at byte ", offset);
    }
    const auto wire_type = WireFormatLite::GetTagWireType(tag);
    auto nested = std::find_if(schema.fields.begin(), schema.fields.end(),
                               [&](const NestedField& f) { return f.number == number; });
    if (nested != schema.fields.end() && wire_type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t length = 0;
      if (!in.ReadVarint32(&length) || length > static_cast<uint32_t>(in.BytesUntilLimit())) {
        return StrCat(where, "field ", number, " (", nested->name, ") at byte ", offset,
                      " is longer than the ", in.BytesUntilLimit(), " bytes left");
      }
      const int body = in.CurrentPosition();
      std::string name = StrCat(path.empty() ? "" : StrCat(path, "."), nested->name);
      int& index = seen[nested - schema.fields.begin()];
      if (nested->repeated) name = StrCat(name, "[", index, "]");
      ++index;
      std::string inner = FindFramingError(bytes.substr(body, length), *nested->schema, name,
                                           base + body, depth + 1);
      if (!inner.empty()) return inner;
      in.Skip(static_cast<int>(length));
      continue;
    }
    if (!WireFormatLite::SkipField(&in, tag)) {
      return StrCat(where, "field ", number, " (wire type ",
                    static_cast<int>(wire_type), ") at byte ", offset,
                    " is truncated or malformed");
    }
  }
  return "";
}

// ---- decoding ----------------------------------------------------------------

StatusOr<ArgumentLayout> DecodeArgumentLayout(const wire::ShapeProto& shape, size_t index) {
  const std::string where = StrCat("compile options: argument_layouts[", index, "]");
  if (shape.element_type() == kPrimitiveTuple || shape.tuple_shapes_size() > 0) {
    return Unimplemented(where, " is a tuple shape; only array argument layouts are supported");
  }
  if (shape.element_type() == kPrimitiveOpaque || shape.element_type() == kPrimitiveBuffer) {
    return Unimplemented(where, " has element type ", shape.element_type(),
                         " (not an array type); only array argument layouts are supported");
  }
  const TypeEntry* type = FindByPrimitive(shape.element_type());
  if (type == nullptr) {
    return InvalidArgument(where, " has element type ", shape.element_type(),
                           ", which is not an xla.PrimitiveType array type");
  }
  ArgumentLayout layout;
  layout.type = type->pjrt;
  layout.dims.assign(shape.dimensions().begin(), shape.dimensions().end());
  for (size_t d = 0; d < layout.dims.size(); ++d) {
    if (layout.dims[d] < 0) {
      return InvalidArgument(where, " has negative size ", layout.dims[d], " in dimension ", d);
    }
  }
  if (shape.is_dynamic_dimension_size() > 0 &&
      shape.is_dynamic_dimension_size() != shape.dimensions_size()) {
    return InvalidArgument(where, " has ", shape.is_dynamic_dimension_size(),
                           " is_dynamic_dimension entries for ", shape.dimensions_size(),
                           " dimensions");
  }
  for (int d = 0; d < shape.is_dynamic_dimension_size(); ++d) {
    if (shape.is_dynamic_dimension(d)) {
      return Unimplemented(where, " has a dynamic dimension ", d,
                           "; only static argument shapes are supported");
    }
  }
  if (shape.has_layout()) {
    std::vector<int64_t> order(shape.layout().minor_to_major().begin(),
                               shape.layout().minor_to_major().end());
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    bool permutation = sorted.size() == layout.dims.size();
    for (size_t i = 0; permutation && i < sorted.size(); ++i) {
      permutation = sorted[i] == static_cast<int64_t>(i);
    }
    if (!permutation) {
      layout.minor_to_major = std::move(order);
      return InvalidArgument(where, ": minor_to_major of ", ArgumentLayoutString(layout),
                             " is not a permutation of its ", layout.dims.size(), " dimensions");
    }
    layout.minor_to_major = std::move(order);
  }
  return layout;
}

StatusOr<DeviceAssignment> DecodeDeviceAssignment(const wire::DeviceAssignmentProto& proto) {
  constexpr std::string_view kWhere = "compile options: device_assignment";
  if (proto.replica_count() < 1 || proto.computation_count() < 1) {
    return InvalidArgument(kWhere, " needs at least one replica and one computation, got ",
                           proto.replica_count(), " replicas x ", proto.computation_count(),
                           " computations");
  }
  if (proto.computation_devices_size() != proto.computation_count()) {
    return InvalidArgument(kWhere, " lists ", proto.computation_devices_size(),
                           " computations but computation_count is ", proto.computation_count());
  }
  DeviceAssignment assignment;
  assignment.replicas = proto.replica_count();
  assignment.computations = proto.computation_count();
  // Sizes first: the counts alone must not decide how much we allocate.
  for (int c = 0; c < assignment.computations; ++c) {
    const int listed = proto.computation_devices(c).replica_device_ids_size();
    if (listed != assignment.replicas) {
      return InvalidArgument(kWhere, ": computation ", c, " lists ", listed,
                             " devices but replica_count is ", assignment.replicas);
    }
  }
  assignment.ids.assign(static_cast<size_t>(assignment.replicas) * assignment.computations, -1);
  for (int c = 0; c < assignment.computations; ++c) {
    const auto& ids = proto.computation_devices(c).replica_device_ids();
    for (int r = 0; r < assignment.replicas; ++r) {
      if (ids[r] < 0) {
        return InvalidArgument(kWhere, ": replica ", r, " of computation ", c,
                               " has negative device id ", ids[r]);
      }
      assignment.ids[static_cast<size_t>(r) * assignment.computations + c] = ids[r];
    }
  }
  return assignment;
}

StatusOr<std::optional<int64_t>> DecodeCount(int64_t value, std::string_view name) {
  if (value < 0) {
    return InvalidArgument("compile options: executable_build_options.", name,
                           " must not be negative, got ", value);
  }
  // proto3 cannot tell 0 from an absent field; both mean "not given".
  if (value == 0) return std::optional<int64_t>();
  return std::optional<int64_t>(value);
}

Status DecodeBuildOptions(const wire::ExecutableBuildOptionsProto& build,
                          CompileOptions& options) {
  if (build.has_device_ordinal()) {
    if (build.device_ordinal() < -1) {
      return InvalidArgument("compile options: executable_build_options.device_ordinal must be "
                             "-1 (unset) or a device ordinal, got ",
                             build.device_ordinal());
    }
    options.device_ordinal = build.device_ordinal();
  }
  PLUGRT_ASSIGN_OR_RETURN(options.num_replicas, DecodeCount(build.num_replicas(), "num_replicas"));
  PLUGRT_ASSIGN_OR_RETURN(options.num_partitions,
                          DecodeCount(build.num_partitions(), "num_partitions"));
  options.use_spmd_partitioning = build.use_spmd_partitioning();
  options.use_auto_spmd_partitioning = build.use_auto_spmd_partitioning();
  if (build.has_device_assignment()) {
    PLUGRT_ASSIGN_OR_RETURN(DeviceAssignment assignment,
                            DecodeDeviceAssignment(build.device_assignment()));
    if (options.num_replicas && *options.num_replicas != assignment.replicas) {
      return InvalidArgument("compile options: num_replicas is ", *options.num_replicas,
                             " but the device assignment has ", assignment.replicas,
                             " replicas");
    }
    if (options.num_partitions && *options.num_partitions != assignment.computations) {
      return InvalidArgument("compile options: num_partitions is ", *options.num_partitions,
                             " but the device assignment has ", assignment.computations,
                             " computations");
    }
    options.device_assignment = std::move(assignment);
  }
  return OkStatus();
}

}  // namespace

std::string ArgumentLayoutString(const ArgumentLayout& layout) {
  const TypeEntry* type = FindByPjrt(layout.type);
  std::string text = type != nullptr ? type->name : StrCat("type", static_cast<int>(layout.type));
  text += "[";
  for (size_t d = 0; d < layout.dims.size(); ++d) {
    text += StrCat(d == 0 ? "" : ",", layout.dims[d]);
  }
  text += "]";
  if (layout.minor_to_major) {
    text += "{";
    for (size_t d = 0; d < layout.minor_to_major->size(); ++d) {
      text += StrCat(d == 0 ? "" : ",", (*layout.minor_to_major)[d]);
    }
    text += "}";
  }
  return text;
}

StatusOr<CompileOptions> DecodeCompileOptions(std::string_view bytes) {
  CompileOptions options;
  if (bytes.empty()) return options;
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return InvalidArgument("compile options of ", bytes.size(), " bytes are too large");
  }
  wire::CompileOptionsProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    std::string problem = FindFramingError(bytes, CompileOptionsSchema(), "", 0, 0);
    if (problem.empty()) problem = "a field's contents do not match its declared type";
    return InvalidArgument("compile options (", bytes.size(),
                           " bytes) are not a valid serialized xla.CompileOptionsProto: ",
                           problem);
  }
  options.parameter_is_tupled_arguments = proto.parameter_is_tupled_arguments();
  options.compile_portable_executable = proto.compile_portable_executable();
  if (proto.has_executable_build_options()) {
    PLUGRT_RETURN_IF_ERROR(DecodeBuildOptions(proto.executable_build_options(), options));
  }
  for (int i = 0; i < proto.argument_layouts_size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(ArgumentLayout layout,
                            DecodeArgumentLayout(proto.argument_layouts(i), i));
    options.argument_layouts.push_back(std::move(layout));
  }
  for (const auto& [name, value] : proto.env_option_overrides()) {
    CompileOptions::OptionOverride decoded;
    switch (value.value_case()) {
      case wire::OptionOverrideProto::kStringField: decoded = value.string_field(); break;
      case wire::OptionOverrideProto::kBoolField: decoded = value.bool_field(); break;
      case wire::OptionOverrideProto::kIntField: decoded = value.int_field(); break;
      case wire::OptionOverrideProto::kDoubleField: decoded = value.double_field(); break;
      default:
        continue;  // an override without a value overrides nothing
    }
    options.env_option_overrides.emplace(name, std::move(decoded));
  }
  if (options.compile_portable_executable) {
    if (options.device_assignment) {
      return InvalidArgument("compile options: a portable executable cannot have a device "
                             "assignment");
    }
    if (options.num_replicas.value_or(1) != 1 || options.num_partitions.value_or(1) != 1) {
      return InvalidArgument("compile options: a portable executable runs on one device; got ",
                             options.num_replicas.value_or(1), " replicas x ",
                             options.num_partitions.value_or(1), " partitions");
    }
  }
  return options;
}

std::string EncodeCompileOptions(const CompileOptions& options) {
  wire::CompileOptionsProto proto;
  for (const ArgumentLayout& layout : options.argument_layouts) {
    wire::ShapeProto* shape = proto.add_argument_layouts();
    const TypeEntry* type = FindByPjrt(layout.type);
    shape->set_element_type(type != nullptr ? type->primitive : 0);
    for (int64_t dim : layout.dims) shape->add_dimensions(dim);
    if (layout.minor_to_major) {
      wire::LayoutProto* wire_layout = shape->mutable_layout();
      for (int64_t d : *layout.minor_to_major) wire_layout->add_minor_to_major(d);
    }
  }
  if (options.parameter_is_tupled_arguments) proto.set_parameter_is_tupled_arguments(true);
  if (options.compile_portable_executable) proto.set_compile_portable_executable(true);
  for (const auto& [name, value] : options.env_option_overrides) {
    wire::OptionOverrideProto& wire_value = (*proto.mutable_env_option_overrides())[name];
    if (const auto* text = std::get_if<std::string>(&value)) wire_value.set_string_field(*text);
    if (const auto* flag = std::get_if<bool>(&value)) wire_value.set_bool_field(*flag);
    if (const auto* number = std::get_if<int64_t>(&value)) wire_value.set_int_field(*number);
    if (const auto* real = std::get_if<double>(&value)) wire_value.set_double_field(*real);
  }

  const bool any_build_option = options.device_ordinal != -1 || options.num_replicas ||
                                options.num_partitions || options.use_spmd_partitioning ||
                                options.use_auto_spmd_partitioning ||
                                options.device_assignment.has_value();
  if (any_build_option) {
    wire::ExecutableBuildOptionsProto* build = proto.mutable_executable_build_options();
    if (options.device_ordinal != -1) build->set_device_ordinal(options.device_ordinal);
    if (options.num_replicas) build->set_num_replicas(*options.num_replicas);
    if (options.num_partitions) build->set_num_partitions(*options.num_partitions);
    build->set_use_spmd_partitioning(options.use_spmd_partitioning);
    build->set_use_auto_spmd_partitioning(options.use_auto_spmd_partitioning);
    if (options.device_assignment) {
      const DeviceAssignment& assignment = *options.device_assignment;
      wire::DeviceAssignmentProto* wire_assignment = build->mutable_device_assignment();
      wire_assignment->set_replica_count(assignment.replicas);
      wire_assignment->set_computation_count(assignment.computations);
      for (int c = 0; c < assignment.computations && static_cast<size_t>(c) < assignment.ids.size();
           ++c) {
        auto* computation = wire_assignment->add_computation_devices();
        for (int r = 0; r < assignment.replicas; ++r) {
          const size_t index = static_cast<size_t>(r) * assignment.computations + c;
          // A short id list encodes short, and decoding names the gap.
          if (index >= assignment.ids.size()) break;
          computation->add_replica_device_ids(assignment.ids[index]);
        }
      }
    }
  }
  // Deterministic: map entries in key order, so equal options encode (and
  // fingerprint) alike.
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    proto.SerializeToCodedStream(&out);
  }
  return bytes;
}

}  // namespace plugrt
