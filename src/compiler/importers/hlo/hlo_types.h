// plugrt compiler, HLO importer: XLA shapes and literals in IR terms.
//
// ShapeProto -> Type (arrays as tensors, tuples as tuple types, tokens), the
// leaves of a tuple shape in XLA's flattening order (depth first), and
// LiteralProto -> the dense data of a constant in the IR's storage format.
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TYPES_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TYPES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "proto/xla_data.pb.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo::hlo {

// The element type of XLA's PrimitiveType number `type`; INVALID_ARGUMENT
// for tuples, tokens and numbers the IR has no type for.
StatusOr<ElementType> ElementTypeOf(int type);

// The IR type of `shape`. Dynamic (bounded) dimensions are UNIMPLEMENTED.
StatusOr<Type> TypeOf(const xla::ShapeProto& shape);

// The position among FlattenType(type)'s leaves of the piece at `index` (a
// ShapeIndex: tuple element numbers from the outside in), which must name a
// leaf; INVALID_ARGUMENT otherwise.
StatusOr<int64_t> LeafIndex(const Type& type, const std::vector<int64_t>& index);

// The value of an array literal as a dense attribute of tensor type `type`.
StatusOr<Attribute> DenseFromLiteral(const xla::LiteralProto& literal, const Type& type);

}  // namespace plugrt::shlo::hlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TYPES_H_
