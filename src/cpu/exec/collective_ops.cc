// plugrt CPU executor: collective ops (all_reduce, all_gather, all_to_all,
// reduce_scatter, collective_permute, collective_broadcast,
// collective_reduce, cross-replica-sum).
//
// Each op decodes its attributes once at compile time. At run time it finds
// its process group, swaps operands with the group through the execution's
// CollectiveHub, and computes its own result from the group's operands.
#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>

#include "cpu/exec/collective_hub.h"
#include "cpu/exec/program_compiler.h"
#include "cpu/exec/literal.h"
#include "cpu/exec/process_groups.h"
#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/data_movement.h"

namespace plugrt::cpu {
namespace {

using shlo::OpCode;
using Results = StatusOr<std::vector<RtValue>>;
using Contributions = std::vector<std::vector<Tensor>>;  // [group position][operand]

class CollectiveOp final : public CompiledOp {
 public:
  using Fn = std::function<Results(const std::vector<RtValue>&, ExecContext&)>;
  explicit CollectiveOp(Fn fn) : fn_(std::move(fn)) {}
  Results Execute(const std::vector<RtValue>& operands, ExecContext& context) const override {
    return fn_(operands, context);
  }

 private:
  Fn fn_;
};

std::unique_ptr<CompiledOp> MakeOp(CollectiveOp::Fn fn) {
  return std::make_unique<CollectiveOp>(std::move(fn));
}

Status Invalid(const shlo::Operation& op, const std::string& message) {
  return OpError(op, StatusCode::kInvalidArgument, message);
}

// ---- attributes ----------------------------------------------------------

StatusOr<int64_t> IntAttribute(const shlo::Operation& op, std::string_view name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return Invalid(op, StrCat("needs the attribute '", name, "'"));
  StatusOr<int64_t> value = shlo::AttrToInt(*attr);
  if (!value.ok()) return Invalid(op, StrCat("'", name, "': ", value.status().message()));
  return *value;
}

// channel_handle's handle; 0 (no channel) when absent.
StatusOr<int64_t> ChannelId(const shlo::Operation& op) {
  const shlo::Attribute* attr = op.attribute("channel_handle");
  if (attr == nullptr) return int64_t{0};
  const shlo::Attribute* handle =
      attr->kind == shlo::Attribute::Kind::kStruct ? attr->field("handle") : attr;
  if (handle == nullptr) return int64_t{0};
  StatusOr<int64_t> value = shlo::AttrToInt(*handle);
  if (!value.ok()) return Invalid(op, StrCat("'channel_handle': ", value.status().message()));
  return *value;
}

StatusOr<bool> FlagAttribute(const shlo::Operation& op, std::string_view name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return false;
  StatusOr<bool> value = shlo::AttrToBool(*attr);
  if (!value.ok()) return Invalid(op, StrCat("'", name, "': ", value.status().message()));
  return *value;
}

StatusOr<std::vector<std::vector<int64_t>>> GroupsAttribute(const shlo::Operation& op,
                                                            std::string_view name,
                                                            bool required) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) {
    if (required) return Invalid(op, StrCat("needs the attribute '", name, "'"));
    return std::vector<std::vector<int64_t>>();
  }
  StatusOr<std::vector<std::vector<int64_t>>> groups = GroupsFromAttribute(*attr);
  if (!groups.ok()) return Invalid(op, StrCat("'", name, "': ", groups.status().message()));
  return groups;
}

// Where the process groups come from, decided once per op.
struct GroupSpec {
  GroupMode mode = GroupMode::kCrossReplica;
  std::vector<std::vector<int64_t>> groups;
  std::string key;  // names the op's rendezvous: op name and channel
};

// all_reduce, all_gather, reduce_scatter, collective_reduce: the mode follows
// from the channel and use_global_device_ids.
StatusOr<GroupSpec> ReplicaGroupSpec(const shlo::Operation& op) {
  GroupSpec spec;
  PLUGRT_ASSIGN_OR_RETURN(int64_t channel, ChannelId(op));
  PLUGRT_ASSIGN_OR_RETURN(bool global_ids, FlagAttribute(op, "use_global_device_ids"));
  PLUGRT_ASSIGN_OR_RETURN(spec.groups, GroupsAttribute(op, "replica_groups", false));
  if (channel <= 0 && global_ids) {
    return Invalid(op, "use_global_device_ids needs a channel_handle with a positive handle");
  }
  spec.mode = channel <= 0 ? GroupMode::kCrossReplica
              : global_ids ? GroupMode::kFlattenedIds
                           : GroupMode::kCrossReplicaAndPartition;
  spec.key = StrCat(op.name, "#", channel);
  return spec;
}

// all_to_all, collective_permute, collective_broadcast: a channel means the
// ids name partitions.
StatusOr<GroupMode> ChannelMode(const shlo::Operation& op, int64_t* channel_out) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t channel, ChannelId(op));
  *channel_out = channel;
  return channel <= 0 ? GroupMode::kCrossReplica : GroupMode::kCrossPartition;
}

Status CheckDimension(const shlo::Operation& op, std::string_view name, int64_t dimension) {
  for (const shlo::Value* operand : op.operands) {
    if (!operand->type.is_tensor()) return Invalid(op, "operands must be tensors");
    if (dimension < 0 || dimension >= operand->type.rank()) {
      return Invalid(op, StrCat(name, " ", dimension, " is out of range for ",
                                operand->type.ToString()));
    }
  }
  return OkStatus();
}

Status CheckResultCount(const shlo::Operation& op, size_t count) {
  if (op.results.size() != count) {
    return Invalid(op, StrCat("has ", op.results.size(), " results, expected ", count));
  }
  for (const auto& result : op.results) {
    if (!result->type.is_tensor()) return Invalid(op, "results must be tensors");
  }
  return OkStatus();
}

// A reduction body of two rank-0 arguments, compiled once.
StatusOr<std::shared_ptr<const CompiledRegion>> ReductionBody(const shlo::Operation& op,
                                                              CompileContext& context) {
  if (op.regions.size() != 1 || op.regions[0]->blocks.size() != 1) {
    return Invalid(op, "needs one reduction region");
  }
  if (op.regions[0]->front().arguments.size() != 2) {
    return Invalid(op, StrCat("the reduction region must take 2 arguments, takes ",
                              op.regions[0]->front().arguments.size()));
  }
  StatusOr<std::shared_ptr<const CompiledRegion>> body = context.CompileRegion(*op.regions[0]);
  if (!body.ok()) return OpError(op, body.status().code(), body.status().message());
  return body;
}

// ---- run time ---------------------------------------------------------------

ProcessGrid GridOf(const ExecContext& context) {
  return ProcessGrid{context.num_replicas, context.num_partitions};
}

int64_t SelfId(const ExecContext& context) {
  return GridOf(context).Flatten(context.replica_id, context.partition_id);
}

std::string ProcessName(const ExecContext& context) {
  return StrCat("process (replica ", context.replica_id, ", partition ", context.partition_id,
                ")");
}

StatusOr<std::vector<Tensor>> OperandTensors(const std::vector<RtValue>& operands) {
  std::vector<Tensor> tensors;
  tensors.reserve(operands.size());
  for (const RtValue& value : operands) {
    if (value.kind != RtValue::Kind::kTensor) return InvalidArgument("operands must be tensors");
    tensors.push_back(value.tensor);
  }
  return tensors;
}

std::vector<RtValue> AsValues(std::vector<Tensor> tensors) {
  std::vector<RtValue> values;
  values.reserve(tensors.size());
  for (Tensor& t : tensors) values.push_back(RtValue::Of(std::move(t)));
  return values;
}

StatusOr<std::optional<std::vector<int64_t>>> FindGroup(const GroupSpec& spec,
                                                        const ExecContext& context) {
  return GroupOfProcess(spec.mode, spec.groups, GridOf(context), context.replica_id,
                        context.partition_id);
}

StatusOr<std::vector<int64_t>> RequireGroup(const GroupSpec& spec, const ExecContext& context) {
  PLUGRT_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> group, FindGroup(spec, context));
  if (!group) return InvalidArgument(ProcessName(context), " is in none of the process groups");
  return *group;
}

size_t PositionIn(const std::vector<int64_t>& group, int64_t id) {
  for (size_t i = 0; i < group.size(); ++i) {
    if (group[i] == id) return i;
  }
  return group.size();
}

// Swaps `mine` with the group; a group of one needs no hub.
StatusOr<Contributions> Exchange(const std::string& key, const std::vector<int64_t>& group,
                                 ExecContext& context, std::vector<Tensor> mine) {
  const int64_t self = SelfId(context);
  if (group.size() == 1 && group[0] == self) return Contributions{std::move(mine)};
  if (context.collectives == nullptr) {
    return FailedPrecondition("the collective spans ", group.size(),
                              " processes, but this execution runs a single process");
  }
  if (context.collectives->num_replicas() != context.num_replicas ||
      context.collectives->num_partitions() != context.num_partitions) {
    return Internal("the collective hub's process grid does not match the execution's");
  }
  PLUGRT_ASSIGN_OR_RETURN(Contributions all,
                          context.collectives->Exchange(key, group, self, std::move(mine)));
  // Every member must bring operands of the shapes this one has.
  const std::vector<Tensor>& own = all[PositionIn(group, self)];
  for (size_t k = 0; k < all.size(); ++k) {
    if (all[k].size() != own.size()) {
      return InvalidArgument("process ", group[k], " brought ", all[k].size(),
                             " operands to the collective, this one ", own.size());
    }
    for (size_t i = 0; i < own.size(); ++i) {
      if (all[k][i].type() != own[i].type() || all[k][i].dims() != own[i].dims()) {
        return InvalidArgument("operand ", i, " of process ", group[k], " is ",
                               TensorTypeString(all[k][i]), ", this one's is ",
                               TensorTypeString(own[i]));
      }
    }
  }
  return all;
}

std::vector<Tensor> Column(const Contributions& all, size_t operand) {
  std::vector<Tensor> parts;
  parts.reserve(all.size());
  for (const std::vector<Tensor>& member : all) parts.push_back(member[operand]);
  return parts;
}

// Whether a reduction body maps elementwise: each of its ops is an
// elementwise op (no constants, no values from outside the body) on
// rank-0 values. Such a body run on whole chunks of the operands computes,
// element by element, what it computes on scalars, so the fold need not
// run it once per element.
bool MapsElementwise(const shlo::Region& region) {
  if (region.blocks.size() != 1) return false;
  const shlo::Block& block = region.front();
  std::set<const shlo::Value*> defined;
  for (const auto& argument : block.arguments) {
    if (!argument->type.is_tensor() || argument->type.rank() != 0) return false;
    defined.insert(argument.get());
  }
  for (size_t i = 0; i < block.operations.size(); ++i) {
    const shlo::Operation& op = *block.operations[i];
    const bool last = i + 1 == block.operations.size();
    if (last) {
      if (!shlo::IsTerminator(op.code) || op.operands.size() != 1) return false;
    } else if (!shlo::IsElementwise(op.code) || !shlo::MayRemove(op.code) ||
               shlo::TraitsOf(op.code).group != shlo::OpGroup::kElementwise ||
               op.code == OpCode::kBitcastConvert || op.operands.empty() || !op.regions.empty()) {
      return false;
    }
    for (const shlo::Value* operand : op.operands) {
      if (defined.count(operand) == 0) return false;
    }
    for (const auto& result : op.results) {
      if (!result->type.is_tensor() || result->type.rank() != 0) return false;
      defined.insert(result.get());
    }
  }
  return !block.operations.empty();
}

// Elements [first, first + count) of a dense tensor, as a rank-1 tensor
// sharing its storage (never unique, so no kernel writes into it).
Tensor FlatView(const Tensor& t, int64_t first, int64_t count) {
  const size_t element = static_cast<size_t>(shlo::StorageBytes(t.type()));
  return Tensor(t.type(), {count}, t.storage(),
                const_cast<std::byte*>(t.data()) + static_cast<size_t>(first) * element);
}

// Folds `parts` with an elementwise `body` (MapsElementwise) a chunk of
// elements at a time, in group order: the same results as the per-element
// fold, at the speed of the body's kernels.
StatusOr<Tensor> ReducePartsInChunks(const std::vector<Tensor>& parts, const CompiledRegion& body,
                                     ElementType result_type, ExecContext& context) {
  // Small enough to stay in cache between the body's ops.
  constexpr int64_t kChunk = 16384;
  Tensor result = Tensor::Uninitialized(result_type, parts[0].dims());
  const int64_t total = result.num_elements();
  const size_t result_element = static_cast<size_t>(shlo::StorageBytes(result_type));
  for (int64_t first = 0; first < total; first += kChunk) {
    const int64_t count = std::min(kChunk, total - first);
    Tensor acc = FlatView(parts[0], first, count);
    for (size_t k = 1; k < parts.size(); ++k) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> out,
                              body.RunTensors({acc, FlatView(parts[k], first, count)}, context));
      if (out.size() != 1 || out[0].dims() != std::vector<int64_t>{count}) {
        return InvalidArgument("the reduction region must return one rank-0 tensor");
      }
      acc = std::move(out[0]);
    }
    if (acc.type() != result_type) {
      return InvalidArgument("the reduction region returns ", shlo::ElementTypeName(acc.type()),
                             ", the result's element type is ", shlo::ElementTypeName(result_type));
    }
    std::memcpy(result.MutableData() + static_cast<size_t>(first) * result_element, acc.data(),
                static_cast<size_t>(count) * result_element);
  }
  return result;
}

// Whether the tensors' bytes are one whole byte-sized element after another
// (what FlatView needs).
bool DenseBytes(const Tensor& t) {
  const int bytes = shlo::StorageBytes(t.type());
  return bytes >= 1 && t.byte_size() == static_cast<size_t>(t.num_elements()) * bytes;
}

// Folds `parts` element by element with `body`, in group order (a chunk at
// a time when `elementwise`: MapsElementwise).
StatusOr<Tensor> ReduceParts(const std::vector<Tensor>& parts, const CompiledRegion& body,
                             ElementType result_type, ExecContext& context,
                             bool elementwise = false) {
  if (parts.size() == 1 && parts[0].type() == result_type) return parts[0];
  if (elementwise && parts.size() > 1 && parts[0].num_elements() > 1 &&
      std::all_of(parts.begin(), parts.end(), DenseBytes) &&
      shlo::StorageBytes(result_type) >= 1) {
    return ReducePartsInChunks(parts, body, result_type, context);
  }
  Tensor result(result_type, parts[0].dims());
  for (int64_t e = 0; e < result.num_elements(); ++e) {
    Tensor acc = ScalarAt(parts[0], e);
    for (size_t k = 1; k < parts.size(); ++k) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> out,
                              body.RunTensors({acc, ScalarAt(parts[k], e)}, context));
      if (out.size() != 1 || out[0].rank() != 0) {
        return InvalidArgument("the reduction region must return one rank-0 tensor");
      }
      acc = std::move(out[0]);
    }
    if (acc.type() != result_type) {
      return InvalidArgument("the reduction region returns ", TensorTypeString(acc),
                             ", the result's element type is ", shlo::ElementTypeName(result_type));
    }
    StoreScalar(acc, result, e);
  }
  return result;
}

template <typename D>
Tensor SumInDomain(const std::vector<Tensor>& parts, ElementType type) {
  std::vector<D> acc = ToDomain<D>(parts[0]);
  for (size_t k = 1; k < parts.size(); ++k) {
    const std::vector<D> values = ToDomain<D>(parts[k]);
    for (size_t e = 0; e < acc.size(); ++e) {
      if constexpr (std::is_same_v<D, int64_t>) {
        // Integers wrap, as StableHLO's add does.
        acc[e] = static_cast<int64_t>(static_cast<uint64_t>(acc[e]) +
                                      static_cast<uint64_t>(values[e]));
      } else {
        acc[e] += values[e];
      }
    }
  }
  return FromDomain<D>(type, parts[0].dims(), acc);
}

// cross-replica-sum has no region: it adds.
Tensor SumParts(const std::vector<Tensor>& parts) {
  const ElementType type = parts[0].type();
  switch (DomainOf(type)) {
    case Domain::kReal: return SumInDomain<double>(parts, type);
    case Domain::kComplex: return SumInDomain<Complex>(parts, type);
    case Domain::kSigned: return SumInDomain<int64_t>(parts, type);
    case Domain::kUnsigned: break;
  }
  return SumInDomain<uint64_t>(parts, type);
}

// Elements [index * size, (index + 1) * size) of `t` along `dimension`.
StatusOr<Tensor> Chunk(const Tensor& t, int64_t dimension, int64_t index, int64_t size) {
  std::vector<int64_t> start(t.dims().size(), 0);
  std::vector<int64_t> limit = t.dims();
  std::vector<int64_t> strides(t.dims().size(), 1);
  start[dimension] = index * size;
  limit[dimension] = (index + 1) * size;
  return Slice(t, start, limit, strides);
}

Status CheckSplit(const Tensor& t, int64_t dimension, int64_t count, std::string_view what) {
  if (count <= 0 || t.dims()[dimension] % count != 0) {
    return InvalidArgument(what, " ", dimension, " of size ", t.dims()[dimension],
                           " does not split into ", count, " equal parts");
  }
  return OkStatus();
}

// The reduction a region computes when it is one add, multiply, maximum or
// minimum of its two arguments (what Gloo's all-reduce can do across
// processes); nullopt for any other region.
std::optional<RemoteExchange::Reduction> SimpleReduction(const shlo::Operation& op) {
  if (op.regions.size() != 1 || op.regions[0]->blocks.size() != 1) return std::nullopt;
  const shlo::Block& block = op.regions[0]->front();
  if (block.arguments.size() != 2 || block.operations.size() != 2) return std::nullopt;
  const shlo::Operation& combine = *block.operations[0];
  const shlo::Operation& ret = *block.operations[1];
  if (ret.code != OpCode::kReturn || ret.operands.size() != 1 || combine.results.size() != 1 ||
      ret.operands[0] != combine.result(0) || combine.operands.size() != 2) {
    return std::nullopt;
  }
  const shlo::Value* a = block.arguments[0].get();
  const shlo::Value* b = block.arguments[1].get();
  if (!((combine.operands[0] == a && combine.operands[1] == b) ||
        (combine.operands[0] == b && combine.operands[1] == a))) {
    return std::nullopt;
  }
  switch (combine.code) {
    case OpCode::kAdd: return RemoteExchange::Reduction::kSum;
    case OpCode::kMultiply: return RemoteExchange::Reduction::kProduct;
    case OpCode::kMaximum: return RemoteExchange::Reduction::kMax;
    case OpCode::kMinimum: return RemoteExchange::Reduction::kMin;
    default: return std::nullopt;
  }
}

// Whether an all-reduce of `operands` over `group` takes the cross-process
// way (CollectiveHub::AllReduceAcrossNodes): a group spanning OS processes,
// results of the operands' types, element types Gloo reduces.
bool ReducesAcrossNodes(const ExecContext& ctx, const std::vector<int64_t>& group,
                        const std::vector<Tensor>& operands,
                        const std::vector<ElementType>& result_types) {
  if (ctx.collectives == nullptr || !ctx.collectives->SpansNodes(group)) return false;
  const RemoteExchange& exchange = *ctx.collectives->cross_process().exchange;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].type() != result_types[i] || !exchange.CanReduce(result_types[i])) {
      return false;
    }
  }
  return true;
}

// ---- the ops ------------------------------------------------------------------

// all_reduce; collective_reduce (only the group's first process gets the
// result, the others zeros); cross-replica-sum (adds, no region).
StatusOr<std::unique_ptr<CompiledOp>> CompileAllReduce(const shlo::Operation& op,
                                                       CompileContext& context) {
  PLUGRT_ASSIGN_OR_RETURN(GroupSpec spec, ReplicaGroupSpec(op));
  if (op.operands.empty()) return Invalid(op, "needs at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckResultCount(op, op.operands.size()));
  const bool sums = op.code == OpCode::kCrossReplicaSum;
  const bool to_root = op.code == OpCode::kCollectiveReduce;
  std::shared_ptr<const CompiledRegion> body;
  bool elementwise = false;
  if (!sums) {
    PLUGRT_ASSIGN_OR_RETURN(body, ReductionBody(op, context));
    elementwise = MapsElementwise(*op.regions[0]);
  } else if (!op.regions.empty()) {
    return Invalid(op, "takes no region");
  }
  std::vector<ElementType> result_types;
  for (const auto& result : op.results) result_types.push_back(result->type.element_type());
  // Across OS processes, a plain sum/product/max/min runs as Gloo's
  // all-reduce; any other reduction gathers the operands (below).
  std::optional<RemoteExchange::Reduction> simple;
  if (sums) simple = RemoteExchange::Reduction::kSum;
  if (!sums && !to_root) simple = SimpleReduction(op);

  return MakeOp([spec, body, result_types, to_root, simple, elementwise](
                    const std::vector<RtValue>& operands, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> mine, OperandTensors(operands));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> group, RequireGroup(spec, ctx));
    if (simple && ReducesAcrossNodes(ctx, group, mine, result_types)) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> reduced,
                              ctx.collectives->AllReduceAcrossNodes(spec.key, group, SelfId(ctx),
                                                                    std::move(mine), *simple));
      return AsValues(std::move(reduced));
    }
    PLUGRT_ASSIGN_OR_RETURN(Contributions all, Exchange(spec.key, group, ctx, mine));
    std::vector<Tensor> results;
    const bool is_root = group[0] == SelfId(ctx);
    for (size_t i = 0; i < mine.size(); ++i) {
      if (to_root && !is_root) {
        results.emplace_back(result_types[i], mine[i].dims());
      } else if (body == nullptr) {
        results.push_back(SumParts(Column(all, i)));
      } else {
        PLUGRT_ASSIGN_OR_RETURN(
            Tensor reduced, ReduceParts(Column(all, i), *body, result_types[i], ctx, elementwise));
        results.push_back(std::move(reduced));
      }
    }
    return AsValues(std::move(results));
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileAllGather(const shlo::Operation& op) {
  PLUGRT_ASSIGN_OR_RETURN(GroupSpec spec, ReplicaGroupSpec(op));
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, IntAttribute(op, "all_gather_dim"));
  if (op.operands.empty()) return Invalid(op, "needs at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckDimension(op, "all_gather_dim", dimension));
  PLUGRT_RETURN_IF_ERROR(CheckResultCount(op, op.operands.size()));
  return MakeOp([spec, dimension](const std::vector<RtValue>& operands,
                                  ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> mine, OperandTensors(operands));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> group, RequireGroup(spec, ctx));
    PLUGRT_ASSIGN_OR_RETURN(Contributions all, Exchange(spec.key, group, ctx, std::move(mine)));
    std::vector<Tensor> results;
    for (size_t i = 0; i < all[0].size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(Tensor joined, Concatenate(Column(all, i), dimension));
      results.push_back(std::move(joined));
    }
    return AsValues(std::move(results));
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileReduceScatter(const shlo::Operation& op,
                                                           CompileContext& context) {
  PLUGRT_ASSIGN_OR_RETURN(GroupSpec spec, ReplicaGroupSpec(op));
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, IntAttribute(op, "scatter_dimension"));
  if (op.operands.empty()) return Invalid(op, "needs at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckDimension(op, "scatter_dimension", dimension));
  PLUGRT_RETURN_IF_ERROR(CheckResultCount(op, op.operands.size()));
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> body, ReductionBody(op, context));
  const bool elementwise = MapsElementwise(*op.regions[0]);
  std::vector<ElementType> result_types;
  for (const auto& result : op.results) result_types.push_back(result->type.element_type());

  return MakeOp([spec, dimension, body, result_types, elementwise](
                    const std::vector<RtValue>& operands, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> mine, OperandTensors(operands));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> group, RequireGroup(spec, ctx));
    const int64_t count = static_cast<int64_t>(group.size());
    for (const Tensor& t : mine) {
      PLUGRT_RETURN_IF_ERROR(CheckSplit(t, dimension, count, "scatter_dimension"));
    }
    const int64_t position = static_cast<int64_t>(PositionIn(group, SelfId(ctx)));
    PLUGRT_ASSIGN_OR_RETURN(Contributions all, Exchange(spec.key, group, ctx, std::move(mine)));
    std::vector<Tensor> results;
    for (size_t i = 0; i < all[0].size(); ++i) {
      // Reduce only this process's block: slicing first saves the rest.
      const int64_t size = all[0][i].dims()[dimension] / count;
      std::vector<Tensor> blocks;
      for (const std::vector<Tensor>& member : all) {
        PLUGRT_ASSIGN_OR_RETURN(Tensor block, Chunk(member[i], dimension, position, size));
        blocks.push_back(std::move(block));
      }
      PLUGRT_ASSIGN_OR_RETURN(Tensor reduced,
                              ReduceParts(blocks, *body, result_types[i], ctx, elementwise));
      results.push_back(std::move(reduced));
    }
    return AsValues(std::move(results));
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileAllToAll(const shlo::Operation& op) {
  int64_t channel = 0;
  GroupSpec spec;
  PLUGRT_ASSIGN_OR_RETURN(spec.mode, ChannelMode(op, &channel));
  PLUGRT_ASSIGN_OR_RETURN(spec.groups, GroupsAttribute(op, "replica_groups", false));
  spec.key = StrCat(op.name, "#", channel);
  PLUGRT_ASSIGN_OR_RETURN(int64_t split_dimension, IntAttribute(op, "split_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t concat_dimension, IntAttribute(op, "concat_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t split_count, IntAttribute(op, "split_count"));
  if (op.operands.empty()) return Invalid(op, "needs at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckDimension(op, "split_dimension", split_dimension));
  PLUGRT_RETURN_IF_ERROR(CheckDimension(op, "concat_dimension", concat_dimension));
  if (split_count <= 0) return Invalid(op, StrCat("split_count ", split_count, " must be > 0"));
  PLUGRT_RETURN_IF_ERROR(CheckResultCount(op, op.operands.size()));

  return MakeOp([spec, split_dimension, concat_dimension, split_count](
                    const std::vector<RtValue>& operands, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> mine, OperandTensors(operands));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> group, RequireGroup(spec, ctx));
    if (static_cast<int64_t>(group.size()) != split_count) {
      return InvalidArgument("split_count is ", split_count, " but the process group has ",
                             group.size(), " processes");
    }
    for (const Tensor& t : mine) {
      PLUGRT_RETURN_IF_ERROR(CheckSplit(t, split_dimension, split_count, "split_dimension"));
    }
    const int64_t position = static_cast<int64_t>(PositionIn(group, SelfId(ctx)));
    PLUGRT_ASSIGN_OR_RETURN(Contributions all, Exchange(spec.key, group, ctx, std::move(mine)));
    std::vector<Tensor> results;
    for (size_t i = 0; i < all[0].size(); ++i) {
      // Each sender's block number `position`, joined in group order.
      const int64_t size = all[0][i].dims()[split_dimension] / split_count;
      std::vector<Tensor> blocks;
      for (const std::vector<Tensor>& member : all) {
        PLUGRT_ASSIGN_OR_RETURN(Tensor block, Chunk(member[i], split_dimension, position, size));
        blocks.push_back(std::move(block));
      }
      PLUGRT_ASSIGN_OR_RETURN(Tensor joined, Concatenate(blocks, concat_dimension));
      results.push_back(std::move(joined));
    }
    return AsValues(std::move(results));
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileCollectivePermute(const shlo::Operation& op) {
  int64_t channel = 0;
  PLUGRT_ASSIGN_OR_RETURN(GroupMode mode, ChannelMode(op, &channel));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> pairs,
                          GroupsAttribute(op, "source_target_pairs", true));
  std::set<int64_t> sources;
  std::set<int64_t> targets;
  for (const std::vector<int64_t>& pair : pairs) {
    if (pair.size() != 2) return Invalid(op, "source_target_pairs must be pairs of ids >= 0");
    if (!sources.insert(pair[0]).second || !targets.insert(pair[1]).second) {
      return Invalid(op, StrCat("source_target_pairs repeats a source or target: [", pair[0],
                                ", ", pair[1], "]"));
    }
  }
  if (op.operands.empty()) return Invalid(op, "needs at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckResultCount(op, op.operands.size()));
  const std::string key = StrCat(op.name, "#", channel);
  const bool by_partition = mode == GroupMode::kCrossPartition;

  return MakeOp([key, pairs, by_partition](const std::vector<RtValue>& operands,
                                           ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> mine, OperandTensors(operands));
    const ProcessGrid grid = GridOf(ctx);
    const int64_t domain = by_partition ? grid.num_partitions : grid.num_replicas;
    const int64_t own = by_partition ? ctx.partition_id : ctx.replica_id;
    std::optional<int64_t> source;
    bool involved = false;
    for (const std::vector<int64_t>& pair : pairs) {
      if (pair[0] >= domain || pair[1] >= domain) {
        return InvalidArgument("source_target_pairs names ", by_partition ? "partition" : "replica",
                               " ", std::max(pair[0], pair[1]), " but the execution has ",
                               domain);
      }
      if (pair[1] == own) source = pair[0];
      if (pair[0] == own || pair[1] == own) involved = true;
    }
    std::vector<Tensor> results;
    if (!involved) {
      for (const Tensor& t : mine) results.emplace_back(t.type(), t.dims());
      return AsValues(std::move(results));
    }
    // Everyone in the pairs meets once: the processes sharing this one's
    // partition (or replica) that appear in some pair, in id order.
    std::set<int64_t> members;
    for (const std::vector<int64_t>& pair : pairs) members.insert(pair.begin(), pair.end());
    std::vector<int64_t> group;
    for (int64_t id : members) {
      group.push_back(by_partition ? grid.Flatten(ctx.replica_id, id)
                                   : grid.Flatten(id, ctx.partition_id));
    }
    PLUGRT_ASSIGN_OR_RETURN(Contributions all, Exchange(key, group, ctx, mine));
    for (size_t i = 0; i < mine.size(); ++i) {
      if (!source) {
        results.emplace_back(mine[i].type(), mine[i].dims());
      } else {
        const int64_t from = by_partition ? grid.Flatten(ctx.replica_id, *source)
                                          : grid.Flatten(*source, ctx.partition_id);
        results.push_back(all[PositionIn(group, from)][i]);
      }
    }
    return AsValues(std::move(results));
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileCollectiveBroadcast(const shlo::Operation& op) {
  int64_t channel = 0;
  GroupSpec spec;
  PLUGRT_ASSIGN_OR_RETURN(spec.mode, ChannelMode(op, &channel));
  PLUGRT_ASSIGN_OR_RETURN(spec.groups, GroupsAttribute(op, "replica_groups", false));
  spec.key = StrCat(op.name, "#", channel);
  PLUGRT_ASSIGN_OR_RETURN(bool dynamic_root, FlagAttribute(op, "has_dynamic_root"));
  const size_t data_count = op.operands.size() - (dynamic_root ? 1 : 0);
  if (op.operands.empty() || data_count == 0) return Invalid(op, "needs at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckResultCount(op, data_count));
  if (dynamic_root) {
    const shlo::Type& root_type = op.operands.back()->type;
    if (!root_type.is_tensor() || root_type.rank() != 1 || !shlo::IsInteger(root_type.element_type()) ||
        (root_type.dims()[0] != 1 && root_type.dims()[0] != static_cast<int64_t>(data_count))) {
      return Invalid(op, StrCat("the root operand must be a rank-1 integer tensor of ", data_count,
                                " elements, got ", root_type.ToString()));
    }
  }

  return MakeOp([spec, dynamic_root, data_count](const std::vector<RtValue>& operands,
                                                 ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> mine, OperandTensors(operands));
    std::vector<int64_t> roots(data_count, 0);
    if (dynamic_root) {
      const std::vector<int64_t> values = ToDomain<int64_t>(mine.back());
      if (values.size() != 1 && values.size() != data_count) {
        return InvalidArgument("the root operand has ", values.size(), " elements, expected ",
                               data_count);
      }
      for (size_t i = 0; i < data_count; ++i) roots[i] = values[values.size() == 1 ? 0 : i];
      mine.pop_back();
    }
    PLUGRT_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> group, FindGroup(spec, ctx));
    std::vector<Tensor> results;
    if (!group) {  // outside every group: zeros
      for (const Tensor& t : mine) results.emplace_back(t.type(), t.dims());
      return AsValues(std::move(results));
    }
    for (int64_t root : roots) {
      if (root < 0 || root >= static_cast<int64_t>(group->size())) {
        return InvalidArgument("root ", root, " is out of range for a process group of ",
                               group->size());
      }
    }
    PLUGRT_ASSIGN_OR_RETURN(Contributions all, Exchange(spec.key, *group, ctx, std::move(mine)));
    for (size_t i = 0; i < data_count; ++i) results.push_back(all[roots[i]][i]);
    return AsValues(std::move(results));
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileCollectiveOp(const shlo::Operation& op,
                                                          CompileContext& context) {
  for (const shlo::Value* operand : op.operands) {
    if (operand->type.kind() == shlo::Type::Kind::kUnsupported) {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat("type ", operand->type.unsupported_text(),
                            " is not supported"));
    }
  }
  switch (op.code) {
    case OpCode::kAllReduce:
    case OpCode::kCrossReplicaSum:
      return CompileAllReduce(op, context);
    case OpCode::kAllGather:
      return CompileAllGather(op);
    case OpCode::kReduceScatter:
      return CompileReduceScatter(op, context);
    case OpCode::kAllToAll:
      return CompileAllToAll(op);
    case OpCode::kCollectivePermute:
      return CompileCollectivePermute(op);
    case OpCode::kCollectiveBroadcast:
      return CompileCollectiveBroadcast(op);
    case OpCode::kCollectiveReduce:
      return CompileAllReduce(op, context);
    default:
      return OpError(op, StatusCode::kInternal,
                     "registered with the collective group, which has no case for it");
  }
}

}  // namespace

void RegisterCollectiveOps(OpRegistry& registry) {
  registry.SetGroup(shlo::OpGroup::kCollective, &CompileCollectiveOp);
}

}  // namespace plugrt::cpu
