// plugrt passes: tuples in the entry function's signature, as older
// TensorFlow and JAX exports write them in MHLO (`%arg0: tuple<...>`,
// `-> tuple<...>`), flattened as XLA flattens them for a PJRT client: each
// tuple argument becomes its leaves (depth first), rebuilt with
// stablehlo.tuple inside the body, and each tuple result is returned as its
// leaves, taken apart with stablehlo.get_tuple_element. Arguments and
// results that are not tuples keep their attributes; leaves get none.
#ifndef PLUGRT_COMPILER_PASSES_FLATTEN_ENTRY_TUPLES_H_
#define PLUGRT_COMPILER_PASSES_FLATTEN_ENTRY_TUPLES_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

// Rewrites the entry function of `module` (if it has tuples in its
// signature); true when it changed anything.
StatusOr<bool> FlattenEntryTuples(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_FLATTEN_ENTRY_TUPLES_H_
