// plugrt compiler: XLA's serialized HloModuleProto ("hlo" compile format) and
// HloModuleProtoWithConfig ("hlo_with_config") read into the IR.
//
// The result is what the StableHLO text parser builds for the equivalent
// program (same ops, attribute names and kinds), so the verifier, the passes
// and the CPU backend take it unchanged. Bytes that do not decode, ids that
// name nothing and similar damage are INVALID_ARGUMENT; instructions the
// importer cannot convert are UNIMPLEMENTED, naming opcode and instruction.
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_READER_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_READER_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// `name` names the program in errors and locations.
StatusOr<std::unique_ptr<Module>> ReadHloModuleProto(std::string_view bytes, std::string_view name);
// The same for HloModuleProtoWithConfig; the config's replica and partition
// counts become the module's mhlo.num_replicas / mhlo.num_partitions.
StatusOr<std::unique_ptr<Module>> ReadHloModuleProtoWithConfig(std::string_view bytes,
                                                               std::string_view name);

// XLA's HLO text (hlo_text_parser.h), converted as the proto is; errors in
// the text name file:line:col.
StatusOr<std::unique_ptr<Module>> ReadHloText(std::string_view text, std::string_view name,
                                              const ReadOptions& options);

// HLO text as the serialized HloModuleProto it stands for (format "hlo":
// what PyTorch/XLA and TensorFlow hand a plugin).
StatusOr<std::string> HloTextToProtoBytes(std::string_view text, std::string_view name);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_READER_H_
