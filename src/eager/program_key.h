// plugrt eager: the cache key of an op's program: an injective encoding of
// everything the program text is built from (device, op name, attributes,
// input types), so that equal keys mean equal programs and the text is only
// built on a miss. Loaded functions cannot be redefined, so their names
// stand for them.
#ifndef PLUGRT_EAGER_PROGRAM_KEY_H_
#define PLUGRT_EAGER_PROGRAM_KEY_H_

#include <string>
#include <string_view>
#include <vector>

#include "eager/attribute.h"
#include "eager/tensor.h"

namespace plugrt::eager {

// Writes the key into `out` (cleared first, its capacity reused: a caller
// that keeps `out` pays no allocation per op). `inputs` are resolved
// physical tensors, grouped as the op's inputs; their types are read in place.
void WriteProgramKey(std::string_view device, std::string_view op, const AttrMap& attrs,
                     const std::vector<std::vector<Tensor>>& inputs, std::string& out);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PROGRAM_KEY_H_
