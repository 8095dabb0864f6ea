// plugrt compiler, HLO text reader: the value forms of XLA's HLO text, each
// read into the HloModuleProto piece it stands for.
//
// Shapes (`f32[2,3]{1,0}`, tuples, `<=` bounds), literals (nested braces,
// inf/nan, complex pairs, the elided `{...}`), windows
// (`size=3x3 stride=2x2 pad=0_1x0_1`), convolution dimension labels
// (`b01f_01io->b01f`), pad configs (`0_1_0x2_2`), slices (`{[0:2:1]}`),
// replica groups (lists or the iota form `[2,2]<=[4]`), source-target pairs,
// shardings, metadata, frontend attributes and shape indices. Every reader
// leaves the cursor after what it read and names file:line:col in errors.
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_VALUES_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_VALUES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "compiler/importers/hlo/hlo_text_cursor.h"
#include "compiler/importers/read_options.h"
#include "proto/hlo.pb.h"

namespace plugrt::shlo::hlo {

// Whether a shape starts here: an element-type name followed by '[', or '('.
bool AtShape(HloTextCursor& cur);
Status ReadShape(HloTextCursor& cur, xla::ShapeProto* shape);
// The literal of a constant instruction of shape `shape`, between the
// parentheses of `constant(...)` (the cursor is after '('). An elided
// literal (`{...}`) is refused naming the instruction unless `elided` says
// how to fill it.
Status ReadLiteral(HloTextCursor& cur, const xla::ShapeProto& shape,
                   const ElidedConstantFill& elided, std::string_view instruction,
                   xla::LiteralProto* literal);

// `{1,2,3}` (or `{}`).
StatusOr<std::vector<int64_t>> ReadIntList(HloTextCursor& cur, std::string_view what);
// `{{0,1},{2,3}}` (or `{}`).
StatusOr<std::vector<std::vector<int64_t>>> ReadIntListList(HloTextCursor& cur,
                                                            std::string_view what);
Status ReadWindow(HloTextCursor& cur, xla::Window* window);
Status ReadConvolutionLabels(HloTextCursor& cur, xla::ConvolutionDimensionNumbers* dnums);
Status ReadPaddingConfig(HloTextCursor& cur, xla::PaddingConfig* padding);
Status ReadSlice(HloTextCursor& cur, xla::HloInstructionProto* inst);
Status ReadReplicaGroups(HloTextCursor& cur, xla::HloInstructionProto* inst);
Status ReadSharding(HloTextCursor& cur, xla::OpSharding* sharding);
Status ReadMetadata(HloTextCursor& cur, xla::OpMetadata* metadata);
Status ReadFrontendAttributes(HloTextCursor& cur, xla::FrontendAttributes* attributes);
// `{{0}: (1, {}), ...}`: output_to_operand_aliasing.
Status ReadOutputOperandAliasing(HloTextCursor& cur, xla::HloInstructionProto* inst);
// The module's `input_output_alias={ {0}: (0, {}, may-alias), ... }`.
Status ReadInputOutputAlias(HloTextCursor& cur, xla::HloInputOutputAliasProto* alias);
// The module's `buffer_donor={ (0, {}), ... }`.
Status ReadBufferDonors(HloTextCursor& cur, xla::HloBufferDonorProto* donors);
// `{(f32[2]{0}, ...)->f32[2]{0}}`: entry_computation_layout.
Status ReadProgramShape(HloTextCursor& cur, xla::ProgramShapeProto* shape);

}  // namespace plugrt::shlo::hlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_VALUES_H_
