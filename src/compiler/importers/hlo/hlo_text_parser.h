// plugrt compiler: XLA's HLO text (what XLA's dumps, tests and benchmark
// programs are written in) read into an HloModuleProto, which the HLO
// importer then converts as it converts the "hlo" compile format. One
// converter serves both forms, so text and proto of the same module give the
// same IR.
//
// The text: `HloModule name, key=value...`, then computations
// `[ENTRY] %name [(p: shape, ...) -> shape] { instructions }`, each
// instruction `[ROOT] %name = shape opcode(operands), attribute=value, ...`.
// Names may be used before they are defined within a computation (the
// reader orders instructions so operands come first); computations may be
// named before they appear. Without an ENTRY mark the last computation is
// the entry, and without a ROOT mark a computation's last instruction is its
// root, as XLA reads them.
//
// Module attributes that only steer XLA's own compiler (is_scheduled,
// alias_passthrough_params, allow_spmd_sharding_propagation_to_*, ...) are
// skipped. An instruction attribute the reader does not know is an error
// naming it and the instruction, except annotations that cannot change
// results (control-predecessors, parameter_replication, statistics, origin,
// result_accuracy, scheduling hints); instructions whose attributes are
// known but whose opcode the importer cannot convert are UNIMPLEMENTED there.
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_PARSER_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_PARSER_H_

#include <string_view>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "proto/hlo.pb.h"

namespace plugrt::shlo::hlo {

struct HloText {
  xla::HloModuleProto module;
  // replica_count, num_partitions and entry_computation_layout from the
  // module line (zero / absent when the text gives none).
  xla::HloModuleConfigProto config;
};

// Whether `bytes` is HLO text: its first word (after blanks and comments)
// is `HloModule`.
bool IsHloText(std::string_view bytes);

// `file_name` names the text in errors (file:line:col).
StatusOr<HloText> ParseHloText(std::string_view text, std::string_view file_name,
                               const ReadOptions& options);

}  // namespace plugrt::shlo::hlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_PARSER_H_
