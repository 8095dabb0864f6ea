#include "cpu/cpu_executable.h"

#include <chrono>
#include <cstring>
#include <optional>

#include "common/byte_io.h"
#include "common/content_hash.h"
#include "compiler/pipeline.h"
#include "cpu/cpu_version.h"
#include "kernels_abi/custom_call_targets.h"
#include "kernels_abi/kernel_plugins.h"
#include "compiler/passes/refine_shapes.h"
#include "profiler/recorder.h"
#include "stablehlo/clone.h"
#include "compiler/passes/cost_analysis.h"
#include "stablehlo/element_type.h"
#include "stablehlo/printer.h"
#include "compiler/importers/read_program.h"
#include "compiler/importers/serialize.h"

namespace plugrt::cpu {
namespace {

// Whether one execution is small enough to run on the calling thread
// (defined with the metadata below).
bool SmallEnoughToRunInline(const shlo::Module& module, const ProgramOptions& options);

// A replica or partition count: the module's `attribute` and the compile
// options' `option` (named `option_name`) must agree when both give it; 1 when
// neither does.
StatusOr<int64_t> ResolveCount(const shlo::Module& module, std::string_view attribute,
                               std::optional<int64_t> option, std::string_view option_name) {
  std::optional<int64_t> from_module;
  if (const shlo::Attribute* attr = shlo::FindAttribute(module.attributes, attribute)) {
    StatusOr<int64_t> value = shlo::AttrToInt(*attr);
    if (!value.ok()) return InvalidArgument("module attribute ", attribute, " must be an integer");
    if (*value < 1) {
      return InvalidArgument("module attribute ", attribute, " must be positive, got ", *value);
    }
    from_module = *value;
  }
  if (from_module && option && *from_module != *option) {
    return InvalidArgument("the program's ", attribute, " is ", *from_module,
                           " but the compile options' ", option_name, " is ", *option);
  }
  if (from_module) return *from_module;
  return option.value_or(1);
}

bool IsRowMajorOrder(const std::vector<int64_t>& minor_to_major) {
  const int64_t rank = static_cast<int64_t>(minor_to_major.size());
  for (int64_t i = 0; i < rank; ++i) {
    if (minor_to_major[i] != rank - 1 - i) return false;
  }
  return true;
}

// Argument layouts from the compile options against the entry function's
// parameters: same element type and dimensions, row-major storage.
Status CheckArgumentLayouts(const std::vector<ArgumentLayout>& layouts,
                            const std::vector<shlo::Type>& inputs) {
  if (layouts.empty()) return OkStatus();
  if (layouts.size() != inputs.size()) {
    return InvalidArgument("the compile options give ", layouts.size(),
                           " argument layouts but the program takes ", inputs.size(),
                           " arguments");
  }
  for (size_t i = 0; i < layouts.size(); ++i) {
    const ArgumentLayout& layout = layouts[i];
    std::optional<shlo::ElementType> type = shlo::FromPjrtType(layout.type);
    // A '?' dim of a shape-polymorphic parameter takes any size.
    bool dims_fit = inputs[i].is_tensor() && layout.dims.size() == inputs[i].dims().size();
    for (size_t d = 0; dims_fit && d < layout.dims.size(); ++d) {
      dims_fit = inputs[i].dims()[d] == shlo::kDynamicSize || inputs[i].dims()[d] == layout.dims[d];
    }
    if (!type || !dims_fit || *type != inputs[i].element_type()) {
      return InvalidArgument("argument ", i, ": the compile options' argument layout is ",
                             ArgumentLayoutString(layout), " but the program's parameter is ",
                             inputs[i].ToString());
    }
    if (layout.minor_to_major && !IsRowMajorOrder(*layout.minor_to_major)) {
      return Unimplemented("argument ", i, ": the compile options ask for layout ",
                           ArgumentLayoutString(layout),
                           "; the CPU backend takes arguments only in the row-major layout");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::CompileProgram(
    const sdk::Program& program, std::string_view compile_options, CompileOptions* decoded,
    const ProgramOptions& program_options, const PlacementCheck& placement) {
  if (!shlo::IsKnownProgramFormat(program.format)) {
    return InvalidArgument("program format '", program.format,
                           "' is not supported; the CPU plugin compiles \"mlir\" (StableHLO), "
                           "\"hlo\" and \"hlo_with_config\" (XLA's HloModuleProto)");
  }
  // The whole compile is one event; its phases (read, each pass, plan) are
  // events inside it.
  profiler::ScopedEvent traced(profiler::category::kCompile, "compile");
  PLUGRT_ASSIGN_OR_RETURN(*decoded, DecodeCompileOptions(compile_options));
  StatusOr<std::shared_ptr<CpuExecutable>> compiled =
      Compile(program.code, "<program>", *decoded, program_options, placement, program.format);
  if (compiled.ok()) {
    traced.AddStat(profiler::stat::kProgram, std::string((*compiled)->name()));
  } else {
    traced.AddStat("error", std::string(compiled.status().message()));
  }
  return compiled;
}

StatusOr<CpuExecutable::Counts> CpuExecutable::CheckOptions(const shlo::Module& module,
                                                            const CompileOptions& options,
                                                            const PlacementCheck& placement) {
  Counts counts;
  // Without explicit counts, a device assignment's shape gives them (the
  // decoder has checked that the two agree when both are present).
  const std::optional<DeviceAssignment>& assignment = options.device_assignment;
  std::optional<int64_t> option_replicas = options.num_replicas;
  std::optional<int64_t> option_partitions = options.num_partitions;
  if (assignment && !option_replicas) option_replicas = assignment->replicas;
  if (assignment && !option_partitions) option_partitions = assignment->computations;
  PLUGRT_ASSIGN_OR_RETURN(counts.num_replicas,
                          ResolveCount(module, "mhlo.num_replicas", option_replicas,
                                       options.num_replicas ? "num_replicas"
                                                            : "device assignment's replica count"));
  PLUGRT_ASSIGN_OR_RETURN(
      counts.num_partitions,
      ResolveCount(module, "mhlo.num_partitions", option_partitions,
                   options.num_partitions ? "num_partitions"
                                          : "device assignment's computation count"));
  if (options.compile_portable_executable && counts.num_replicas * counts.num_partitions != 1) {
    return InvalidArgument("compile options: a portable executable runs on one device, but the "
                           "program has ", counts.num_replicas, " replicas x ",
                           counts.num_partitions, " partitions");
  }
  const shlo::Function* entry = module.EntryFunction();
  if (entry == nullptr) {
    return InvalidArgument(module.location.ToString(),
                           ": the program has no entry function (@main or a single public "
                           "function)");
  }
  PLUGRT_RETURN_IF_ERROR(CheckArgumentLayouts(options.argument_layouts, entry->input_types));
  // '?' dims of a shape-polymorphic program are refined per argument shapes.
  const bool polymorphic = passes::IsShapePolymorphic(module);
  for (const shlo::Type& type : entry->result_types) {
    if (!type.is_tensor() || (!polymorphic && !type.has_static_shape())) {
      return Unimplemented("entry function results must be tensors of static shape; ",
                           type.ToString(), " is not supported as a program output");
    }
  }
  if (placement) {
    PLUGRT_RETURN_IF_ERROR(placement(counts.num_replicas, counts.num_partitions, options));
  }
  return counts;
}

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::Compile(
    std::string_view code, std::string_view file_name, const CompileOptions& options,
    const ProgramOptions& program_options, const PlacementCheck& placement,
    std::string_view format) {
  if (options.parameter_is_tupled_arguments) {
    return Unimplemented("compile options: parameter_is_tupled_arguments is not supported; "
                         "pass arguments one by one");
  }
  if (options.use_auto_spmd_partitioning) {
    return Unimplemented("compile options: use_auto_spmd_partitioning is not supported; the CPU "
                         "backend runs programs that are already partitioned");
  }
  // The pipeline (compiler/pipeline.h), with the switches resolved once for
  // it and for the planning below.
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<compiler::Compilation> compilation,
                          compiler::Compilation::Start(program_options.pipeline, options));
  auto check = [&](const shlo::Module& module) { return CheckOptions(module, options, placement); };
  PLUGRT_ASSIGN_OR_RETURN(compiler::PipelineResult lowered,
                          compiler::RunPipeline(code, file_name, check, *compilation, format));
  ProgramOptions planned = program_options;
  planned.passes = compilation->passes();
  if (lowered.polymorphic) {
    return FromPolymorphicModule(std::move(lowered.module), options, lowered.counts, planned);
  }
  return FromLoweredModule(std::move(lowered.module), options, lowered.counts, planned,
                           &compilation->runner());
}

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::FromPolymorphicModule(
    std::shared_ptr<const shlo::Module> module, const CompileOptions& options, Counts counts,
    const ProgramOptions& program_options) {
  auto executable = std::shared_ptr<CpuExecutable>(new CpuExecutable());
  const shlo::Function* entry = module->EntryFunction();
  if (entry == nullptr) return InvalidArgument("the program has no entry function");
  executable->name_ = module->name.empty() ? entry->name : module->name;
  executable->num_replicas_ = counts.num_replicas;
  executable->num_partitions_ = counts.num_partitions;
  executable->compile_options_ = options;
  executable->program_options_ = program_options;
  executable->dimension_arguments_ = passes::DimensionArguments(*module);
  executable->module_bytes_ = shlo::SerializeModule(*module);
  executable->options_bytes_ = EncodeCompileOptions(options);
  executable->polymorphic_ = std::move(module);
  return executable;
}

const shlo::Function& CpuExecutable::entry() const {
  return program_ ? program_->entry() : *polymorphic_->EntryFunction();
}

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::Specialize(
    const std::vector<shlo::Type>& argument_types,
    const std::vector<std::optional<int64_t>>& dimension_values) const {
  if (!is_polymorphic()) return Internal("Specialize needs a shape-polymorphic program");
  std::string key;
  for (size_t i = 0; i < argument_types.size(); ++i) {
    key += argument_types[i].ToString();
    if (i < dimension_values.size() && dimension_values[i]) {
      key += "=" + std::to_string(*dimension_values[i]);
    }
    key += ";";
  }
  std::lock_guard<std::mutex> lock(specializations_mu_);
  if (auto it = specializations_.find(key); it != specializations_.end()) return it->second;
  // A copy of the verified polymorphic module to refine and lower.
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module, shlo::CloneModule(*polymorphic_));
  const Counts counts{num_replicas_, num_partitions_};
  PLUGRT_RETURN_IF_ERROR(compiler::LowerSpecialization(module, {argument_types, dimension_values},
                                                       program_options_.pipeline,
                                                       program_options_.passes, counts));
  PLUGRT_ASSIGN_OR_RETURN(
      std::shared_ptr<CpuExecutable> executable,
      FromLoweredModule(std::move(module), compile_options_, counts, program_options_));
  // Programs called with ever new shapes would grow the cache without end;
  // it starts over past this many.
  constexpr size_t kMaxSpecializations = 64;
  if (specializations_.size() >= kMaxSpecializations) specializations_.clear();
  specializations_[key] = executable;
  return executable;
}

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::FromLoweredModule(
    std::shared_ptr<const shlo::Module> module, const CompileOptions& options, Counts counts,
    const ProgramOptions& program_options, passes::PassRunner* runner) {
  const auto plan_start = std::chrono::steady_clock::now();
  std::optional<profiler::ScopedEvent> planning(std::in_place, profiler::category::kCompile, "plan");
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const Program> program,
                          Program::Compile(module, program_options));
  planning.reset();
  if (runner != nullptr) {
    passes::PassRecord plan;
    plan.name = "plan";
    plan.kind = passes::PassRecord::Kind::kPlan;
    plan.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() -
                                                            plan_start).count();
    for (passes::BuiltinPass pass : {passes::BuiltinPass::constant_folding,
                                     passes::BuiltinPass::elementwise_fusion,
                                     passes::BuiltinPass::in_place_reuse,
                                     passes::BuiltinPass::convolution_epilogue}) {
      plan.note += StrCat(plan.note.empty() ? "" : ", ", passes::BuiltinPassName(pass), " ",
                          program_options.passes.on(pass) ? "on" : "off");
    }
    runner->Record(std::move(plan));
  }
  auto executable = std::shared_ptr<CpuExecutable>(new CpuExecutable());
  executable->name_ = module->name.empty() ? program->entry().name : module->name;
  executable->num_replicas_ = counts.num_replicas;
  executable->num_partitions_ = counts.num_partitions;
  executable->compile_options_ = options;
  executable->runs_inline_ = SmallEnoughToRunInline(*module, program_options);
  executable->program_ = std::move(program);
  executable->module_bytes_ = shlo::SerializeModule(*module);
  executable->options_bytes_ = EncodeCompileOptions(options);
  return executable;
}

size_t CpuExecutable::num_outputs() const { return entry().result_types.size(); }

StatusOr<std::vector<PJRT_Buffer_Type>> CpuExecutable::output_element_types() const {
  std::vector<PJRT_Buffer_Type> types;
  for (const shlo::Type& type : entry().result_types) {
    std::optional<PJRT_Buffer_Type> pjrt = shlo::ToPjrtType(type.element_type());
    types.push_back(pjrt ? *pjrt : PJRT_Buffer_Type_INVALID);
  }
  return types;
}

StatusOr<std::vector<std::vector<int64_t>>> CpuExecutable::output_dimensions() const {
  std::vector<std::vector<int64_t>> dims;
  for (const shlo::Type& type : entry().result_types) {
    if (!type.has_static_shape()) {
      // No number stands for '?' in PJRT's answer; a guess would be wrong.
      return FailedPrecondition("output ", dims.size(), " is ", type.ToString(),
                                ": a shape-polymorphic program's output dimensions depend on "
                                "the argument shapes; read them from the output buffers of an "
                                "execution");
    }
    dims.push_back(type.dims());
  }
  return dims;
}

StatusOr<std::vector<std::string>> CpuExecutable::output_memory_kinds() const {
  return std::vector<std::string>(num_outputs(), "device");
}

// ---------------------------------------------------------------------------
// Metadata.

namespace {

// Bytes of a value of `type` in the executor's storage (sub-byte elements
// take a byte each); tuples sum their elements, tokens and dynamic shapes 0.
int64_t ValueBytes(const shlo::Type& type) {
  if (type.is_tuple()) {
    int64_t total = 0;
    for (const shlo::Type& element : type.tuple_elements()) total += ValueBytes(element);
    return total;
  }
  if (!type.is_tensor() || !type.has_static_shape()) return 0;
  const int64_t element_bytes = (shlo::BitWidth(type.element_type()) + 7) / 8;
  return type.num_elements() * element_bytes;
}

}  // namespace

StatusOr<int64_t> CpuExecutable::size_of_generated_code_in_bytes() const {
  return static_cast<int64_t>(module_bytes_.size());
}

StatusOr<std::string> CpuExecutable::optimized_program(std::string* format) const {
  if (format != nullptr) *format = "mlir";
  return shlo::PrintModule(module());
}

StatusOr<std::string> CpuExecutable::fingerprint() const {
  ContentHasher hasher;
  hasher.Update("plugrt-cpu-executable");
  hasher.UpdateU64(module_bytes_.size());
  hasher.Update(module_bytes_);
  hasher.UpdateU64(options_bytes_.size());
  hasher.Update(options_bytes_);
  return hasher.HexDigest();
}

namespace {

// Thresholds for running an execution inline: below these the hand-off to a
// worker thread would cost more than the work.
constexpr double kInlineMaxBytes = 64 * 1024;
constexpr double kInlineMaxFlops = 100000;

// A custom call known not to wait: plugrt's own math targets, and handlers
// a kernel plugin registered with PLUGRT_KernelFlag_INLINE_SAFE. Anything
// else (XLA FFI handlers registered through PJRT, which upstream's traits
// cannot mark, untyped functions) may block.
bool InlineSafeCustomCall(const shlo::Operation& op, const ProgramOptions& options) {
  const shlo::Attribute* attr = op.attribute("call_target_name");
  if (attr == nullptr || attr->kind != shlo::Attribute::Kind::kString) return false;
  const std::string_view target = attr->str;
  if (target.starts_with(kernels_abi::kMathTargetPrefix) &&
      kernels_abi::MathTargetNamed(target.substr(kernels_abi::kMathTargetPrefix.size()))) {
    return true;
  }
  if (options.kernel_plugins == nullptr) return false;
  const kernels_abi::KernelHandlerEntry* entry = options.kernel_plugins->Find(target);
  return entry != nullptr && (entry->flags & PLUGRT_KernelFlag_INLINE_SAFE) != 0;
}

// Host transfers, feeds and custom calls may wait on the host (except those
// InlineSafeCustomCall knows); a while loop may run for long.
bool MayWaitOnHost(const shlo::Block& block, const ProgramOptions& options) {
  for (const auto& op : block.operations) {
    const shlo::OpGroup group = shlo::TraitsOf(op->code).group;
    if (group == shlo::OpGroup::kHostTransfer || group == shlo::OpGroup::kFeed ||
        op->code == shlo::OpCode::kWhile) {
      return true;
    }
    if (group == shlo::OpGroup::kCustomCall && !InlineSafeCustomCall(*op, options)) return true;
    for (const auto& region : op->regions) {
      for (const auto& b : region->blocks) {
        if (MayWaitOnHost(*b, options)) return true;
      }
    }
  }
  return false;
}

bool SmallEnoughToRunInline(const shlo::Module& module, const ProgramOptions& options) {
  StatusOr<shlo::CostEstimate> cost = shlo::EstimateCost(module);
  if (!cost.ok() || cost->bytes_accessed > kInlineMaxBytes || cost->flops > kInlineMaxFlops) {
    return false;
  }
  for (const auto& function : module.functions) {
    if (function->body != nullptr && !function->body->blocks.empty() &&
        MayWaitOnHost(function->body->front(), options)) {
      return false;
    }
  }
  return true;
}

}  // namespace

StatusOr<sdk::Attributes> CpuExecutable::cost_analysis() const {
  if (is_polymorphic()) {
    return FailedPrecondition("a shape-polymorphic program's cost depends on the argument shapes");
  }
  PLUGRT_ASSIGN_OR_RETURN(shlo::CostEstimate cost, shlo::EstimateCost(module()));
  sdk::Attributes attributes;
  attributes.push_back({"flops", static_cast<float>(cost.flops)});
  attributes.push_back({"transcendentals", static_cast<float>(cost.transcendentals)});
  attributes.push_back({"bytes accessed", static_cast<float>(cost.bytes_accessed)});
  return attributes;
}

// Arguments and outputs: the entry function's parameter and result bytes.
// Alias: parameters the program marks tf.aliasing_output (reusable for an
// output). Generated code: the serialized module (constants included).
// Temp is an estimate, not a measurement: the bytes of every value the
// entry function's top-level ops produce (constants excluded, they are
// counted as code), as if all were live at once; values inside regions and
// called functions are not counted. Everything lives in host memory on the
// CPU backend, which is its default memory, so the host_* fields stay 0.
StatusOr<CompiledMemoryStats> CpuExecutable::compiled_memory_stats() const {
  if (is_polymorphic()) {
    return FailedPrecondition("a shape-polymorphic program's memory use depends on the argument "
                              "shapes");
  }
  const shlo::Function& entry = this->entry();
  CompiledMemoryStats stats;
  stats.generated_code_size_in_bytes = static_cast<int64_t>(module_bytes_.size());
  for (size_t i = 0; i < entry.input_types.size(); ++i) {
    const int64_t bytes = ValueBytes(entry.input_types[i]);
    stats.argument_size_in_bytes += bytes;
    if (i < entry.arg_attributes.size() &&
        shlo::FindAttribute(entry.arg_attributes[i], "tf.aliasing_output") != nullptr) {
      stats.alias_size_in_bytes += bytes;
    }
  }
  for (const shlo::Type& type : entry.result_types) stats.output_size_in_bytes += ValueBytes(type);
  if (entry.body != nullptr && !entry.body->blocks.empty()) {
    for (const auto& op : entry.body->front().operations) {
      if (op->code == shlo::OpCode::kConstant) continue;
      for (const auto& result : op->results) stats.temp_size_in_bytes += ValueBytes(result->type);
    }
  }
  stats.total_size_in_bytes = stats.generated_code_size_in_bytes + stats.argument_size_in_bytes +
                              stats.output_size_in_bytes - stats.alias_size_in_bytes +
                              stats.temp_size_in_bytes;
  stats.peak_memory_in_bytes = stats.total_size_in_bytes;
  return stats;
}

StatusOr<std::string> CpuExecutable::serialized_compile_options() const { return options_bytes_; }

// ---------------------------------------------------------------------------
// Serialization.
//
// Layout (fixed-width integers little-endian):
//   offset  0   8 bytes  magic "PLUGRTEX"
//   offset  8   u32      format version (kExecutableFormatVersion)
//   offset 12   u64      payload length N
//   offset 20   N bytes  payload
//   offset 20+N u64      Checksum64 (common/content_hash.h) of bytes [0, 20+N)
// Payload, each string as u64 length + bytes: the writer's plugrt version,
// the encoded compile options (xla.CompileOptionsProto), u64 replica count,
// u64 partition count, the executable's name, shlo::SerializeModule of the
// lowered module (itself versioned and checksummed). Nothing may follow.

namespace {

constexpr std::string_view kExecutableMagic = "PLUGRTEX";
constexpr uint32_t kExecutableFormatVersion = 1;
constexpr size_t kHeaderSize = 20;
constexpr size_t kTrailerSize = 8;

}  // namespace

StatusOr<std::string> CpuExecutable::Serialize() const {
  std::string payload;
  ByteWriter fields(payload);
  fields.LengthPrefixed(kPluginVersion);
  fields.LengthPrefixed(options_bytes_);
  fields.U64(static_cast<uint64_t>(num_replicas_));
  fields.U64(static_cast<uint64_t>(num_partitions_));
  fields.LengthPrefixed(name_);
  fields.LengthPrefixed(module_bytes_);
  std::string out(kExecutableMagic);
  ByteWriter envelope(out);
  envelope.U32(kExecutableFormatVersion);
  envelope.U64(payload.size());
  envelope.Bytes(payload);
  envelope.U64(Checksum64(out));
  return out;
}

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::Deserialize(
    std::string_view bytes, const ProgramOptions& program_options) {
  if (bytes.size() < kExecutableMagic.size() ||
      bytes.substr(0, kExecutableMagic.size()) != kExecutableMagic) {
    return InvalidArgument("serialized executable: not a plugrt CPU executable (the bytes do not "
                           "start with \"", kExecutableMagic, "\")");
  }
  if (bytes.size() < kHeaderSize) {
    return InvalidArgument("serialized executable: truncated: ", bytes.size(),
                           " bytes, the header alone needs ", kHeaderSize);
  }
  const auto version = static_cast<uint32_t>(ByteReader::LoadFixed(bytes.substr(8), 4));
  if (version != kExecutableFormatVersion) {
    return InvalidArgument("serialized executable: format version ", version,
                           " is not supported; this plugin (plugrt ", kPluginVersion,
                           ") reads format version ", kExecutableFormatVersion,
                           " only; serialize it again with this plugin");
  }
  const uint64_t payload_size = ByteReader::LoadFixed(bytes.substr(12), 8);
  const size_t available = bytes.size() - kHeaderSize;
  if (available < kTrailerSize || payload_size > available - kTrailerSize) {
    return InvalidArgument("serialized executable: truncated: the header announces a ",
                           payload_size, "-byte payload plus an ", kTrailerSize,
                           "-byte checksum but only ", available, " bytes follow the header");
  }
  if (payload_size != available - kTrailerSize) {
    return InvalidArgument("serialized executable: ", available - kTrailerSize - payload_size,
                           " unexpected bytes after the checksum at offset ",
                           kHeaderSize + payload_size + kTrailerSize);
  }
  const size_t checked = kHeaderSize + payload_size;
  const uint64_t stored_hash = ByteReader::LoadFixed(bytes.substr(checked), 8);
  const uint64_t actual_hash = Checksum64(bytes.substr(0, checked));
  if (stored_hash != actual_hash) {
    return InvalidArgument("serialized executable: checksum mismatch (the bytes are corrupted)");
  }

  ByteReader reader(bytes.substr(kHeaderSize, payload_size), "serialized executable", kHeaderSize);
  std::string_view writer_version, options_bytes, name, module_bytes;
  uint64_t replicas = 0, partitions = 0;
  PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&writer_version, "plugrt version"));
  PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&options_bytes, "compile options"));
  PLUGRT_RETURN_IF_ERROR(reader.U64(&replicas, "replica count"));
  PLUGRT_RETURN_IF_ERROR(reader.U64(&partitions, "partition count"));
  PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&name, "name"));
  PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&module_bytes, "module"));
  PLUGRT_RETURN_IF_ERROR(reader.ExpectEnd("the payload's last field"));

  StatusOr<CompileOptions> options = DecodeCompileOptions(options_bytes);
  if (!options.ok()) {
    return InvalidArgument("serialized executable (written by plugrt ", writer_version,
                           "): its compile options do not decode: ", options.status().message());
  }
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::DeserializeModule(module_bytes);
  if (!module.ok()) {
    return InvalidArgument("serialized executable (written by plugrt ", writer_version,
                           "): its module does not load: ", module.status().message());
  }
  PLUGRT_ASSIGN_OR_RETURN(Counts counts, CheckOptions(**module, *options, nullptr));
  ProgramOptions planned = program_options;
  PLUGRT_ASSIGN_OR_RETURN(planned.passes, compiler::ResolvePasses(program_options.pipeline, *options));
  std::shared_ptr<CpuExecutable> executable;
  if (passes::IsShapePolymorphic(**module)) {
    PLUGRT_ASSIGN_OR_RETURN(executable, FromPolymorphicModule(std::move(*module), *options, counts,
                                                              planned));
  } else {
    PLUGRT_ASSIGN_OR_RETURN(executable, FromLoweredModule(std::move(*module), *options, counts,
                                                          planned));
  }
  if (static_cast<uint64_t>(executable->num_replicas_) != replicas ||
      static_cast<uint64_t>(executable->num_partitions_) != partitions ||
      executable->name_ != name) {
    return InvalidArgument("serialized executable: the stored name/replica/partition counts (",
                           name, ", ", replicas, ", ", partitions,
                           ") disagree with its program and options (", executable->name_, ", ",
                           executable->num_replicas_, ", ", executable->num_partitions_, ")");
  }
  return executable;
}

}  // namespace plugrt::cpu
