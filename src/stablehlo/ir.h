// plugrt StableHLO: the in-memory form of a program. The parser builds it,
// the verifier checks it, the CHLO lowering and passes rewrite it, the
// printer prints it, and the CPU backend compiles it into an execution plan.
//
// One normal form: the parser turns every pretty-printed op into the same
// Operation its generic form gives (same attribute names and kinds), so later
// stages see one shape per op.
#ifndef PLUGRT_STABLEHLO_IR_H_
#define PLUGRT_STABLEHLO_IR_H_

#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "stablehlo/element_type.h"
#include "stablehlo/op_code.h"
#include "stablehlo/source_location.h"
#include "stablehlo/quant_type.h"
#include "stablehlo/shape_rules.h"

namespace plugrt::shlo {

// A position in program text: file, 1-based line and column; and, when the
// program says it with `loc(...)`, where the op came from in the user's
// source (ops created by rewrites inherit both from the op they replace).
struct Location {
  std::shared_ptr<const std::string> file;
  int line = 0;
  int column = 0;
  SourceLocationRef source;  // null: the text gave none
  // "file:line:col" ("<unknown>" when unset), then " (<source>)" when the
  // source location says something: "prog.mlir:12:5 (x.py:3:4 in f)".
  std::string ToString() const;
};

class Type {
 public:
  enum class Kind : uint8_t {
    kTensor,       // tensor<2x3xf32>, tensor<f32> (rank 0)
    kTuple,        // tuple<tensor<f32>, !stablehlo.token>
    kToken,        // !stablehlo.token
    kElement,      // a bare element type (f32, i64): attribute and scalar types
    kUnsupported,  // parsed but not executable (e.g. vector<...>): text kept
  };

  Type() = default;
  static Type Tensor(ElementType element, std::vector<int64_t> dims);
  static Type Scalar(ElementType element) { return Tensor(element, {}); }
  static Type Element(ElementType element);
  static Type Tuple(std::vector<Type> elements);
  static Type Token();
  static Type Unsupported(std::string text);
  // A uniform quantized element type; element_type() is its storage type.
  static Type QuantizedElement(UniformQuantParams params);
  // A tensor of the element type `element` (plain or quantized).
  static Type TensorOf(const Type& element, std::vector<int64_t> dims);

  Kind kind() const { return kind_; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  bool is_token() const { return kind_ == Kind::kToken; }
  // Tensor and element types: the element type; for quantized types the
  // storage type.
  ElementType element_type() const { return element_; }
  // Tensor and element types: the quantization parameters of a quantized
  // element type, else null.
  const UniformQuantParams* quant() const { return quant_.get(); }
  bool is_quantized() const { return quant_ != nullptr; }
  // This tensor or element type with its element type replaced by a plain
  // `element` (quantization dropped).
  Type WithPlainElement(ElementType element) const;
  // Tensor types.
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  bool has_static_shape() const;
  int64_t num_elements() const;  // product of dims; requires a static shape
  // Tuple types.
  const std::vector<Type>& tuple_elements() const { return elements_; }
  // Unsupported types.
  const std::string& unsupported_text() const { return text_; }

  // MLIR spelling: "tensor<2x?xf32>", "tuple<...>", "!stablehlo.token".
  std::string ToString() const;
  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

 private:
  Kind kind_ = Kind::kToken;
  ElementType element_ = ElementType::kF32;
  std::vector<int64_t> dims_;
  std::vector<Type> elements_;
  std::string text_;
  std::shared_ptr<const UniformQuantParams> quant_;  // shared: types are copied often
};

// The non-tuple leaves of `type` in depth-first order (a tensor or token is
// its own only leaf): how XLA flattens tuples of arguments and results.
void FlattenType(const Type& type, std::vector<Type>* leaves);
std::vector<Type> FlattenType(const Type& type);

struct Attribute;
using NamedAttribute = std::pair<std::string, Attribute>;

// Dense literal data, row-major, each element in cpu::Tensor storage format
// (StorageBytes(type) bytes each, little-endian: narrow floats as their bit
// patterns, sub-byte integers one per byte, i1 as 0/1 bytes). A splat holds
// one element.
struct DenseData {
  bool splat = false;
  std::vector<std::byte> bytes;
};

struct Attribute {
  enum class Kind : uint8_t {
    kUnit,           // a present flag: `{has_side_effect}`
    kBool,           // true / false
    kInteger,        // 5 : i64 (type: element type; default i64)
    kFloat,          // 1.0 : f32
    kString,         // "text"
    kType,           // tensor<f32> used as a value
    kSymbolRef,      // @callee
    kArray,          // [a, b, c]
    kDenseArray,     // array<i64: 1, 2>  (ints; i1 arrays as 0/1)
    kDenseElements,  // dense<...> : tensor<...>
    kDictionary,     // {a = 1, b = "x"}
    kEnum,           // #stablehlo<comparison_direction EQ>: name + value
    kStruct,         // #stablehlo.gather<offset_dims = [1], ...>: name + fields
  };

  Kind kind = Kind::kUnit;
  bool bool_value = false;
  int64_t int_value = 0;    // kInteger (unsigned 64-bit values keep their bits)
  double float_value = 0;   // kFloat
  std::string str;          // kString text; kSymbolRef name (no '@'); kEnum and
                            // kStruct name ("stablehlo.comparison_direction",
                            // "stablehlo.gather")
  std::string enum_value;   // kEnum: the value, e.g. "EQ"
  Type type;                // kInteger/kFloat element type, kType, kDenseElements
                            // tensor type, kDenseArray element type
  std::vector<Attribute> elements;        // kArray
  std::vector<int64_t> ints;              // kDenseArray
  std::vector<double> floats;             // kDenseArray of floats
  std::vector<NamedAttribute> fields;     // kDictionary, kStruct
  std::shared_ptr<const DenseData> dense;  // kDenseElements

  // Declared here and defaulted in ir.cc: `fields` holds pairs of this
  // still-incomplete type, which clang with libstdc++ accepts only this way.
  Attribute();
  ~Attribute();
  Attribute(const Attribute&);
  Attribute(Attribute&&) noexcept;
  Attribute& operator=(const Attribute&);
  Attribute& operator=(Attribute&&) noexcept;

  static Attribute Unit();
  static Attribute Bool(bool value);
  static Attribute Integer(int64_t value, Type type = Type::Element(ElementType::kSI64));
  static Attribute Float(double value, Type type = Type::Element(ElementType::kF32));
  static Attribute String(std::string value);
  static Attribute TypeAttr(Type type);
  static Attribute SymbolRef(std::string name);
  static Attribute Array(std::vector<Attribute> elements);
  static Attribute DenseI64Array(std::vector<int64_t> values);
  static Attribute Dense(Type tensor_type, std::shared_ptr<const DenseData> data);
  static Attribute Dictionary(std::vector<NamedAttribute> fields);
  static Attribute Enum(std::string name, std::string value);
  static Attribute Struct(std::string name, std::vector<NamedAttribute> fields);

  // kDictionary / kStruct field called `name`, or nullptr.
  const Attribute* field(std::string_view name) const;
  // MLIR spelling (generic form), parseable back.
  std::string ToString() const;
  friend bool operator==(const Attribute& a, const Attribute& b);
};

// The attribute called `name` in `attributes`, or nullptr.
const Attribute* FindAttribute(const std::vector<NamedAttribute>& attributes,
                               std::string_view name);

// Typed reads of attributes, accepting every spelling programs use.
// kInteger, kBool, or a one-element integer dense literal.
StatusOr<int64_t> AttrToInt(const Attribute& attr);
// kDenseArray, kArray of integers, or an integer kDenseElements (row-major).
StatusOr<std::vector<int64_t>> AttrToIntList(const Attribute& attr);
// kFloat or kInteger.
StatusOr<double> AttrToFloat(const Attribute& attr);
// kBool, kInteger 0/1, or kUnit (true).
StatusOr<bool> AttrToBool(const Attribute& attr);
// kEnum's value ("EQ"), or a kString's text.
StatusOr<std::string> AttrToEnumValue(const Attribute& attr);

class Operation;
class Block;
class Region;

// An SSA value: an op result or a block argument.
struct Value {
  Type type;
  Operation* defining_op = nullptr;  // null for block arguments
  Block* owner_block = nullptr;      // set for block arguments
  int index = 0;                     // result number or argument number
  std::string name;                  // as written ("0", "arg1", "cst_2"), no '%'
  SourceLocationRef source;          // block arguments: their loc(...), if any
};

class Operation {
 public:
  OpCode code = OpCode::kUnknown;
  std::string name;  // canonical full name: "stablehlo.add", "chlo.erf"
  std::vector<Value*> operands;
  std::vector<std::unique_ptr<Value>> results;
  std::vector<NamedAttribute> attributes;
  std::vector<std::unique_ptr<Region>> regions;
  Block* parent = nullptr;
  Location location;

  const Attribute* attribute(std::string_view attr_name) const {
    return FindAttribute(attributes, attr_name);
  }
  Value* result(size_t i) const { return results[i].get(); }
  Region& region(size_t i) const { return *regions[i]; }
};

class Block {
 public:
  std::vector<std::unique_ptr<Value>> arguments;
  std::vector<std::unique_ptr<Operation>> operations;
  Region* parent = nullptr;
};

class Region {
 public:
  std::vector<std::unique_ptr<Block>> blocks;
  Operation* parent_op = nullptr;  // null for a function body
  // The entry block (regions of StableHLO ops have exactly one block).
  Block& front() const { return *blocks.front(); }
};

struct Function {
  std::string name;  // without '@'
  bool is_public = true;
  std::vector<Type> input_types;
  std::vector<Type> result_types;
  std::vector<std::vector<NamedAttribute>> arg_attributes;     // per input
  std::vector<std::vector<NamedAttribute>> result_attributes;  // per result
  // Per result its loc(...) (null: none); shorter when a pass built the function.
  std::vector<SourceLocationRef> result_locations;
  std::vector<NamedAttribute> attributes;                      // e.g. sym_visibility
  std::unique_ptr<Region> body;  // one block whose arguments are the inputs
  Location location;
};

struct Module {
  std::string name;  // "jit_main"; empty when unnamed
  std::vector<NamedAttribute> attributes;
  std::vector<std::unique_ptr<Function>> functions;
  // Shardy's `sdy.mesh @name = <...>`: name -> an "sdy.mesh" kEnum holding
  // the mesh's text (`["x"=2, "y"=4]`).
  std::vector<NamedAttribute> meshes;
  Location location;

  const Function* FindFunction(std::string_view function_name) const;
  // @main if present, else the only public function, else null.
  const Function* EntryFunction() const;
};

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_IR_H_
