#include "compiler/importers/hlo/hlo_attributes.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace plugrt::shlo::hlo {

Attribute I64Matrix(const std::vector<int64_t>& flat, int64_t rows, int64_t columns) {
  auto data = std::make_shared<DenseData>();
  data->bytes.resize(flat.size() * sizeof(int64_t));
  if (!flat.empty()) std::memcpy(data->bytes.data(), flat.data(), data->bytes.size());
  return Attribute::Dense(Type::Tensor(ElementType::kSI64, {rows, columns}), std::move(data));
}

void AddNonEmpty(std::vector<NamedAttribute>* fields, const char* name,
                 const std::vector<int64_t>& list) {
  if (!list.empty()) fields->emplace_back(name, Attribute::DenseI64Array(list));
}

StatusOr<std::vector<NamedAttribute>> WindowAttributes(const xla::Window& window, size_t rank,
                                                       bool with_dilations) {
  if (static_cast<size_t>(window.dimensions_size()) != rank) {
    return InvalidArgument("the window has ", window.dimensions_size(), " dimensions for rank ",
                           rank);
  }
  std::vector<int64_t> sizes, strides, base, dilation, padding;
  for (const xla::WindowDimension& d : window.dimensions()) {
    if (d.window_reversal()) return Unimplemented("window reversal outside convolution");
    sizes.push_back(d.size());
    strides.push_back(d.stride() == 0 ? 1 : d.stride());
    base.push_back(d.base_dilation() == 0 ? 1 : d.base_dilation());
    dilation.push_back(d.window_dilation() == 0 ? 1 : d.window_dilation());
    padding.push_back(d.padding_low());
    padding.push_back(d.padding_high());
  }
  std::vector<NamedAttribute> attrs;
  attrs.emplace_back("window_dimensions", Attribute::DenseI64Array(sizes));
  attrs.emplace_back("window_strides", Attribute::DenseI64Array(strides));
  if (with_dilations) {
    attrs.emplace_back("base_dilations", Attribute::DenseI64Array(base));
    attrs.emplace_back("window_dilations", Attribute::DenseI64Array(dilation));
  }
  attrs.emplace_back("padding", I64Matrix(padding, static_cast<int64_t>(rank), 2));
  return attrs;
}

void AddPrecision(const xla::PrecisionConfig& config, std::vector<NamedAttribute>* attrs) {
  if (config.operand_precision_size() == 0) return;
  std::vector<Attribute> list;
  for (int p : config.operand_precision()) {
    const char* name = p == xla::PrecisionConfig::HIGH      ? "HIGH"
                       : p == xla::PrecisionConfig::HIGHEST ? "HIGHEST"
                                                            : "DEFAULT";
    list.push_back(Attribute::Enum("stablehlo.precision", name));
  }
  attrs->emplace_back("precision_config", Attribute::Array(std::move(list)));
}

namespace {

// The device ids of an iota group list, row-major: iota(N) reshaped to
// iota_reshape_dims, transposed by iota_transpose_perm, read in order.
StatusOr<std::vector<int64_t>> IotaGroups(const xla::IotaReplicaGroupListProto& iota) {
  const int64_t groups = iota.num_replica_groups();
  const int64_t per_group = iota.num_devices_per_group();
  constexpr int64_t kMaxDevices = int64_t{1} << 24;
  if (groups < 0 || per_group < 0 || (per_group != 0 && groups > kMaxDevices / per_group)) {
    return InvalidArgument("iota replica groups of ", groups, " x ", per_group, " devices");
  }
  const int64_t total = groups * per_group;
  std::vector<int64_t> dims(iota.iota_reshape_dims().begin(), iota.iota_reshape_dims().end());
  if (dims.empty()) dims.push_back(total);
  std::vector<int64_t> perm(iota.iota_transpose_perm().begin(), iota.iota_transpose_perm().end());
  if (perm.empty()) {
    for (size_t i = 0; i < dims.size(); ++i) perm.push_back(static_cast<int64_t>(i));
  }
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d <= 0 || d > kMaxDevices) return InvalidArgument("iota reshape dimension ", d);
    product *= d;
    if (product > kMaxDevices) return InvalidArgument("iota replica groups too large");
  }
  std::vector<bool> seen(dims.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(dims.size()) || seen[p]) {
      return InvalidArgument("iota transpose is not a permutation");
    }
    seen[p] = true;
  }
  if (product != total || perm.size() != dims.size()) {
    return InvalidArgument("iota replica groups: reshape dims do not hold ", total, " devices");
  }
  // Strides of the reshaped iota, then walk the transposed index space.
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  std::vector<int64_t> out;
  out.reserve(total);
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t id = 0;
    for (size_t k = 0; k < perm.size(); ++k) id += index[k] * strides[perm[k]];
    out.push_back(id);
    for (size_t k = perm.size(); k-- > 0;) {
      if (++index[k] < dims[perm[k]]) break;
      index[k] = 0;
    }
  }
  return out;
}

}  // namespace

StatusOr<Attribute> ReplicaGroups(const xla::HloInstructionProto& inst) {
  std::vector<std::vector<int64_t>> groups;
  for (const auto& g : inst.replica_groups()) groups.push_back(ToVector(g.replica_ids()));
  if (groups.empty()) {
    const auto& list = inst.collective_device_list();
    for (const auto& g : list.replica_groups()) groups.push_back(ToVector(g.replica_ids()));
    if (groups.empty() && list.has_iota_replica_group_list()) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> flat, IotaGroups(list.iota_replica_group_list()));
      const int64_t rows = list.iota_replica_group_list().num_replica_groups();
      return I64Matrix(flat, rows, rows == 0 ? 0 : static_cast<int64_t>(flat.size()) / rows);
    }
  }
  size_t size = groups.empty() ? 0 : groups[0].size();
  std::vector<int64_t> flat;
  for (const auto& g : groups) {
    if (g.size() != size) return InvalidArgument("replica groups of different sizes");
    flat.insert(flat.end(), g.begin(), g.end());
  }
  return I64Matrix(flat, static_cast<int64_t>(groups.size()), static_cast<int64_t>(size));
}

Attribute ChannelHandle(int64_t channel_id) {
  // type 1: device to device, what collectives use.
  return Attribute::Struct("stablehlo.channel_handle",
                           {{"handle", Attribute::Integer(channel_id)},
                            {"type", Attribute::Integer(1)}});
}

std::string ShardingText(const xla::OpSharding& sharding) {
  auto list = [](const auto& values, const char* open, const char* close) {
    std::string out = open;
    for (int i = 0; i < values.size(); ++i) out += StrCat(i ? "," : "", values[i]);
    return out + close;
  };
  switch (sharding.type()) {
    case xla::OpSharding::REPLICATED: return "{replicated}";
    case xla::OpSharding::MANUAL: return "{manual}";
    case xla::OpSharding::UNKNOWN: return "{unknown}";
    case xla::OpSharding::UNREDUCED: return "{unreduced}";
    case xla::OpSharding::MAXIMAL:
      return StrCat("{maximal device=",
                    sharding.tile_assignment_devices_size() > 0 ? sharding.tile_assignment_devices(0) : 0,
                    "}");
    case xla::OpSharding::TUPLE: {
      std::string out = "{";
      for (int i = 0; i < sharding.tuple_shardings_size(); ++i) {
        out += (i ? ", " : "") + ShardingText(sharding.tuple_shardings(i));
      }
      return out + "}";
    }
    default: break;
  }
  std::string out = "{devices=" + list(sharding.tile_assignment_dimensions(), "[", "]");
  if (sharding.iota_reshape_dims_size() > 0) {
    out += "<=" + list(sharding.iota_reshape_dims(), "[", "]");
    if (sharding.iota_transpose_perm_size() > 0) out += "T" + list(sharding.iota_transpose_perm(), "(", ")");
  } else {
    out += list(sharding.tile_assignment_devices(), "", "");
  }
  if (sharding.replicate_on_last_tile_dim()) out += " last_tile_dim_replicate";
  if (sharding.last_tile_dims_size() > 0) {
    out += " last_tile_dims={";
    for (int i = 0; i < sharding.last_tile_dims_size(); ++i) {
      const int t = sharding.last_tile_dims(i);
      out += StrCat(i ? ", " : "", t == xla::OpSharding::MANUAL ? "manual"
                                   : t == xla::OpSharding::UNREDUCED ? "unreduced" : "replicated");
    }
    out += "}";
  }
  return out + "}";
}

}  // namespace plugrt::shlo::hlo
