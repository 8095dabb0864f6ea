// plugrt StableHLO verifier: rules of the control ops (while, if, case),
// tuples, tokens and I/O (after_all, create_token, infeed, outfeed, send,
// recv), the collectives (all_reduce, all_gather, all_to_all,
// reduce_scatter, collective_permute, collective_broadcast), replica_id and
// partition_id, custom_call, composite and the corpus's check.* ops.
//
// Size: one file per op group, as every verifier rule file is; the region
// and collective rules share the replica-group and region-signature checks.
#include <algorithm>
#include <climits>

#include "stablehlo/check_targets.h"
#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {
namespace {

// ---- small helpers --------------------------------------------------------

bool IsScalarOf(const Type& type, ElementType element) {
  return type.is_tensor() && type.rank() == 0 && type.element_type() == element;
}

bool IsTensorOrToken(const Type& type) { return type.is_tensor() || type.is_token(); }

// a * b, or kDynamicSize when either is unknown or the product overflows
// (b > 0).
int64_t MulOrDynamic(int64_t a, int64_t b) {
  if (a == kDynamicSize || b == kDynamicSize) return kDynamicSize;
  if (a > INT64_MAX / b || a < INT64_MIN / b) return kDynamicSize;
  return a * b;
}

// An optional attribute that must be a string when present.
Status OptionalStringAttr(const Operation& op, std::string_view name) {
  const Attribute* attr = op.attribute(name);
  if (attr != nullptr && attr->kind != Attribute::Kind::kString) {
    return Violation(op, kStructure, StrCat("attribute '", name, "' is a string"), "got ",
                     attr->ToString());
  }
  return OkStatus();
}

// ---- process groups ------------------------------------------------------------

// replica_groups: a [num_groups, group_size] i64 literal, -1 padding the
// shorter groups. An integer list that is not a rank-2 literal is one group.
struct Groups {
  bool present = false;
  std::vector<int64_t> ids;  // row-major, padding included
  int64_t group_size = 0;    // dim(replica_groups, 1)
  bool padded = false;       // some entry is -1
};

StatusOr<Groups> GroupsAttr(const Operation& op, std::string_view name) {
  Groups groups;
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) return groups;
  groups.present = true;
  PLUGRT_ASSIGN_OR_RETURN(groups.ids, IntListAttr(op, name, {}));
  groups.group_size = static_cast<int64_t>(groups.ids.size());
  if (attr->kind == Attribute::Kind::kDenseElements && attr->type.is_tensor()) {
    const std::vector<int64_t>& dims = attr->type.dims();
    if (dims.size() != 2) {
      return Violation(op, kStructure, StrCat("attribute '", name, "' is a 2-dimensional tensor"),
                       "got ", attr->type.ToString());
    }
    groups.group_size = dims[1];
  }
  groups.padded = std::find(groups.ids.begin(), groups.ids.end(), -1) != groups.ids.end();
  return groups;
}

// The ids of `groups` without the -1 padding.
std::vector<int64_t> RealIds(const Groups& groups) {
  std::vector<int64_t> ids;
  for (int64_t id : groups.ids) {
    if (id != -1) ids.push_back(id);
  }
  return ids;
}

// Unique ids (label `unique`); ids >= 0 and, when the groups must cover every
// process (`complete`), each below the number of ids: unique ids in
// [0, num_processes) numbering num_processes are exactly 0..n-1 (label
// `range`).
Status CheckGroups(const Operation& op, const Groups& groups, std::string_view unique,
                   std::string_view range, bool complete) {
  const std::vector<int64_t> ids = RealIds(groups);
  if (!AllUnique(ids)) {
    return Violation(op, unique, "all values in replica_groups are unique", "replica_groups ",
                     ListToString(groups.ids));
  }
  const int64_t count = static_cast<int64_t>(ids.size());
  for (int64_t id : ids) {
    if (id < 0) {
      return Violation(op, range, "0 <= replica_groups[i]", "replica_groups holds ", id);
    }
    if (complete && id >= count) {
      return Violation(op, range,
                       "0 <= replica_groups[i] < size(replica_groups) (the groups cover every "
                       "process exactly once)",
                       "replica_groups holds ", id, " among ", count, " ids");
    }
  }
  return OkStatus();
}

// If use_global_device_ids, the channel handle is positive.
Status CheckGlobalDeviceIds(const Operation& op, std::string_view label,
                            const ChannelHandle& channel, bool global_ids) {
  if (global_ids && channel.handle <= 0) {
    return Violation(op, label, "use_global_device_ids = true implies channel_id > 0",
                     "channel_id is ", channel.handle);
  }
  return OkStatus();
}

// At least one operand, as many results, every one a tensor.
Status CheckCollectiveCounts(const Operation& op) {
  if (op.operands.empty()) {
    return Violation(op, kStructure, "number of operands", "expected at least 1, got 0");
  }
  return CheckTensorCounts(op, -1, static_cast<int>(op.operands.size()));
}

// The result of each operand has the operand's type.
Status CheckResultsMatchOperands(const Operation& op, std::string_view label) {
  for (size_t i = 0; i < op.operands.size() && i < op.results.size(); ++i) {
    if (!TypesCompatible(OperandType(op, i), ResultType(op, i))) {
      return Violation(op, label, "type(result) = type(operand)", "operand #", i, " is ",
                       OperandType(op, i).ToString(), ", result is ",
                       ResultType(op, i).ToString());
    }
  }
  return OkStatus();
}

// The reduction region takes (tensor<E>, tensor<E>) and returns tensor<E>,
// E the element type of every operand.
Status CheckReductionRegion(const Operation& op, std::string_view label) {
  PLUGRT_RETURN_IF_ERROR(CheckRegionCount(op, 1));
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Type scalar = Type::Scalar(OperandType(op, i).element_type());
    const std::vector<Type> arguments = {scalar, scalar};
    const std::vector<Type> results = {scalar};
    PLUGRT_RETURN_IF_ERROR(CheckRegionSignature(
        op, op.region(0), "computation", label,
        "computation has type (tensor<E>, tensor<E>) -> tensor<E>, E = element_type(operand)",
        &arguments, &results));
  }
  return OkStatus();
}

// Each operand has a dimension `dim`: 0 <= dim < rank(operand).
Status CheckDimInRange(const Operation& op, std::string_view label, std::string_view name,
                       int64_t dim) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const int64_t rank = OperandType(op, i).rank();
    if (dim < 0 || dim >= rank) {
      return Violation(op, label, StrCat(name, " in [0, rank(operand))"), name, " is ", dim,
                       ", operand #", i, " has rank ", rank);
    }
  }
  return OkStatus();
}

// type(result) = type(operand) except dim(result, dim) = expected(dim(operand, dim)),
// `expected` returning kDynamicSize when unknown.
template <typename Fn>
Status CheckResultShape(const Operation& op, std::string_view label, std::string_view rule,
                        int64_t dim, Fn expected) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Type& operand = OperandType(op, i);
    const Type& result = ResultType(op, i);
    bool ok = operand.element_type() == result.element_type() && operand.rank() == result.rank();
    for (int64_t d = 0; ok && d < operand.rank(); ++d) {
      const int64_t want = d == dim ? expected(operand.dims()[d]) : operand.dims()[d];
      ok = DimsCompatible(want, result.dims()[d]);
    }
    if (!ok) {
      return Violation(op, label, rule, "operand #", i, " is ", operand.ToString(),
                       ", result is ", result.ToString());
    }
  }
  return OkStatus();
}

// ---- control flow ---------------------------------------------------------------

Status CheckWhile(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckRegionCount(op, 2));
  const std::vector<Type> operands = OperandTypes(op);
  const std::vector<Type> cond_results = {Type::Scalar(ElementType::kI1)};
  PLUGRT_RETURN_IF_ERROR(CheckRegionSignature(op, op.region(0), "cond", "C1",
                                              "cond has type (T0, ..., TN-1) -> tensor<i1>",
                                              &operands, &cond_results));
  PLUGRT_RETURN_IF_ERROR(CheckRegionSignature(
      op, op.region(1), "body", "C2", "body has type (T0, ..., TN-1) -> (T0, ..., TN-1)",
      &operands, &operands));
  const std::vector<Type> results = ResultTypes(op);
  if (!ListsCompatible(results, operands)) {
    return Violation(op, "C3", "type(results[i]) = type(operand[i])", "results (",
                     TypesToString(results), "), operands (", TypesToString(operands), ")");
  }
  return OkStatus();
}

// if / case: branches take no arguments, return the same types, which are
// the op's result types.
Status CheckBranches(const Operation& op, std::string_view no_inputs, std::string_view same,
                     std::string_view results_rule) {
  for (size_t i = 0; i < op.regions.size(); ++i) {
    const std::vector<Type> arguments = RegionArgumentTypes(op.region(i));
    if (!arguments.empty()) {
      return Violation(op, no_inputs, "branches have 0 inputs", "branch #", i, " takes (",
                       TypesToString(arguments), ")");
    }
  }
  const std::vector<Type> first = RegionResultTypes(op.region(0));
  for (size_t i = 1; i < op.regions.size(); ++i) {
    const std::vector<Type> other = RegionResultTypes(op.region(i));
    if (!ListsCompatible(first, other)) {
      return Violation(op, same, "branches have the same output types", "branch #0 returns (",
                       TypesToString(first), "), branch #", i, " returns (",
                       TypesToString(other), ")");
    }
  }
  const std::vector<Type> results = ResultTypes(op);
  if (!ListsCompatible(results, first)) {
    return Violation(op, results_rule, "type(results[i]) = type(branches[0]).outputs[i]",
                     "results (", TypesToString(results), "), branch #0 returns (",
                     TypesToString(first), ")");
  }
  return OkStatus();
}

Status CheckIf(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 1, -1));
  PLUGRT_RETURN_IF_ERROR(CheckRegionCount(op, 2));
  if (!IsScalarOf(OperandType(op, 0), ElementType::kI1)) {
    return Violation(op, "I1", "pred is a 0-dimensional tensor of type i1", "pred is ",
                     OperandType(op, 0).ToString());
  }
  return CheckBranches(op, "C1", "C2", "C3");
}

Status CheckCase(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 1, -1));
  if (!IsScalarOf(OperandType(op, 0), ElementType::kSI32)) {
    return Violation(op, "I1", "index is a 0-dimensional tensor of type si32", "index is ",
                     OperandType(op, 0).ToString());
  }
  if (op.regions.empty()) {
    return Violation(op, "C1", "branches have at least one function", "there are none");
  }
  return CheckBranches(op, "C2", "C3", "C4");
}

Status CheckOptimizationBarrier(const Operation& op) {
  if (op.operands.size() != op.results.size()) {
    return Violation(op, "C1", "size(operand) = size(result)", op.operands.size(),
                     " operands, ", op.results.size(), " results");
  }
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!IsTensorOrToken(OperandType(op, i))) {
      return Violation(op, kStructure, "operands are tensors or tokens", "operand #", i,
                       " is ", OperandType(op, i).ToString());
    }
  }
  return CheckResultsMatchOperands(op, "C2");
}

// ---- tuples and tokens ---------------------------------------------------------

Status CheckTuple(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, -1, 1));
  const Type& result = ResultType(op, 0);
  if (!result.is_tuple()) {
    return Violation(op, kStructure, "the result is a tuple", "got ", result.ToString());
  }
  const std::vector<Type>& elements = result.tuple_elements();
  if (elements.size() != op.operands.size()) {
    return Violation(op, "C1", "size(val) = size(result)", op.operands.size(), " values, ",
                     result.ToString(), " has ", elements.size(), " elements");
  }
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!TypesCompatible(OperandType(op, i), elements[i])) {
      return Violation(op, "C2", "type(val[i]) = type(result[i])", "val #", i, " is ",
                       OperandType(op, i).ToString(), ", element #", i, " is ",
                       elements[i].ToString());
    }
  }
  return OkStatus();
}

Status CheckGetTupleElement(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  if (!operand.is_tuple()) {
    return Violation(op, "I1", "operand is a tuple", "got ", operand.ToString());
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t index, RequiredIntAttr(op, "index"));
  const std::vector<Type>& elements = operand.tuple_elements();
  if (index < 0 || index >= static_cast<int64_t>(elements.size())) {
    return Violation(op, "C1", "0 <= index < size(operand)", "index ", index, " for ",
                     operand.ToString());
  }
  const Type& element = elements[static_cast<size_t>(index)];
  if (!TypesCompatible(element, ResultType(op, 0))) {
    return Violation(op, "C2", "type(operand[index]) = type(result)", "element #", index,
                     " is ", element.ToString(), ", result is ", ResultType(op, 0).ToString());
  }
  return OkStatus();
}

Status CheckTokenResult(const Operation& op) {
  if (!ResultType(op, 0).is_token()) {
    return Violation(op, kStructure, "the result is a token", "got ",
                     ResultType(op, 0).ToString());
  }
  return OkStatus();
}

Status CheckAfterAll(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, -1, 1));
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!OperandType(op, i).is_token()) {
      return Violation(op, "I1", "inputs are tokens", "input #", i, " is ",
                       OperandType(op, i).ToString());
    }
  }
  return CheckTokenResult(op);
}

Status CheckCreateToken(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 0, 1));
  return CheckTokenResult(op);
}

// ---- infeed, outfeed, send, recv --------------------------------------------

// The one operand is a token.
Status CheckTokenOperand(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 1, -1));
  if (!OperandType(op, 0).is_token()) {
    return Violation(op, "I1", "token is a token", "got ", OperandType(op, 0).ToString());
  }
  return OkStatus();
}

// Results: payload tensors or tokens, then a token (labels: at least one
// result, last one a token).
Status CheckPayloadAndToken(const Operation& op, std::string_view nonempty,
                            std::string_view last_token) {
  if (op.results.empty()) {
    return Violation(op, nonempty, "size(results) >= 1", "there are none");
  }
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (!IsTensorOrToken(ResultType(op, i))) {
      return Violation(op, kStructure, "results are tensors or tokens", "result #", i, " is ",
                       ResultType(op, i).ToString());
    }
  }
  if (!op.results.back()->type.is_token()) {
    return Violation(op, last_token, "type(results[-1]) = token", "the last result is ",
                     op.results.back()->type.ToString());
  }
  return OkStatus();
}

// Inputs: tensors, then a token; one token result.
Status CheckInputsAndToken(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, -1, 1));
  if (op.operands.empty() || !op.operands.back()->type.is_token()) {
    return Violation(op, "I2", "the last operand is the token",
                     op.operands.empty() ? std::string("there are no operands")
                                         : "it is " + op.operands.back()->type.ToString());
  }
  for (size_t i = 0; i + 1 < op.operands.size(); ++i) {
    if (!OperandType(op, i).is_tensor()) {
      return Violation(op, "I1", "inputs are tensors", "input #", i, " is ",
                       OperandType(op, i).ToString());
    }
  }
  return CheckTokenResult(op);
}

// channel_type (the handle's type: 1 DEVICE_TO_DEVICE, 2 DEVICE_TO_HOST,
// 3 HOST_TO_DEVICE; 0 unset) follows is_host_transfer.
Status CheckChannelType(const Operation& op, int64_t host_type, std::string_view host_name) {
  PLUGRT_ASSIGN_OR_RETURN(ChannelHandle channel, ChannelHandleAttr(op));
  PLUGRT_ASSIGN_OR_RETURN(bool host, BoolAttr(op, "is_host_transfer", false));
  if (channel.type == 0) return OkStatus();
  const int64_t wanted = host ? host_type : 1;
  if (channel.type != wanted) {
    return Violation(op, "C1",
                     StrCat("channel_type is ", host_name,
                            " if is_host_transfer, else DEVICE_TO_DEVICE"),
                     "is_host_transfer = ", host ? "true" : "false", ", channel type ",
                     channel.type, " (expected ", wanted, ")");
  }
  return OkStatus();
}

Status CheckInfeed(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTokenOperand(op));
  PLUGRT_RETURN_IF_ERROR(OptionalStringAttr(op, "infeed_config"));
  return CheckPayloadAndToken(op, "C1", "C2");
}

Status CheckOutfeed(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckInputsAndToken(op));
  return OptionalStringAttr(op, "outfeed_config");
}

Status CheckSend(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckInputsAndToken(op));
  return CheckChannelType(op, 2, "DEVICE_TO_HOST");
}

Status CheckRecv(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTokenOperand(op));
  PLUGRT_RETURN_IF_ERROR(CheckChannelType(op, 3, "HOST_TO_DEVICE"));
  return CheckPayloadAndToken(op, "C2", "C3");
}

Status CheckProcessId(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 0, 1));
  if (!IsScalarOf(ResultType(op, 0), ElementType::kUI32)) {
    return Violation(op, kStructure, "the result is a 0-dimensional tensor of type ui32",
                     "got ", ResultType(op, 0).ToString());
  }
  return OkStatus();
}

// ---- collectives ------------------------------------------------------------------

// The process-group attributes of all_reduce, all_gather and
// reduce_scatter: replica_groups (CheckGroups under `unique` and `range`),
// channel_handle and use_global_device_ids (CheckGlobalDeviceIds under
// `global`). Returns the size of every process group when the attributes
// fix it (groups of dim(replica_groups, 1) processes unless padded, and
// not multiplied by num_partitions under cross_replica_and_partition), else
// kDynamicSize.
StatusOr<int64_t> CheckProcessGroups(const Operation& op, std::string_view unique,
                                     std::string_view range, std::string_view global) {
  PLUGRT_ASSIGN_OR_RETURN(Groups groups, GroupsAttr(op, "replica_groups"));
  PLUGRT_RETURN_IF_ERROR(CheckGroups(op, groups, unique, range, true));
  PLUGRT_ASSIGN_OR_RETURN(ChannelHandle channel, ChannelHandleAttr(op));
  PLUGRT_ASSIGN_OR_RETURN(bool global_ids, BoolAttr(op, "use_global_device_ids", false));
  PLUGRT_RETURN_IF_ERROR(CheckGlobalDeviceIds(op, global, channel, global_ids));
  if (!groups.present || groups.padded || groups.group_size <= 0) return kDynamicSize;
  if (channel.handle > 0 && !global_ids) return kDynamicSize;
  return groups.group_size;
}

// "group size" for an unknown group size, else the size.
std::string GroupSizeText(int64_t size) {
  return size == kDynamicSize ? std::string("group size") : std::to_string(size);
}

Status CheckAllReduce(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCollectiveCounts(op));
  PLUGRT_RETURN_IF_ERROR(CheckProcessGroups(op, "C1", "C3", "C4").status());
  PLUGRT_RETURN_IF_ERROR(CheckReductionRegion(op, "C5"));
  return CheckResultsMatchOperands(op, "C6");
}

Status CheckAllGather(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCollectiveCounts(op));
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, RequiredIntAttr(op, "all_gather_dim"));
  PLUGRT_RETURN_IF_ERROR(CheckDimInRange(op, "C1", "all_gather_dim", dim));
  PLUGRT_ASSIGN_OR_RETURN(int64_t size, CheckProcessGroups(op, "C2", "C4", "C5"));
  return CheckResultShape(
      op, "C6",
      StrCat("type(result) = type(operand) except dim(result, all_gather_dim) = "
             "dim(operand, all_gather_dim) * ",
             GroupSizeText(size)),
      dim, [size](int64_t d) { return MulOrDynamic(d, size); });
}

Status CheckReduceScatter(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCollectiveCounts(op));
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, RequiredIntAttr(op, "scatter_dimension"));
  PLUGRT_RETURN_IF_ERROR(CheckDimInRange(op, "C2", "scatter_dimension", dim));
  PLUGRT_ASSIGN_OR_RETURN(int64_t size, CheckProcessGroups(op, "C3", "C5", "C6"));
  if (size != kDynamicSize) {
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const int64_t d = OperandType(op, i).dims()[static_cast<size_t>(dim)];
      if (d != kDynamicSize && d % size != 0) {
        return Violation(op, "C1", "dim(operand, scatter_dimension) % dim(process_groups, 1) = 0",
                         "operand #", i, " has ", d, " along dimension ", dim,
                         ", groups of ", size);
      }
    }
  }
  PLUGRT_RETURN_IF_ERROR(CheckReductionRegion(op, "C7"));
  return CheckResultShape(
      op, "C8",
      StrCat("type(result) = type(operand) except dim(result, scatter_dimension) = "
             "dim(operand, scatter_dimension) / ",
             GroupSizeText(size)),
      dim, [size](int64_t d) {
        return d == kDynamicSize || size == kDynamicSize ? kDynamicSize : d / size;
      });
}

Status CheckAllToAll(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCollectiveCounts(op));
  PLUGRT_ASSIGN_OR_RETURN(int64_t split_dim, RequiredIntAttr(op, "split_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t concat_dim, RequiredIntAttr(op, "concat_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t count, RequiredIntAttr(op, "split_count"));
  PLUGRT_RETURN_IF_ERROR(CheckDimInRange(op, "C1", "split_dimension", split_dim));
  PLUGRT_RETURN_IF_ERROR(CheckDimInRange(op, "C3", "concat_dimension", concat_dim));
  if (count <= 0) return Violation(op, "C4", "split_count > 0", "split_count is ", count);
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const int64_t d = OperandType(op, i).dims()[static_cast<size_t>(split_dim)];
    if (d != kDynamicSize && d % count != 0) {
      return Violation(op, "C2", "dim(operand, split_dimension) % split_count = 0", "operand #",
                       i, " has ", d, " along dimension ", split_dim, ", split_count ", count);
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(Groups groups, GroupsAttr(op, "replica_groups"));
  PLUGRT_RETURN_IF_ERROR(CheckGroups(op, groups, "C5", "C7", true));
  PLUGRT_RETURN_IF_ERROR(ChannelHandleAttr(op).status());
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Type& operand = OperandType(op, i);
    const Type& result = ResultType(op, i);
    bool ok = operand.element_type() == result.element_type() && operand.rank() == result.rank();
    for (int64_t d = 0; ok && d < operand.rank(); ++d) {
      int64_t want = operand.dims()[d];
      if (want != kDynamicSize && d == split_dim) want /= count;
      if (d == concat_dim) want = MulOrDynamic(want, count);
      ok = DimsCompatible(want, result.dims()[d]);
    }
    if (!ok) {
      return Violation(op, "C8",
                       "type(result) = type(operand) except dim(result, split_dimension) = "
                       "dim(operand, split_dimension) / split_count and dim(result, "
                       "concat_dimension) = dim(operand, concat_dimension) * split_count",
                       "operand #", i, " is ", operand.ToString(), ", result is ",
                       result.ToString(), " (split_count ", count, ")");
    }
  }
  return OkStatus();
}

Status CheckCollectivePermute(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCollectiveCounts(op));
  const Attribute* attr = op.attribute("source_target_pairs");
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> values,
                          RequiredIntListAttr(op, "source_target_pairs"));
  if (attr->kind == Attribute::Kind::kDenseElements && attr->type.is_tensor()) {
    const std::vector<int64_t>& dims = attr->type.dims();
    if (dims.size() != 2 || dims[1] != 2) {
      return Violation(op, "C1", "dim(source_target_pairs, 1) = 2", "source_target_pairs is ",
                       attr->type.ToString());
    }
  } else if (values.size() % 2 != 0) {
    return Violation(op, "C1", "dim(source_target_pairs, 1) = 2", "source_target_pairs ",
                     ListToString(values), " is not a list of pairs");
  }
  std::vector<int64_t> sources;
  std::vector<int64_t> targets;
  for (size_t i = 0; i + 1 < values.size(); i += 2) {
    sources.push_back(values[i]);
    targets.push_back(values[i + 1]);
  }
  if (!AllUnique(sources)) {
    return Violation(op, "C2", "all values in source_target_pairs[:, 0] are unique",
                     "sources ", ListToString(sources));
  }
  if (!AllUnique(targets)) {
    return Violation(op, "C3", "all values in source_target_pairs[:, 1] are unique",
                     "targets ", ListToString(targets));
  }
  for (int64_t id : values) {
    if (id < 0) {
      return Violation(op, "C4", "0 <= source_target_pairs[i][0], source_target_pairs[i][1]",
                       "source_target_pairs holds ", id);
    }
  }
  PLUGRT_RETURN_IF_ERROR(ChannelHandleAttr(op).status());
  return CheckResultsMatchOperands(op, "C5");
}

Status CheckCollectiveBroadcast(const Operation& op) {
  // has_dynamic_root (an extension the corpus uses): a last operand, a
  // rank-1 integer tensor of 1 or one-per-data-operand root positions.
  PLUGRT_ASSIGN_OR_RETURN(bool dynamic_root, BoolAttr(op, "has_dynamic_root", false));
  const size_t data = op.operands.size() - (dynamic_root && !op.operands.empty() ? 1 : 0);
  if (data == 0) {
    return Violation(op, kStructure, "number of operands", "expected at least ",
                     dynamic_root ? 2 : 1, ", got ", op.operands.size());
  }
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, -1, static_cast<int>(data)));
  PLUGRT_RETURN_IF_ERROR(CheckAllTensors(op));
  if (dynamic_root) {
    const Type& root = op.operands.back()->type;
    if (root.rank() != 1 || !IsInteger(root.element_type()) ||
        !(DimsCompatible(root.dims()[0], 1) ||
          DimsCompatible(root.dims()[0], static_cast<int64_t>(data)))) {
      return Violation(op, kStructure,
                       "the dynamic root is a rank-1 integer tensor of 1 or one root per operand",
                       "root is ", root.ToString(), " for ", data, " operands");
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(Groups groups, GroupsAttr(op, "replica_groups"));
  // Processes outside every group get zeros: no covering rule here.
  PLUGRT_RETURN_IF_ERROR(CheckGroups(op, groups, "C1", "C2", false));
  PLUGRT_RETURN_IF_ERROR(ChannelHandleAttr(op).status());
  return CheckResultsMatchOperands(op, "C3");
}

// ---- custom_call and composite ----------------------------------------------

// A layout: a permutation of the dimensions of a tensor (empty for a token).
Status CheckLayouts(const Operation& op, std::string_view name, const std::vector<Type>& types) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) return OkStatus();
  if (attr->kind != Attribute::Kind::kArray) {
    return Violation(op, kStructure, StrCat("attribute '", name, "' is an array of layouts"),
                     "got ", attr->ToString());
  }
  if (attr->elements.size() != types.size()) {
    return Violation(op, kStructure, StrCat("size(", name, ") = number of values it describes"),
                     attr->elements.size(), " layouts for ", types.size(), " values");
  }
  for (size_t i = 0; i < types.size(); ++i) {
    const Attribute& entry = attr->elements[i];
    StatusOr<std::vector<int64_t>> layout = AttrToIntList(entry);
    // tensor<Nxindex> literals (the usual spelling) carry an element type
    // the IR does not read back; such a layout is not checked further.
    if (!layout.ok() && entry.kind == Attribute::Kind::kDenseElements &&
        ContainsUnsupported(entry.type)) {
      continue;
    }
    if (!layout.ok()) {
      return Violation(op, kStructure, StrCat(name, " entries are integer lists"), "entry #", i,
                       " is ", entry.ToString());
    }
    const int64_t rank = types[i].is_tensor() ? types[i].rank() : 0;
    if (!IsPermutation(*layout, rank)) {
      return Violation(op, kStructure,
                       StrCat(name, "[i] is a permutation of the dimensions of value i"),
                       "entry #", i, " is ", ListToString(*layout), " for ",
                       types[i].ToString());
    }
  }
  return OkStatus();
}

Status CheckComparedPair(const Operation& op) {
  // check.eq (the quantized corpus' spelling) returns a tensor<i1> flag.
  const bool has_flag = op.results.size() == 1 &&
                        op.attribute("call_target_name")->str == shlo::kCheckEqTarget;
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 2, has_flag ? 1 : 0));
  if (has_flag && ResultType(op, 0) != Type::Scalar(ElementType::kI1)) {
    return Violation(op, kStructure, "check.eq returns a tensor<i1>", "got ",
                     ResultType(op, 0).ToString());
  }
  PLUGRT_RETURN_IF_ERROR(CheckAllTensors(op));
  if (!TypesCompatible(OperandType(op, 0), OperandType(op, 1))) {
    return Violation(op, kStructure, "the compared values have the same type", "actual is ",
                     OperandType(op, 0).ToString(), ", expected is ",
                     OperandType(op, 1).ToString());
  }
  return OkStatus();
}

Status CheckCustomCall(const Operation& op) {
  const Attribute* target = op.attribute("call_target_name");
  if (target == nullptr || target->kind != Attribute::Kind::kString) {
    return Violation(op, kStructure, "call_target_name is a string", "got ",
                     target == nullptr ? std::string("none") : target->ToString());
  }
  PLUGRT_RETURN_IF_ERROR(BoolAttr(op, "has_side_effect", false).status());
  int64_t api_version = 1;
  if (const Attribute* attr = op.attribute("api_version")) {
    static constexpr std::string_view kNames[] = {
        "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
    if (attr->kind == Attribute::Kind::kEnum) {
      auto it = std::find(std::begin(kNames), std::end(kNames), attr->enum_value);
      api_version = it == std::end(kNames) ? -1 : it - std::begin(kNames);
    } else {
      StatusOr<int64_t> value = AttrToInt(*attr);
      api_version = value.ok() ? *value : -1;
    }
    if (api_version < 0 || api_version > 4) {
      return Violation(op, kStructure, "api_version is one of 0 (UNSPECIFIED) to 4 (TYPED_FFI)",
                       "got ", attr->ToString());
    }
  }
  if (const Attribute* config = op.attribute("backend_config")) {
    const bool ok = config->kind == Attribute::Kind::kString ||
                    (api_version == 4 && config->kind == Attribute::Kind::kDictionary);
    if (!ok) {
      return Violation(op, kStructure,
                       "backend_config is a string (or, with api_version 4, a dictionary)",
                       "got ", config->ToString(), " with api_version ", api_version);
    }
  }
  if (const Attribute* called = op.attribute("called_computations")) {
    bool ok = called->kind == Attribute::Kind::kArray;
    for (size_t i = 0; ok && i < called->elements.size(); ++i) {
      ok = called->elements[i].kind == Attribute::Kind::kSymbolRef;
    }
    if (!ok) {
      return Violation(op, kStructure, "called_computations is an array of function symbols",
                       "got ", called->ToString());
    }
  }
  const bool has_operand_layouts = op.attribute("operand_layouts") != nullptr;
  const bool has_result_layouts = op.attribute("result_layouts") != nullptr;
  if (has_operand_layouts != has_result_layouts) {
    return Violation(op, kStructure, "operand_layouts and result_layouts come together",
                     "only ", has_operand_layouts ? "operand_layouts" : "result_layouts",
                     " is present");
  }
  PLUGRT_RETURN_IF_ERROR(CheckLayouts(op, "operand_layouts", OperandTypes(op)));
  std::vector<Type> results = ResultTypes(op);
  if (results.size() == 1 && results[0].is_tuple()) {
    const std::vector<Type> elements = results[0].tuple_elements();
    results = elements;
  }
  PLUGRT_RETURN_IF_ERROR(CheckLayouts(op, "result_layouts", results));
  // The corpus's checks spelled as custom calls compare (actual, expected).
  if (shlo::IsCheckTarget(target->str)) return CheckComparedPair(op);
  return OkStatus();
}

Status CheckComposite(const Operation& op) {
  const Attribute* name = op.attribute("name");
  if (name == nullptr || name->kind != Attribute::Kind::kString) {
    return Violation(op, kStructure, "name is a string", "got ",
                     name == nullptr ? std::string("none") : name->ToString());
  }
  const size_t dot = name->str.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name->str.size()) {
    return Violation(op, "C1", "name is a namespaced op name (dialect.op)", "name is \"",
                     name->str, "\"");
  }
  const Attribute* decomposition = op.attribute("decomposition");
  if (decomposition == nullptr || decomposition->kind != Attribute::Kind::kSymbolRef) {
    return Violation(op, "C2", "decomposition names a function", "got ",
                     decomposition == nullptr ? std::string("none") : decomposition->ToString());
  }
  if (const Attribute* attrs = op.attribute("composite_attributes")) {
    if (attrs->kind != Attribute::Kind::kDictionary) {
      return Violation(op, kStructure, "composite_attributes is a dictionary", "got ",
                       attrs->ToString());
    }
  }
  PLUGRT_RETURN_IF_ERROR(IntAttr(op, "version", 0).status());
  return OkStatus();
}

// ---- the corpus's check dialect (not in the spec) ------------------------------

Status CheckExpectPair(const Operation& op) { return CheckComparedPair(op); }

// check.expect_eq_const / expect_almost_eq_const: one value and the expected
// literal `value` of the same type.
Status CheckExpectConst(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 1, 0));
  PLUGRT_RETURN_IF_ERROR(CheckAllTensors(op));
  const Attribute* value = op.attribute("value");
  if (value == nullptr || value->kind != Attribute::Kind::kDenseElements) {
    return Violation(op, kStructure, "the expected value is a dense literal", "got ",
                     value == nullptr ? std::string("none") : value->ToString());
  }
  if (!TypesCompatible(OperandType(op, 0), value->type)) {
    return Violation(op, kStructure, "the compared values have the same type", "actual is ",
                     OperandType(op, 0).ToString(), ", expected is ", value->type.ToString());
  }
  return OkStatus();
}

Status CheckExpectSerializedEq(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, 1, 0));
  PLUGRT_RETURN_IF_ERROR(CheckAllTensors(op));
  const Attribute* id = op.attribute("probe_id");
  if (id == nullptr || id->kind != Attribute::Kind::kString) {
    return Violation(op, kStructure, "probe_id is a string", "got ",
                     id == nullptr ? std::string("none") : id->ToString());
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t iteration, IntAttr(op, "iter", 0));
  if (iteration < 0) return Violation(op, kStructure, "iter >= 0", "iter is ", iteration);
  return OkStatus();
}

}  // namespace

void RegisterControlChecks(CheckTable& table) {
  table.Set(OpCode::kWhile, CheckWhile);
  table.Set(OpCode::kIf, CheckIf);
  table.Set(OpCode::kCase, CheckCase);
  table.Set(OpCode::kOptimizationBarrier, CheckOptimizationBarrier);
  table.Set(OpCode::kTuple, CheckTuple);
  table.Set(OpCode::kGetTupleElement, CheckGetTupleElement);
  table.Set(OpCode::kAfterAll, CheckAfterAll);
  table.Set(OpCode::kCreateToken, CheckCreateToken);
  table.Set(OpCode::kInfeed, CheckInfeed);
  table.Set(OpCode::kOutfeed, CheckOutfeed);
  table.Set(OpCode::kSend, CheckSend);
  table.Set(OpCode::kRecv, CheckRecv);
  table.Set(OpCode::kReplicaId, CheckProcessId);
  table.Set(OpCode::kPartitionId, CheckProcessId);
  table.Set(OpCode::kAllReduce, CheckAllReduce);
  table.Set(OpCode::kAllGather, CheckAllGather);
  table.Set(OpCode::kReduceScatter, CheckReduceScatter);
  table.Set(OpCode::kAllToAll, CheckAllToAll);
  table.Set(OpCode::kCollectivePermute, CheckCollectivePermute);
  table.Set(OpCode::kCollectiveBroadcast, CheckCollectiveBroadcast);
  table.Set(OpCode::kCustomCall, CheckCustomCall);
  table.Set(OpCode::kComposite, CheckComposite);
  table.Set(OpCode::kCheckExpectEq, CheckExpectPair);
  table.Set(OpCode::kCheckExpectAlmostEq, CheckExpectPair);
  table.Set(OpCode::kCheckExpectClose, CheckExpectPair);
  table.Set(OpCode::kCheckExpectEqConst, CheckExpectConst);
  table.Set(OpCode::kCheckExpectAlmostEqConst, CheckExpectConst);
  table.Set(OpCode::kCheckExpectSerializedEq, CheckExpectSerializedEq);
}

}  // namespace plugrt::shlo::verify
