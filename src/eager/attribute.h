// plugrt eager: the typed attributes an op takes (int, float, bool, string,
// element type, shape, lists of each, dense tensors, functions and built-in
// reducers), and typed reads that name the op and attribute on a mismatch.
#ifndef PLUGRT_EAGER_ATTRIBUTE_H_
#define PLUGRT_EAGER_ATTRIBUTE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/status.h"
#include "eager/tensor_type.h"
#include "pjrt_c_api.h"

namespace plugrt::eager {

// A shape attribute (reshape's or broadcast's result dimensions), kept apart
// from an int list so that a list of shapes stays unambiguous.
struct Shape {
  std::vector<int64_t> dims;
  friend bool operator==(const Shape&, const Shape&) = default;
};

// A dense tensor attribute (a constant's value): dense row-major bytes, one
// element per byte for sub-byte types.
struct DenseTensor {
  TensorType type;
  std::vector<std::byte> data;
  friend bool operator==(const DenseTensor&, const DenseTensor&) = default;
};

// A region given by a function loaded into the context (Context::LoadFunctions).
struct FunctionRef {
  std::string name;
  friend bool operator==(const FunctionRef&, const FunctionRef&) = default;
};

// A region given by a built-in scalar combiner (reduce's body).
enum class Reducer { kAdd, kMul, kMax, kMin, kAnd, kOr };
std::string_view ReducerOpName(Reducer reducer);  // "stablehlo.add", ...

using AttrValue =
    std::variant<int64_t, double, bool, std::string, PJRT_Buffer_Type, Shape, std::vector<int64_t>,
                 std::vector<double>, std::vector<bool>, std::vector<std::string>,
                 std::vector<PJRT_Buffer_Type>, std::vector<Shape>, DenseTensor, FunctionRef, Reducer>;

// "int", "list(int)", "function", ... for messages.
std::string_view AttrKindName(const AttrValue& value);
// The value as a message shows it, long lists and strings shortened.
std::string AttrValueSummary(const AttrValue& value);

using AttrMap = std::map<std::string, AttrValue, std::less<>>;

// Typed reads for op rules: NOT_FOUND-free; a missing required attribute or
// one of another kind is INVALID_ARGUMENT naming `op` and the attribute.
class AttrReader {
 public:
  AttrReader(std::string_view op, const AttrMap& attrs) : op_(op), attrs_(attrs) {}

  bool Has(std::string_view name) const { return attrs_.find(name) != attrs_.end(); }
  StatusOr<int64_t> Int(std::string_view name) const;
  StatusOr<int64_t> Int(std::string_view name, int64_t fallback) const;
  StatusOr<double> Float(std::string_view name) const;
  StatusOr<bool> Bool(std::string_view name) const;
  StatusOr<bool> Bool(std::string_view name, bool fallback) const;
  StatusOr<std::string> String(std::string_view name) const;
  StatusOr<PJRT_Buffer_Type> ElementType(std::string_view name) const;
  StatusOr<std::vector<int64_t>> Ints(std::string_view name) const;
  // Empty when absent.
  StatusOr<std::vector<int64_t>> IntsOrEmpty(std::string_view name) const;
  StatusOr<Shape> ShapeAttr(std::string_view name) const;
  StatusOr<DenseTensor> Dense(std::string_view name) const;
  // A FunctionRef or a Reducer.
  StatusOr<std::variant<FunctionRef, Reducer>> Region(std::string_view name) const;
  StatusOr<FunctionRef> Function(std::string_view name) const;

 private:
  template <typename T>
  StatusOr<T> Get(std::string_view name, std::string_view kind) const;
  std::string_view op_;
  const AttrMap& attrs_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_ATTRIBUTE_H_
