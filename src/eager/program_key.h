// plugrt eager: the cache key of an op's program: an injective encoding of
// everything the program text is built from (device, op name, attributes,
// input types), so that equal keys mean equal programs and the text is only
// built on a miss. Loaded functions cannot be redefined, so their names
// stand for them.
#ifndef PLUGRT_EAGER_PROGRAM_KEY_H_
#define PLUGRT_EAGER_PROGRAM_KEY_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "eager/attribute.h"
#include "eager/op.h"
#include "eager/tensor.h"

namespace plugrt::eager {

// Writes the key of `op` on `device` into `out` (cleared first, its
// capacity reused: a caller that keeps `out` pays no allocation per op).
// `inputs` are resolved physical tensors, flat, grouped as op's inputs
// (op.input_group_size); their types are read in place.
void WriteProgramKey(std::string_view device, const Op& op, std::span<const Tensor> inputs,
                     std::string& out);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PROGRAM_KEY_H_
