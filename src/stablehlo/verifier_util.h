// plugrt StableHLO verifier: the pieces the per-op rule files share.
//
// Each rule file (verifier_elementwise.cc, verifier_shape.cc,
// verifier_compute.cc, verifier_control.cc) registers one check function per
// op code in a CheckTable; verifier.cc walks the module, runs the structural
// rules, skips ops with unsupported types, checks ops on quantized tensors
// for their quantization rules (verifier_quantized.cc) and calls the check of
// every other op it has one for.
//
// A check returns the first violated rule as
//   Violation(op, "C3", "rank(operand) = size(broadcast_dimensions)", "rank 2 vs 1 entries")
// which reads "file:line:col: stablehlo.op: violated rule (C3)
// rank(operand) = size(broadcast_dimensions): rank 2 vs 1 entries".
#ifndef PLUGRT_STABLEHLO_VERIFIER_UTIL_H_
#define PLUGRT_STABLEHLO_VERIFIER_UTIL_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo::verify {

// The rule label for rules of the IR itself (counts, attribute and result
// kinds, terminators); see verifier.h for the labels.
inline constexpr std::string_view kStructure = "structure";

// "<location>: <op name>: violated rule (<label>) <rule>: <detail...>"
// (label kStructure prints as "(structure)").
Status MakeViolation(const Operation& op, std::string_view label, std::string_view rule,
                     const std::string& detail);
template <typename... Args>
Status Violation(const Operation& op, std::string_view label, std::string_view rule,
                 const Args&... detail) {
  return MakeViolation(op, label, rule, StrCat(detail...));
}

// --- the table of per-op checks ------------------------------------------
using CheckFn = Status (*)(const Operation& op);
struct CheckTable {
  std::array<CheckFn, kNumOpCodes> fns{};
  void Set(OpCode code, CheckFn fn) { fns[static_cast<size_t>(code)] = fn; }
  CheckFn Get(OpCode code) const { return fns[static_cast<size_t>(code)]; }
};
void RegisterElementwiseChecks(CheckTable& table);  // verifier_elementwise.cc
void RegisterShapeChecks(CheckTable& table);        // verifier_shape.cc
void RegisterComputeChecks(CheckTable& table);      // verifier_compute.cc
void RegisterControlChecks(CheckTable& table);      // verifier_control.cc
// The table the four fill, built once (tests/cpu/op_registry_test.cc checks
// that every op has a check or a documented reason not to).
const CheckTable& RegisteredChecks();

// --- types -----------------------------------------------------------------
inline const Type& OperandType(const Operation& op, size_t i) { return op.operands[i]->type; }
inline const Type& ResultType(const Operation& op, size_t i) { return op.results[i]->type; }
// Equal, or either is '?'.
bool DimsCompatible(int64_t a, int64_t b);
// Tensors of the same rank whose dims are pairwise compatible (element
// types not compared).
bool ShapesCompatible(const Type& a, const Type& b);
// Same kind; tensors: same element type and compatible shapes; tuples:
// element-wise; element types: equal.
bool TypesCompatible(const Type& a, const Type& b);
// Same length and TypesCompatible element by element.
bool ListsCompatible(const std::vector<Type>& a, const std::vector<Type>& b);
// A tensor has rank size(dims) and each dim compatible with `dims`' ('?' on
// either side matches anything).
bool ShapeIs(const Type& type, const std::vector<int64_t>& dims);
// True when `type` (or a tuple element, recursively) is Kind::kUnsupported.
bool ContainsUnsupported(const Type& type);
// True when `type` (or a tuple element, recursively) is quantized.
bool ContainsQuantized(const Type& type);
// The quantization rules of an op with quantized operands or results
// (verifier_quantized.cc).
Status CheckQuantizedOp(const Operation& op);
// "tensor<2xf32>, tensor<i1>" for messages.
std::string TypesToString(const std::vector<Type>& types);
// "[2, ?, 3]": a tensor's dims for messages.
std::string Shape(const Type& type);
std::vector<Type> OperandTypes(const Operation& op);
std::vector<Type> ResultTypes(const Operation& op);

// --- counts and kinds (rule kStructure) -------------------------------------
// `operands` / `results` -1: any number.
Status CheckCounts(const Operation& op, int operands, int results);
// Every operand and result is a tensor (ranked; dims may be '?').
Status CheckAllTensors(const Operation& op);
// CheckCounts, then CheckAllTensors.
Status CheckTensorCounts(const Operation& op, int operands, int results);
// The op has `count` regions.
Status CheckRegionCount(const Operation& op, size_t count);

// --- attributes ---------------------------------------------------------------
// Wrong kinds are kStructure violations naming the attribute; absent optional
// attributes give `fallback`; absent required ones are violations.
StatusOr<std::vector<int64_t>> IntListAttr(const Operation& op, std::string_view name,
                                           std::vector<int64_t> fallback);
StatusOr<std::vector<int64_t>> RequiredIntListAttr(const Operation& op, std::string_view name);
StatusOr<int64_t> IntAttr(const Operation& op, std::string_view name, int64_t fallback);
StatusOr<int64_t> RequiredIntAttr(const Operation& op, std::string_view name);
StatusOr<std::string> EnumAttr(const Operation& op, std::string_view name, std::string fallback);
// A flag: unit, bool or 0/1 integer.
StatusOr<bool> BoolAttr(const Operation& op, std::string_view name, bool fallback);
// An enum whose value is one of `allowed` (else a kStructure violation);
// absent: `fallback`, or a violation when `fallback` is empty (required).
StatusOr<std::string> OneOfEnum(const Operation& op, std::string_view name,
                                const std::vector<std::string_view>& allowed,
                                const std::string& fallback);
// #stablehlo.channel_handle<handle = H, type = T> of attribute
// 'channel_handle'; absent: {0, 0}.
struct ChannelHandle {
  int64_t handle = 0;
  int64_t type = 0;
};
StatusOr<ChannelHandle> ChannelHandleAttr(const Operation& op);
// A kStruct attribute (dimension numbers) or null when absent.
const Attribute* StructAttr(const Operation& op, std::string_view name);
// A field of a struct attribute: integer list (absent: empty) / integer
// (absent: `fallback`).
StatusOr<std::vector<int64_t>> FieldList(const Operation& op, const Attribute& attr,
                                         std::string_view field);
StatusOr<int64_t> FieldInt(const Operation& op, const Attribute& attr, std::string_view field,
                           int64_t fallback);

// --- operand kinds and element types -----------------------------------------
// element_type(a) = element_type(b), else `rule` under `label` ("f32 vs i32").
Status SameElementType(const Operation& op, std::string_view label, std::string_view rule,
                       const Type& a, const Type& b);
// TypesCompatible(a, b), else `rule` under `label` ("<a> vs <b>").
Status SameType(const Operation& op, std::string_view label, std::string_view rule,
                const Type& a, const Type& b);
// Operand `index` (`what` in the rule) is a 0-dimensional integer tensor.
Status IntegerScalar(const Operation& op, size_t index, std::string_view label,
                     std::string_view what);
// Operand `index` is a 1-dimensional integer tensor (`type_label`) with
// `size` elements (`size_label`, `size_rule`; unchecked when `size` is '?').
Status IntegerVector(const Operation& op, size_t index, std::string_view type_label,
                     std::string_view size_label, std::string_view what, int64_t size,
                     std::string_view size_rule);

// --- integer lists -----------------------------------------------------------
// A list of dimension numbers under the name the rules call it by.
struct NamedDims {
  std::string_view name;
  std::vector<int64_t> values;
};
// 0 <= list < rank(of), else "[...] for rank R" under `label`.
Status ListInRank(const Operation& op, std::string_view label, const NamedDims& list,
                  std::string_view of, int64_t rank);
bool Contains(const std::vector<int64_t>& values, int64_t value);
std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b);
bool AllUnique(const std::vector<int64_t>& values);
// Every value in [low, high).
bool AllInRange(const std::vector<int64_t>& values, int64_t low, int64_t high);
// A permutation of 0..n-1.
bool IsPermutation(const std::vector<int64_t>& values, int64_t n);
bool IsSortedAscending(const std::vector<int64_t>& values);
// "[1, 2, 3]"
std::string ListToString(const std::vector<int64_t>& values);

// --- regions -------------------------------------------------------------------
// The operand types of the region's terminator (its last op's operands);
// empty when the block is empty.
std::vector<Type> RegionResultTypes(const Region& region);
std::vector<Type> RegionArgumentTypes(const Region& region);
// The region's block arguments match `arguments` and its terminator's
// operands match `results` (TypesCompatible each), under rule `label`/`rule`.
// A null list is not checked.
Status CheckRegionSignature(const Operation& op, const Region& region, std::string_view what,
                            std::string_view label, std::string_view rule,
                            const std::vector<Type>* arguments, const std::vector<Type>* results);

}  // namespace plugrt::shlo::verify

#endif  // PLUGRT_STABLEHLO_VERIFIER_UTIL_H_
