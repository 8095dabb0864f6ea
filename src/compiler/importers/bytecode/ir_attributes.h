// plugrt StableHLO bytecode: decoded VHLO/builtin types and attributes ->
// IR types and attributes, in the normal form the text parser gives the
// same type or attribute written in the program's .mlir twin (integer and
// float attribute types, dense data, enums, result accuracies, attributes
// kept as text). Op-specific attributes (defaults, folded dimension numbers)
// are op_attributes.cc's. Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_IR_ATTRIBUTES_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_IR_ATTRIBUTES_H_

#include <cstddef>
#include <memory>
#include <unordered_map>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo::bytecode {

class IrAttributes {
 public:
  // `input_size`: the artifact's size, which bounds how much attribute data
  // shared attributes may expand into.
  // `fill`: what dense_resource constants without data become.
  IrAttributes(size_t input_size, const ElidedConstantFill& fill);

  // A value, argument or attribute type. Function types, unranked tensors
  // and malformed shapes are errors.
  StatusOr<Type> TypeOf(const BcType* type);
  // Any attribute with a StableHLO form.
  StatusOr<Attribute> AttrOf(const BcAttr* attr);
  // `{k = v, ...}` entries as a dictionary's fields (duplicate keys refused).
  Status AppendEntries(const std::vector<std::pair<std::string, const BcAttr*>>& entries,
                       std::vector<NamedAttribute>* out);

  // Counts `bytes` of attribute data against the bound; error past it.
  Status Charge(size_t bytes);

 private:
  StatusOr<Attribute> Tensor(const BcAttr* attr);
  StatusOr<Attribute> Resource(const BcAttr* attr);

  size_t budget_;
  ElidedConstantFill fill_;
  int resources_ = 0;  // dense_resource uses so far: each filled one its own values
  std::unordered_map<const BcType*, Type> types_;
  std::unordered_map<const BcAttr*, std::shared_ptr<const DenseData>> dense_;
};

// Adds `value` as `name` to `out`, refusing a name already there (as an
// attribute dictionary does).
Status AddNamedAttribute(std::string name, Attribute value, std::vector<NamedAttribute>* out);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_IR_ATTRIBUTES_H_
