// plugrt StableHLO bytecode: what the container reader (container.cc)
// decodes from a portable artifact before reader.cc builds the StableHLO IR
// from it: VHLO/builtin attributes and types, and the op tree.
// Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_BYTECODE_IR_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_BYTECODE_IR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace plugrt::shlo::bytecode {

struct BcAttr;

struct BcType {
  enum class Kind : uint8_t {
    kElement,         // i1, i8, ui32, f32, bf16, index, ...
    kComplex,         // complex<f32>
    kTensor,          // ranked tensor (encoding optional)
    kUnrankedTensor,  // tensor<*xf32>
    kFunction,
    kTuple,
    kToken,
    kFuture,
    kQuantized,       // !quant.uniform<...>: `text` is its spelling
    kNone,
    kBuffer,          // memref<...>
    kText,            // a type written as text in the bytecode
  };
  Kind kind = Kind::kElement;
  std::string text;              // StableHLO spelling
  int bits = 0;                  // kElement: bit width (index: 64)
  bool is_float = false;         // kElement
  std::vector<int64_t> dims;     // kTensor, kBuffer (INT64_MIN: dynamic)
  const BcType* element = nullptr;  // kTensor, kUnrankedTensor, kComplex
  std::vector<const BcType*> types;    // function inputs, tuple/future elements
  std::vector<const BcType*> results;  // function results
};

struct BcAttr {
  enum class Kind : uint8_t {
    kArray,
    kBool,
    kEnum,             // family ("comparison_direction") + value name
    kDictionary,       // VHLO or builtin; keys are string attributes
    kFloat,            // type + bits
    kInteger,          // type + value
    kOutputOperandAlias,
    kString,           // VHLO or builtin string
    kTensor,           // type + raw data
    kType,
    kTypeExtensions,   // bounds
    kResultAccuracy,   // atol/rtol bits, ulps, mode (an enum attr)
    kUnit,
    kSymbolRef,        // builtin (flat) symbol reference
    kDenseArray,       // builtin dense array: type + raw data
    kLocation,         // any builtin location; `str` is its MLIR spelling
    kText,             // attribute written as text in the bytecode
    kSdy,              // mesh-axis attributes: family + elements (+ ints)
    kResource,         // builtin dense_resource: type, `str` its key, `data` its
                       // blob when `bool_value` (the file holds one)
  };
  Kind kind = Kind::kUnit;
  // The writer: encode as a builtin attribute (dictionary keys, locations,
  // module names) rather than a VHLO one.
  bool builtin = false;
  std::string family;                 // kEnum, kSdy, kText of Shardy's dialect (its mnemonic)
  std::string sdy_body;               // kText of Shardy's dialect: the spelling after the mnemonic
  std::string str;                    // kString, kEnum value, kSymbolRef, kText, kLocation
  bool bool_value = false;
  int64_t int_value = 0;              // kInteger, kDenseArray size
  uint64_t bits = 0;                  // kFloat
  const BcType* type = nullptr;       // kFloat, kInteger, kTensor, kType, kDenseArray
  std::vector<const BcAttr*> elements;                              // kArray
  std::vector<std::pair<const BcAttr*, const BcAttr*>> entries;     // kDictionary
  std::vector<int64_t> ints;          // bounds; alias output tuple indices
  std::vector<int64_t> ints2;         // alias operand tuple indices
  std::string data;                   // kTensor / kDenseArray raw bytes
  uint64_t atol_bits = 0, rtol_bits = 0;  // kResultAccuracy
  const BcAttr* mode = nullptr;       // kResultAccuracy
};

struct BcOp;

struct BcBlock {
  std::vector<int64_t> arg_ids;
  std::vector<const BcType*> arg_types;
  std::vector<std::unique_ptr<BcOp>> ops;
};

struct BcRegion {
  std::vector<BcBlock> blocks;
};

struct BcOp {
  std::string name;    // "vhlo.add_v1", "builtin.module"
  size_t offset = 0;   // where the op starts in the file
  const BcAttr* location = nullptr;
  // Attributes: the op's dictionary, then its properties by name.
  std::vector<std::pair<std::string, const BcAttr*>> attributes;
  std::vector<const BcType*> result_types;
  std::vector<int64_t> result_ids;
  std::vector<int64_t> operand_ids;
  std::vector<BcRegion> regions;

  const BcAttr* attribute(std::string_view attr_name) const {
    for (const auto& [n, a] : attributes) {
      if (n == attr_name) return a;
    }
    return nullptr;
  }
};

// The decoded file: the top-level ops and the tables that own attributes and
// types.
struct BcFile {
  uint64_t version = 0;
  std::string producer;
  std::vector<std::unique_ptr<BcOp>> top_ops;
  std::vector<std::unique_ptr<BcAttr>> attr_storage;
  std::vector<std::unique_ptr<BcType>> type_storage;
  int64_t num_values = 0;
};

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_BYTECODE_IR_H_
