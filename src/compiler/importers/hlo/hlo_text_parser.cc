#include "compiler/importers/hlo/hlo_text_parser.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/importers/hlo/hlo_text_cursor.h"
#include "compiler/importers/hlo/hlo_text_values.h"

namespace plugrt::shlo::hlo {
namespace {

// Annotations that order, schedule or describe instructions without
// changing what they compute.
constexpr std::string_view kIgnoredAttributes[] = {
    "control-predecessors", "parameter_replication", "statistics", "origin",
    "result_accuracy", "async_execution_thread", "async_group_id", "scheduling_group_id",
    "cross_program_prefetch_index", "is_cross_program_prefetch", "schedule_id",
};

// The attributes that name called computations, in the order XLA keeps
// them in called_computation_ids (while: body, condition; conditional: true,
// false; select-and-scatter: select, scatter).
constexpr std::string_view kCallSlots[] = {
    "calls", "to_apply", "body", "condition", "true_computation", "false_computation",
    "branch_computations", "select", "scatter",
};

struct NameRef {
  std::string name;
  size_t at;
};

// One instruction while its computation is read: the proto, where it
// starts, the names of its operands and called computations.
struct PendingInstruction {
  xla::HloInstructionProto proto;
  size_t at = 0;
  bool is_root = false;
  std::vector<NameRef> operands;
  std::map<size_t, std::vector<NameRef>> calls;  // slot index -> names
};

struct PendingComputation {
  xla::HloComputationProto proto;
  size_t at = 0;
  std::vector<PendingInstruction> instructions;
};

class HloTextParser {
 public:
  HloTextParser(std::string_view text, std::string_view file_name, const ReadOptions& options)
      : cur_(text, file_name), options_(options) {}

  StatusOr<HloText> Run();

 private:
  Status ReadModuleAttributes();
  Status ReadComputation();
  Status ReadInstruction(PendingComputation* comp);
  Status ReadOperands(PendingInstruction* inst);
  Status ReadAttribute(PendingInstruction* inst, const std::string& key, size_t key_at);
  StatusOr<std::vector<NameRef>> ReadComputationNames();
  Status SkipValue();
  StatusOr<bool> Bool(std::string_view what);
  // Operand ids, post order and the root, within one computation.
  Status Finish(PendingComputation* comp);

  HloTextCursor cur_;
  const ReadOptions& options_;
  HloText result_;
  std::vector<PendingComputation> computations_;
  int64_t entry_index_ = -1;
  int64_t next_instruction_id_ = 1;
};

StatusOr<bool> HloTextParser::Bool(std::string_view what) {
  if (cur_.EatWord("true")) return true;
  if (cur_.EatWord("false")) return false;
  return cur_.Error("expected true or false (", what, ")");
}

Status HloTextParser::SkipValue() {
  const char c = cur_.Peek();
  if (c == '{') return cur_.BalancedBraces("a value").status();
  if (c == '"') return cur_.Quoted("a value").status();
  return cur_.Until(",\n", "a value").status();
}

StatusOr<std::vector<NameRef>> HloTextParser::ReadComputationNames() {
  std::vector<NameRef> names;
  auto one = [&]() -> Status {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string name, cur_.Name("a computation name"));
    names.push_back({std::move(name), at});
    return OkStatus();
  };
  if (cur_.Eat('{')) {
    if (cur_.Eat('}')) return names;
    do {
      PLUGRT_RETURN_IF_ERROR(one());
    } while (cur_.Eat(','));
    PLUGRT_RETURN_IF_ERROR(cur_.Expect('}', "to close a list of computations"));
    return names;
  }
  PLUGRT_RETURN_IF_ERROR(one());
  return names;
}

Status HloTextParser::ReadModuleAttributes() {
  while (cur_.Eat(',')) {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string key, cur_.Word("a module attribute"));
    PLUGRT_RETURN_IF_ERROR(cur_.Expect('=', "after a module attribute's name"));
    xla::HloModuleProto& m = result_.module;
    xla::HloModuleConfigProto& config = result_.config;
    if (key == "entry_computation_layout") {
      PLUGRT_RETURN_IF_ERROR(ReadProgramShape(cur_, config.mutable_entry_computation_layout()));
    } else if (key == "input_output_alias") {
      PLUGRT_RETURN_IF_ERROR(ReadInputOutputAlias(cur_, m.mutable_input_output_alias()));
    } else if (key == "buffer_donor") {
      PLUGRT_RETURN_IF_ERROR(ReadBufferDonors(cur_, m.mutable_buffer_donor()));
    } else if (key == "replica_count") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t n, cur_.Int("replica_count"));
      if (n < 1) return cur_.ErrorAt(at, "replica_count must be positive, not ", n);
      config.set_replica_count(n);
    } else if (key == "num_partitions") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t n, cur_.Int("num_partitions"));
      if (n < 1) return cur_.ErrorAt(at, "num_partitions must be positive, not ", n);
      config.set_num_partitions(n);
    } else if (key == "frontend_attributes") {
      PLUGRT_RETURN_IF_ERROR(ReadFrontendAttributes(cur_, m.mutable_frontend_attributes()));
    } else if (key == "spmd_output_sharding") {
      PLUGRT_RETURN_IF_ERROR(ReadSharding(cur_, m.mutable_spmd_output_sharding()));
    } else {
      // Hints to XLA's own compiler (scheduling, sharding propagation,
      // pass-through aliasing): nothing to compute with.
      PLUGRT_RETURN_IF_ERROR(SkipValue());
    }
  }
  return OkStatus();
}

Status HloTextParser::ReadOperands(PendingInstruction* inst) {
  xla::HloInstructionProto& p = inst->proto;
  const std::string& opcode = p.opcode();
  if (opcode == "parameter") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t n, cur_.Int("a parameter number"));
    if (n < 0) return cur_.ErrorAt(inst->at, "parameter number ", n, " is negative");
    p.set_parameter_number(n);
    return cur_.Expect(')', "after the parameter number");
  }
  if (opcode == "constant") {
    PLUGRT_RETURN_IF_ERROR(
        ReadLiteral(cur_, p.shape(), options_.elided, p.name(), p.mutable_literal()));
    return cur_.Expect(')', "to close the constant");
  }
  if (cur_.Eat(')')) return OkStatus();
  do {
    if (AtShape(cur_)) {
      xla::ShapeProto ignored;  // the operand's shape, written for readers
      PLUGRT_RETURN_IF_ERROR(ReadShape(cur_, &ignored));
    }
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string name, cur_.Name("an operand name"));
    inst->operands.push_back({std::move(name), at});
  } while (cur_.Eat(','));
  return cur_.Expect(')', "to close the operands");
}

Status HloTextParser::ReadAttribute(PendingInstruction* inst, const std::string& key,
                                    size_t key_at) {
  xla::HloInstructionProto& p = inst->proto;
  const std::string& op = p.opcode();
  auto ints = [&](auto add) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, ReadIntList(cur_, key));
    for (int64_t i : v) add(i);
    return OkStatus();
  };
  auto integer = [&]() { return cur_.Int(key); };
  auto boolean = [&]() { return Bool(key); };

  for (size_t slot = 0; slot < std::size(kCallSlots); ++slot) {
    if (key == kCallSlots[slot]) {
      PLUGRT_ASSIGN_OR_RETURN(inst->calls[slot], ReadComputationNames());
      return OkStatus();
    }
  }
  if (key == "dimensions") return ints([&](int64_t i) { p.add_dimensions(i); });
  if (key == "iota_dimension") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t d, integer());
    p.add_dimensions(d);
    return OkStatus();
  }
  if (key == "index") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t i, integer());
    p.set_tuple_index(i);
    return OkStatus();
  }
  if (key == "slice") return ReadSlice(cur_, &p);
  if (key == "padding") return ReadPaddingConfig(cur_, p.mutable_padding_config());
  if (key == "window") return ReadWindow(cur_, p.mutable_window());
  if (key == "dim_labels") return ReadConvolutionLabels(cur_, p.mutable_convolution_dimension_numbers());
  if (key == "feature_group_count") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t n, integer());
    p.set_feature_group_count(n);
    return OkStatus();
  }
  if (key == "batch_group_count") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t n, integer());
    p.set_batch_group_count(n);
    return OkStatus();
  }
  auto dot = [&] { return p.mutable_dot_dimension_numbers(); };
  if (key == "lhs_contracting_dims") return ints([&](int64_t i) { dot()->add_lhs_contracting_dimensions(i); });
  if (key == "rhs_contracting_dims") return ints([&](int64_t i) { dot()->add_rhs_contracting_dimensions(i); });
  if (key == "lhs_batch_dims") return ints([&](int64_t i) { dot()->add_lhs_batch_dimensions(i); });
  if (key == "rhs_batch_dims") return ints([&](int64_t i) { dot()->add_rhs_batch_dimensions(i); });
  if (key == "operand_precision") {
    PLUGRT_RETURN_IF_ERROR(cur_.Expect('{', "to open operand_precision"));
    if (!cur_.Eat('}')) {
      do {
        const size_t at = cur_.Here();
        PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("a precision"));
        if (w == "default" || w == "DEFAULT") p.mutable_precision_config()->add_operand_precision(xla::PrecisionConfig::DEFAULT);
        else if (w == "high" || w == "HIGH") p.mutable_precision_config()->add_operand_precision(xla::PrecisionConfig::HIGH);
        else if (w == "highest" || w == "HIGHEST") p.mutable_precision_config()->add_operand_precision(xla::PrecisionConfig::HIGHEST);
        else return cur_.ErrorAt(at, "precision '", w, "' is not default, high or highest");
      } while (cur_.Eat(','));
      PLUGRT_RETURN_IF_ERROR(cur_.Expect('}', "to close operand_precision"));
    }
    return OkStatus();
  }
  if (key == "algorithm") {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("an algorithm"));
    if (op == "rng-bit-generator") {
      if (w == "rng_default") p.set_rng_algorithm(xla::RNG_DEFAULT);
      else if (w == "rng_three_fry") p.set_rng_algorithm(xla::RNG_THREE_FRY);
      else if (w == "rng_philox") p.set_rng_algorithm(xla::RNG_PHILOX);
      else return cur_.ErrorAt(at, "rng algorithm '", w, "' is not rng_default, rng_three_fry or rng_philox");
      return OkStatus();
    }
    return cur_.UnimplementedAt(at, "dot algorithm '", w, "' of instruction '", p.name(),
                                "' (plugrt computes dots at the operands' own precision)");
  }
  if (key == "direction") {
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("a comparison direction"));
    p.set_comparison_direction(w);
    return OkStatus();
  }
  if (key == "type") {
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("a comparison type"));
    p.set_comparison_type(w);
    return OkStatus();
  }
  auto g = [&] { return p.mutable_gather_dimension_numbers(); };
  auto s = [&] { return p.mutable_scatter_dimension_numbers(); };
  if (key == "offset_dims") return ints([&](int64_t i) { g()->add_offset_dims(i); });
  if (key == "collapsed_slice_dims") return ints([&](int64_t i) { g()->add_collapsed_slice_dims(i); });
  if (key == "start_index_map") return ints([&](int64_t i) { g()->add_start_index_map(i); });
  if (key == "operand_batching_dims") return ints([&](int64_t i) { g()->add_operand_batching_dims(i); });
  if (key == "start_indices_batching_dims") return ints([&](int64_t i) { g()->add_start_indices_batching_dims(i); });
  if (key == "slice_sizes") return ints([&](int64_t i) { p.add_gather_slice_sizes(i); });
  if (key == "update_window_dims") return ints([&](int64_t i) { s()->add_update_window_dims(i); });
  if (key == "inserted_window_dims") return ints([&](int64_t i) { s()->add_inserted_window_dims(i); });
  if (key == "scatter_dims_to_operand_dims") return ints([&](int64_t i) { s()->add_scatter_dims_to_operand_dims(i); });
  if (key == "input_batching_dims") return ints([&](int64_t i) { s()->add_input_batching_dims(i); });
  if (key == "scatter_indices_batching_dims") return ints([&](int64_t i) { s()->add_scatter_indices_batching_dims(i); });
  if (key == "index_vector_dim") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t d, integer());
    if (op == "scatter") s()->set_index_vector_dim(d);
    else g()->set_index_vector_dim(d);
    return OkStatus();
  }
  if (key == "indices_are_sorted") {
    PLUGRT_ASSIGN_OR_RETURN(bool b, boolean());
    p.set_indices_are_sorted(b);
    return OkStatus();
  }
  if (key == "unique_indices") {
    PLUGRT_ASSIGN_OR_RETURN(bool b, boolean());
    p.set_unique_indices(b);
    return OkStatus();
  }
  if (key == "dynamic_slice_sizes") return ints([&](int64_t i) { p.add_dynamic_slice_sizes(i); });
  if (key == "replica_groups") return ReadReplicaGroups(cur_, &p);
  if (key == "channel_id") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t c, integer());
    p.set_channel_id(c);
    return OkStatus();
  }
  if (key == "source_target_pairs") {
    PLUGRT_ASSIGN_OR_RETURN(auto pairs, ReadIntListList(cur_, "source-target pairs"));
    for (const auto& pair : pairs) {
      if (pair.size() != 2) return cur_.ErrorAt(key_at, "a source-target pair has ", pair.size(), " ids");
      auto* st = p.add_source_target_pairs();
      st->set_source(pair[0]);
      st->set_target(pair[1]);
    }
    return OkStatus();
  }
  struct BoolField {
    std::string_view key;
    void (xla::HloInstructionProto::*set)(bool);
  };
  static constexpr BoolField kBools[] = {
      {"use_global_device_ids", &xla::HloInstructionProto::set_use_global_device_ids},
      {"constrain_layout", &xla::HloInstructionProto::set_constrain_layout},
      {"is_stable", &xla::HloInstructionProto::set_is_stable},
      {"largest", &xla::HloInstructionProto::set_largest},
      {"custom_call_has_side_effect", &xla::HloInstructionProto::set_custom_call_has_side_effect},
      {"is_host_transfer", &xla::HloInstructionProto::set_is_host_transfer},
      {"is_composite", &xla::HloInstructionProto::set_is_composite},
  };
  for (const BoolField& f : kBools) {
    if (key == f.key) {
      PLUGRT_ASSIGN_OR_RETURN(bool b, boolean());
      (p.*f.set)(b);
      return OkStatus();
    }
  }
  if (key == "custom_call_target") {
    PLUGRT_ASSIGN_OR_RETURN(std::string t, cur_.Quoted("custom_call_target"));
    p.set_custom_call_target(t);
    return OkStatus();
  }
  if (key == "backend_config") {
    if (cur_.Peek() == '{') {
      PLUGRT_ASSIGN_OR_RETURN(std::string_view raw, cur_.BalancedBraces("backend_config"));
      p.set_backend_config(std::string(raw));
    } else {
      PLUGRT_ASSIGN_OR_RETURN(std::string c, cur_.Quoted("backend_config"));
      p.set_backend_config(c);
    }
    return OkStatus();
  }
  if (key == "api_version") {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("an API version"));
    xla::CustomCallApiVersion v;
    if (!xla::CustomCallApiVersion_Parse(w, &v)) return cur_.ErrorAt(at, "unknown custom-call api_version '", w, "'");
    p.set_custom_call_api_version(v);
    return OkStatus();
  }
  if (key == "schedule") {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("a custom-call schedule"));
    xla::CustomCallSchedule v;
    if (!xla::CustomCallSchedule_Parse(w, &v)) return cur_.ErrorAt(at, "unknown custom-call schedule '", w, "'");
    p.set_custom_call_schedule(v);
    return OkStatus();
  }
  if (key == "operand_layout_constraints") {
    PLUGRT_RETURN_IF_ERROR(cur_.Expect('{', "to open operand_layout_constraints"));
    if (!cur_.Eat('}')) {
      do {
        PLUGRT_RETURN_IF_ERROR(ReadShape(cur_, p.add_operand_shapes_with_layout()));
      } while (cur_.Eat(','));
      PLUGRT_RETURN_IF_ERROR(cur_.Expect('}', "to close operand_layout_constraints"));
    }
    return OkStatus();
  }
  if (key == "output_to_operand_aliasing") return ReadOutputOperandAliasing(cur_, &p);
  if (key == "distribution") {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("a distribution"));
    if (w == "rng_uniform") p.set_distribution(xla::RNG_UNIFORM);
    else if (w == "rng_normal") p.set_distribution(xla::RNG_NORMAL);
    else return cur_.ErrorAt(at, "distribution '", w, "' is not rng_uniform or rng_normal");
    return OkStatus();
  }
  if (key == "exponent_bits" || key == "mantissa_bits") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t n, integer());
    if (key == "exponent_bits") p.set_exponent_bits(static_cast<int32_t>(n));
    else p.set_mantissa_bits(static_cast<int32_t>(n));
    return OkStatus();
  }
  if (key == "epsilon") {
    PLUGRT_ASSIGN_OR_RETURN(double e, cur_.Float("epsilon"));
    p.set_epsilon(static_cast<float>(e));
    return OkStatus();
  }
  if (key == "feature_index") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t n, integer());
    p.set_feature_index(n);
    return OkStatus();
  }
  if (key == "fft_type") {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("an FFT type"));
    xla::FftType t;
    if (!xla::FftType_Parse(w, &t)) return cur_.ErrorAt(at, "unknown fft_type '", w, "'");
    p.set_fft_type(t);
    return OkStatus();
  }
  if (key == "fft_length") return ints([&](int64_t i) { p.add_fft_length(i); });
  if (key == "k") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t n, integer());
    p.set_k(n);
    return OkStatus();
  }
  if (key == "delta") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t n, integer());
    p.set_delta(n);
    return OkStatus();
  }
  if (key == "kind") {
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("a fusion kind"));
    p.set_fusion_kind(w);
    return OkStatus();
  }
  if (key == "lower" || key == "left_side" || key == "unit_diagonal") {
    PLUGRT_ASSIGN_OR_RETURN(bool b, boolean());
    if (key == "lower" && op == "cholesky") p.mutable_cholesky_options()->set_lower(b);
    else if (key == "lower") p.mutable_triangular_solve_options()->set_lower(b);
    else if (key == "left_side") p.mutable_triangular_solve_options()->set_left_side(b);
    else p.mutable_triangular_solve_options()->set_unit_diagonal(b);
    return OkStatus();
  }
  if (key == "transpose_a") {
    const size_t at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string w, cur_.Word("transpose_a"));
    xla::TriangularSolveOptions::Transpose t;
    if (!xla::TriangularSolveOptions::Transpose_Parse(w, &t)) {
      return cur_.ErrorAt(at, "transpose_a '", w, "' is not NO_TRANSPOSE, TRANSPOSE or ADJOINT");
    }
    p.mutable_triangular_solve_options()->set_transpose_a(t);
    return OkStatus();
  }
  if (key == "infeed_config" || key == "outfeed_config") {
    PLUGRT_ASSIGN_OR_RETURN(std::string c, cur_.Quoted(key));
    if (key == "infeed_config") p.set_infeed_config(c);
    else p.set_outfeed_config(c);
    return OkStatus();
  }
  if (key == "outfeed_shape") return ReadShape(cur_, p.mutable_outfeed_shape());
  if (key == "sharding") return ReadSharding(cur_, p.mutable_sharding());
  if (key == "metadata") return ReadMetadata(cur_, p.mutable_metadata());
  if (key == "frontend_attributes") return ReadFrontendAttributes(cur_, p.mutable_frontend_attributes());
  if (std::find(std::begin(kIgnoredAttributes), std::end(kIgnoredAttributes), key) !=
      std::end(kIgnoredAttributes)) {
    return SkipValue();
  }
  return cur_.ErrorAt(key_at, "attribute '", key, "' of instruction '", p.name(), "' (", op,
                      ") is not known to plugrt's HLO text reader");
}

Status HloTextParser::ReadInstruction(PendingComputation* comp) {
  PendingInstruction inst;
  inst.is_root = cur_.EatWord("ROOT");
  inst.at = cur_.Here();
  xla::HloInstructionProto& p = inst.proto;
  PLUGRT_ASSIGN_OR_RETURN(std::string name, cur_.Name("an instruction name"));
  p.set_name(name);
  PLUGRT_RETURN_IF_ERROR(cur_.Expect('=', StrCat("after instruction name '", name, "'")));
  PLUGRT_RETURN_IF_ERROR(ReadShape(cur_, p.mutable_shape()));
  PLUGRT_ASSIGN_OR_RETURN(std::string opcode, cur_.Word("an opcode"));
  p.set_opcode(opcode);
  PLUGRT_RETURN_IF_ERROR(cur_.Expect('(', StrCat("to open the operands of '", name, "'")));
  PLUGRT_RETURN_IF_ERROR(ReadOperands(&inst));
  while (cur_.Eat(',')) {
    const size_t key_at = cur_.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string key, cur_.Word("an attribute name"));
    PLUGRT_RETURN_IF_ERROR(cur_.Expect('=', StrCat("after attribute '", key, "'")));
    PLUGRT_RETURN_IF_ERROR(ReadAttribute(&inst, key, key_at));
  }
  p.set_id(next_instruction_id_++);
  comp->instructions.push_back(std::move(inst));
  return OkStatus();
}

Status HloTextParser::ReadComputation() {
  PendingComputation comp;
  const bool is_entry = cur_.EatWord("ENTRY");
  comp.at = cur_.Here();
  PLUGRT_ASSIGN_OR_RETURN(std::string name, cur_.Name("a computation name"));
  comp.proto.set_name(name);
  comp.proto.set_id(static_cast<int64_t>(computations_.size()) + 1);
  if (cur_.Eat('(')) {  // the signature, which the parameters repeat
    xla::ProgramShapeProto* ps = comp.proto.mutable_program_shape();
    if (!cur_.Eat(')')) {
      do {
        PLUGRT_ASSIGN_OR_RETURN(std::string pname, cur_.Name("a parameter name"));
        ps->add_parameter_names(pname);
        PLUGRT_RETURN_IF_ERROR(cur_.Expect(':', "after a parameter name"));
        PLUGRT_RETURN_IF_ERROR(ReadShape(cur_, ps->add_parameters()));
      } while (cur_.Eat(','));
      PLUGRT_RETURN_IF_ERROR(cur_.Expect(')', "to close the parameters"));
    }
    if (!cur_.EatText("->")) return cur_.Error("expected '->' before the computation's result shape");
    PLUGRT_RETURN_IF_ERROR(ReadShape(cur_, ps->mutable_result()));
  }
  PLUGRT_RETURN_IF_ERROR(cur_.Expect('{', StrCat("to open computation '", name, "'")));
  while (!cur_.Eat('}')) {
    if (cur_.AtEnd()) return cur_.ErrorAt(comp.at, "computation '", name, "' is not closed");
    PLUGRT_RETURN_IF_ERROR(ReadInstruction(&comp));
  }
  if (cur_.Eat(',')) {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, cur_.Word("a computation attribute"));
    PLUGRT_RETURN_IF_ERROR(cur_.Expect('=', "after a computation attribute"));
    if (key != "execution_thread") return cur_.Error("unknown computation attribute '", key, "'");
    PLUGRT_ASSIGN_OR_RETURN(std::string thread, cur_.Quoted("execution_thread"));
    comp.proto.set_execution_thread(thread);
  }
  if (is_entry) {
    if (entry_index_ >= 0) return cur_.ErrorAt(comp.at, "a second ENTRY computation ('", name, "')");
    entry_index_ = static_cast<int64_t>(computations_.size());
  }
  computations_.push_back(std::move(comp));
  return OkStatus();
}

Status HloTextParser::Finish(PendingComputation* comp) {
  std::vector<PendingInstruction>& insts = comp->instructions;
  const std::string& cname = comp->proto.name();
  if (insts.empty()) return cur_.ErrorAt(comp->at, "computation '", cname, "' has no instructions");
  std::unordered_map<std::string, size_t> by_name;
  for (size_t i = 0; i < insts.size(); ++i) {
    if (!by_name.emplace(insts[i].proto.name(), i).second) {
      return cur_.ErrorAt(insts[i].at, "instruction '", insts[i].proto.name(),
                          "' is defined twice in computation '", cname, "'");
    }
  }
  std::vector<std::vector<size_t>> operand_index(insts.size());
  for (size_t i = 0; i < insts.size(); ++i) {
    for (const NameRef& ref : insts[i].operands) {
      auto it = by_name.find(ref.name);
      if (it == by_name.end()) {
        return cur_.ErrorAt(ref.at, "operand '", ref.name, "' names no instruction of computation '",
                            cname, "'");
      }
      operand_index[i].push_back(it->second);
      insts[i].proto.add_operand_ids(insts[it->second].proto.id());
    }
  }
  // Operands before users (the text may use a name before its line), text
  // order kept where it already is one; a cycle is an error.
  std::vector<int> state(insts.size(), 0);  // 0 new, 1 on the path, 2 placed
  std::vector<size_t> order;
  order.reserve(insts.size());
  for (size_t start = 0; start < insts.size(); ++start) {
    if (state[start] != 0) continue;
    std::vector<std::pair<size_t, size_t>> stack{{start, 0}};
    state[start] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < operand_index[node].size()) {
        const size_t child = operand_index[node][next++];
        if (state[child] == 1) {
          return cur_.ErrorAt(insts[child].at, "instruction '", insts[child].proto.name(),
                              "' depends on itself");
        }
        if (state[child] == 0) {
          state[child] = 1;
          stack.push_back({child, 0});
        }
      } else {
        state[node] = 2;
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  size_t root = insts.size() - 1;
  bool marked = false;
  for (size_t i = 0; i < insts.size(); ++i) {
    if (!insts[i].is_root) continue;
    if (marked) return cur_.ErrorAt(insts[i].at, "a second ROOT in computation '", cname, "'");
    marked = true;
    root = i;
  }
  comp->proto.set_root_id(insts[root].proto.id());
  for (size_t i : order) *comp->proto.add_instructions() = std::move(insts[i].proto);
  return OkStatus();
}

StatusOr<HloText> HloTextParser::Run() {
  if (!cur_.EatWord("HloModule")) return cur_.Error("expected 'HloModule' (HLO text starts with it)");
  PLUGRT_ASSIGN_OR_RETURN(std::string name, cur_.Name("the module name"));
  result_.module.set_name(name);
  PLUGRT_RETURN_IF_ERROR(ReadModuleAttributes());
  while (!cur_.AtEnd()) PLUGRT_RETURN_IF_ERROR(ReadComputation());
  if (computations_.empty()) return cur_.Error("the HLO module has no computations");
  if (entry_index_ < 0) entry_index_ = static_cast<int64_t>(computations_.size()) - 1;

  std::unordered_map<std::string, int64_t> computation_ids;
  for (const PendingComputation& c : computations_) {
    if (!computation_ids.emplace(c.proto.name(), c.proto.id()).second) {
      return cur_.ErrorAt(c.at, "computation '", c.proto.name(), "' is defined twice");
    }
  }
  for (PendingComputation& c : computations_) {
    for (PendingInstruction& inst : c.instructions) {
      for (const auto& [slot, names] : inst.calls) {
        for (const NameRef& ref : names) {
          auto it = computation_ids.find(ref.name);
          if (it == computation_ids.end()) {
            return cur_.ErrorAt(ref.at, "computation '", ref.name, "' is not defined");
          }
          inst.proto.add_called_computation_ids(it->second);
        }
      }
    }
    PLUGRT_RETURN_IF_ERROR(Finish(&c));
  }
  const xla::HloComputationProto& entry = computations_[entry_index_].proto;
  result_.module.set_entry_computation_name(entry.name());
  result_.module.set_entry_computation_id(entry.id());
  for (PendingComputation& c : computations_) {
    *result_.module.add_computations() = std::move(c.proto);
  }
  return std::move(result_);
}

}  // namespace

bool IsHloText(std::string_view bytes) {
  HloTextCursor cur(bytes, "");
  return cur.EatWord("HloModule");
}

StatusOr<HloText> ParseHloText(std::string_view text, std::string_view file_name,
                               const ReadOptions& options) {
  HloTextParser parser(text, file_name, options);
  return parser.Run();
}

}  // namespace plugrt::shlo::hlo
