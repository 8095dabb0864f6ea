// plugrt StableHLO bytecode: VHLO -> StableHLO IR. The decoded artifact
// (container.cc) is built straight into the IR: module, functions, blocks,
// values and ops, with the op attributes of upstream's VHLO to StableHLO
// legalization (op_attributes.cc) and types and attributes in the text
// parser's normal form (ir_attributes.cc), so a program read from bytecode
// is exactly the IR its .mlir twin parses to. No program text is written:
// only attributes and types the bytecode itself holds as text (other
// dialects', quantized types) go through the parser's type and attribute
// readers. What the text parser checked on the way (values defined before
// use and in scope, one block per region, function bodies matching their
// types, no duplicate names) is checked here; the verifier the compile
// pipeline runs checks the ops.
#include "compiler/importers/bytecode/reader.h"

#include <utility>
#include <vector>

#include "compiler/importers/bytecode/container.h"
#include "compiler/importers/bytecode/ir_attributes.h"
#include "compiler/importers/bytecode/op_attributes.h"
#include "compiler/importers/mlir/mhlo.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo {
namespace {

using bytecode::BcAttr;
using bytecode::BcBlock;
using bytecode::BcFile;
using bytecode::BcOp;
using bytecode::BcRegion;
using bytecode::BcType;
using bytecode::IrAttributes;

// Deepest nesting of regions built (the decoder stops sooner).
constexpr int kMaxIrRegionDepth = 256;

bool IsStringAttr(const BcAttr* a, std::string_view v) {
  return a && a->kind == BcAttr::Kind::kString && a->str == v;
}

// The one place bytecode locations become IR locations: the artifact has
// no program text to point into, so the location is the source location
// the bytecode records (file:line:col, names, call sites, fused).
class BytecodeLocations {
 public:
  explicit BytecodeLocations(std::string_view file_name)
      : file_(std::make_shared<const std::string>(file_name)) {}

  Location Of(const BcAttr* a) const {
    Location loc;
    loc.file = file_;
    if (a == nullptr || a->str.empty() || a->str == "unknown") return loc;
    StatusOr<SourceLocationRef> source = ParseSourceLocation(a->str);
    if (source.ok()) loc.source = *source;
    return loc;
  }

 private:
  std::shared_ptr<const std::string> file_;
};

class IrFromBytecode {
 public:
  IrFromBytecode(const BcFile& file, size_t input_size, std::string_view file_name,
                 const ReadOptions& options)
      : file_(file), attrs_(input_size, options.elided), locations_(file_name) {}

  StatusOr<std::unique_ptr<Module>> Run();

 private:
  template <typename... Args>
  Status Err(const BcOp& op, const Args&... what) const {
    return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": ", what...);
  }
  // `s`, naming `op` and its offset unless it names an offset already.
  Status AtOp(const BcOp& op, Status s) const;

  Status BuildFunction(const BcOp& op, Module* module);
  // An op whose result is its (first) operand: a cast between a VHLO type
  // and its builtin twin, which StableHLO puts around other dialects' ops
  // (Shardy's) in an artifact, and mhlo's copy and add_dependency.
  Status ForwardCast(const BcOp& op);
  // Shardy's module-level `sdy.mesh`.
  Status BuildMesh(const BcOp& op, Module* module);
  Status BuildOps(const std::vector<std::unique_ptr<BcOp>>& ops, Block* block,
                  bool in_function_body, int depth);
  Status BuildOp(const BcOp& op, Block* block, bool in_function_body, int depth);
  // The arguments of `block`, defined in the current scope.
  Status BuildArguments(const BcOp& op, const BcBlock& bc, const std::vector<Type>& types,
                        Block* block);

  // Values by id: defined, then out of scope when their region closes.
  Status Define(const BcOp& op, int64_t id, Value* value);
  StatusOr<Value*> Use(const BcOp& op, int64_t id) const;
  size_t OpenScope() const { return defined_.size(); }
  void CloseScope(size_t mark);

  const BcFile& file_;
  IrAttributes attrs_;
  BytecodeLocations locations_;
  std::vector<Value*> values_;
  std::vector<int64_t> defined_;  // ids in definition order
};

Status IrFromBytecode::AtOp(const BcOp& op, Status s) const {
  if (s.ok()) return s;
  std::string_view message = s.message();
  if (message.starts_with("bytecode: at byte ")) return s;
  if (message.starts_with("bytecode: ")) message.remove_prefix(10);
  return Err(op, message);
}

Status IrFromBytecode::Define(const BcOp& op, int64_t id, Value* value) {
  if (id < 0 || static_cast<uint64_t>(id) >= values_.size()) {
    return Err(op, "value id ", id, " out of range");
  }
  if (values_[id] != nullptr) return Err(op, "redefinition of value %v", id);
  values_[id] = value;
  defined_.push_back(id);
  return OkStatus();
}

StatusOr<Value*> IrFromBytecode::Use(const BcOp& op, int64_t id) const {
  if (id < 0 || static_cast<uint64_t>(id) >= values_.size() || values_[id] == nullptr) {
    return Err(op, "use of value %v", id, " that is not defined before it in scope");
  }
  return values_[id];
}

void IrFromBytecode::CloseScope(size_t mark) {
  for (size_t i = mark; i < defined_.size(); ++i) values_[defined_[i]] = nullptr;
  defined_.resize(mark);
}

Status IrFromBytecode::BuildArguments(const BcOp& op, const BcBlock& bc,
                                      const std::vector<Type>& types, Block* block) {
  for (size_t i = 0; i < bc.arg_ids.size(); ++i) {
    auto value = std::make_unique<Value>();
    value->type = types[i];
    value->owner_block = block;
    value->index = static_cast<int>(i);
    value->name = StrCat("v", bc.arg_ids[i]);
    PLUGRT_RETURN_IF_ERROR(Define(op, bc.arg_ids[i], value.get()));
    block->arguments.push_back(std::move(value));
  }
  return OkStatus();
}

Status IrFromBytecode::BuildOps(const std::vector<std::unique_ptr<BcOp>>& ops, Block* block,
                                bool in_function_body, int depth) {
  block->operations.reserve(ops.size());
  for (const auto& child : ops) {
    PLUGRT_RETURN_IF_ERROR(BuildOp(*child, block, in_function_body, depth));
  }
  return OkStatus();
}

Status IrFromBytecode::BuildOp(const BcOp& op, Block* block, bool in_function_body,
                               int depth) {
  if (op.name == "builtin.unrealized_conversion_cast" || IsMhloIdentity(op.name)) {
    return ForwardCast(op);
  }
  std::string name;
  if (op.name == "vhlo.return_v1") {
    name = in_function_body ? "func.return" : "stablehlo.return";
  } else if (op.name == "vhlo.call_v1") {
    name = "func.call";
  } else if (op.name.starts_with("vhlo.") && op.name != "vhlo.func_v1") {
    name = "stablehlo." + bytecode::VhloOpBaseName(op.name);
  } else if (op.name.starts_with("sdy.") && op.name != "sdy.mesh") {
    name = op.name;
  } else if (op.name.starts_with("mhlo.")) {
    // MHLO written directly (not a portable artifact): read as StableHLO.
    std::optional<std::string> counterpart = MhloOpCounterpart(op.name);
    if (!counterpart) return Err(op, "is an mhlo op without a StableHLO counterpart");
    name = *std::move(counterpart);
  } else if (op.name.starts_with("stablehlo.") || op.name.starts_with("chlo.") ||
             (in_function_body && (op.name == "func.return" || op.name == "func.call"))) {
    // The dialects themselves, as stablehlo-opt and MLIR pipelines write them.
    name = op.name;
  } else {
    return Err(op, "is not an operation plugrt reads inside a function");
  }
  if (depth > kMaxIrRegionDepth) return Err(op, "regions nest deeper than ", kMaxIrRegionDepth);
  if (op.result_ids.size() != op.result_types.size()) {
    return Err(op, "has ", op.result_types.size(), " result types for ", op.result_ids.size(),
               " results");
  }
  auto ir = std::make_unique<Operation>();
  ir->code = LookupOpCode(name);
  ir->name = std::move(name);
  ir->parent = block;
  ir->location = locations_.Of(op.location);
  if (op.name.starts_with("vhlo.")) {
    PLUGRT_RETURN_IF_ERROR(AtOp(op, bytecode::BuildOpAttributes(op, attrs_, &ir->attributes)));
  } else if (op.name.starts_with("sdy.")) {
    PLUGRT_RETURN_IF_ERROR(AtOp(op, bytecode::BuildSdyOpAttributes(op, attrs_, &ir->attributes)));
  } else {
    // Builtin attributes and the dialects' own, spelled as in text.
    for (const auto& [n, a] : op.attributes) {
      StatusOr<Attribute> attr = attrs_.AttrOf(a);
      PLUGRT_RETURN_IF_ERROR(AtOp(op, attr.status()));
      PLUGRT_RETURN_IF_ERROR(
          AtOp(op, bytecode::AddNamedAttribute(n, *std::move(attr), &ir->attributes)));
    }
    if (op.name.starts_with("mhlo.")) {
      PLUGRT_RETURN_IF_ERROR(AtOp(op, NormalizeMhloAttributes(ir.get())));
    }
  }
  ir->operands.reserve(op.operand_ids.size());
  for (int64_t id : op.operand_ids) {
    PLUGRT_ASSIGN_OR_RETURN(Value * value, Use(op, id));
    ir->operands.push_back(value);
  }
  for (const BcRegion& bc_region : op.regions) {
    if (bc_region.blocks.size() > 1) return Err(op, "regions with several blocks are not supported");
    auto region = std::make_unique<Region>();
    region->parent_op = ir.get();
    // An empty region reads as one empty block, as `{}` does in text.
    auto body = std::make_unique<Block>();
    body->parent = region.get();
    const size_t mark = OpenScope();
    if (!bc_region.blocks.empty()) {
      const BcBlock& bc = bc_region.blocks[0];
      if (bc.arg_types.size() != bc.arg_ids.size()) return Err(op, "block argument without a type");
      std::vector<Type> types;
      for (const BcType* t : bc.arg_types) {
        StatusOr<Type> type = attrs_.TypeOf(t);
        PLUGRT_RETURN_IF_ERROR(AtOp(op, type.status()));
        types.push_back(*std::move(type));
      }
      PLUGRT_RETURN_IF_ERROR(BuildArguments(op, bc, types, body.get()));
      PLUGRT_RETURN_IF_ERROR(BuildOps(bc.ops, body.get(), false, depth + 1));
    }
    CloseScope(mark);
    region->blocks.push_back(std::move(body));
    ir->regions.push_back(std::move(region));
  }
  ir->results.reserve(op.result_ids.size());
  for (size_t i = 0; i < op.result_ids.size(); ++i) {
    StatusOr<Type> type = attrs_.TypeOf(op.result_types[i]);
    PLUGRT_RETURN_IF_ERROR(AtOp(op, type.status()));
    auto value = std::make_unique<Value>();
    value->type = *std::move(type);
    value->defining_op = ir.get();
    value->index = static_cast<int>(i);
    // Results of one op share the first one's name (%vFIRST#i).
    value->name = StrCat("v", op.result_ids[0]);
    PLUGRT_RETURN_IF_ERROR(Define(op, op.result_ids[i], value.get()));
    ir->results.push_back(std::move(value));
  }
  block->operations.push_back(std::move(ir));
  return OkStatus();
}

Status IrFromBytecode::BuildFunction(const BcOp& op, Module* module) {
  if (op.name != "vhlo.func_v1" && op.name != "func.func") {
    return Err(op, "is not a function (vhlo.func_v1 or func.func)");
  }
  const BcAttr* sym = op.attribute("sym_name");
  const BcAttr* type = op.attribute("function_type");
  if (sym == nullptr || sym->kind != BcAttr::Kind::kString || sym->str.empty() ||
      type == nullptr || type->kind != BcAttr::Kind::kType ||
      type->type->kind != BcType::Kind::kFunction) {
    return Err(op, "function without a name or function type");
  }
  if (module->FindFunction(sym->str) != nullptr) {
    return Err(op, "redefinition of function @", sym->str);
  }
  const BcType* ftype = type->type;
  // arg_attrs / res_attrs: one dictionary per value, or none at all.
  auto per_value = [&](const char* n, size_t count,
                       std::vector<std::vector<NamedAttribute>>* out) -> Status {
    const BcAttr* a = op.attribute(n);
    out->assign(count, {});
    if (a == nullptr || (a->kind == BcAttr::Kind::kArray && a->elements.empty())) {
      return OkStatus();
    }
    if (a->kind != BcAttr::Kind::kArray || a->elements.size() != count) {
      return Err(op, n, " does not have one dictionary per value");
    }
    for (size_t i = 0; i < count; ++i) {
      if (a->elements[i]->kind != BcAttr::Kind::kDictionary) {
        return Err(op, n, " holds a non-dictionary");
      }
      StatusOr<Attribute> dict = attrs_.AttrOf(a->elements[i]);
      PLUGRT_RETURN_IF_ERROR(AtOp(op, dict.status()));
      (*out)[i] = std::move(dict->fields);
    }
    return OkStatus();
  };
  if (op.regions.size() != 1 || op.regions[0].blocks.size() > 1) {
    return Err(op, "function body must be one block");
  }
  auto f = std::make_unique<Function>();
  f->name = sym->str;
  f->is_public = !IsStringAttr(op.attribute("sym_visibility"), "private");
  f->location = locations_.Of(op.location);
  for (const BcType* t : ftype->types) {
    StatusOr<Type> input = attrs_.TypeOf(t);
    PLUGRT_RETURN_IF_ERROR(AtOp(op, input.status()));
    f->input_types.push_back(*std::move(input));
  }
  for (const BcType* t : ftype->results) {
    StatusOr<Type> result = attrs_.TypeOf(t);
    PLUGRT_RETURN_IF_ERROR(AtOp(op, result.status()));
    f->result_types.push_back(*std::move(result));
  }
  f->result_locations.assign(f->result_types.size(), nullptr);
  PLUGRT_RETURN_IF_ERROR(per_value("arg_attrs", ftype->types.size(), &f->arg_attributes));
  PLUGRT_RETURN_IF_ERROR(per_value("res_attrs", ftype->results.size(), &f->result_attributes));
  for (const auto& [n, a] : op.attributes) {
    if (n == "sym_name" || n == "function_type" || n == "sym_visibility" || n == "arg_attrs" ||
        n == "res_attrs") {
      continue;
    }
    StatusOr<Attribute> attr = attrs_.AttrOf(a);
    PLUGRT_RETURN_IF_ERROR(AtOp(op, attr.status()));
    PLUGRT_RETURN_IF_ERROR(AtOp(op, bytecode::AddNamedAttribute(n, *std::move(attr),
                                                                &f->attributes)));
  }
  if (op.regions[0].blocks.empty()) {
    // A declaration: only private ones (the verifier refuses to run them).
    if (f->is_public) return Err(op, "public function @", f->name, " without a body");
    module->functions.push_back(std::move(f));
    return OkStatus();
  }
  const BcBlock& bc = op.regions[0].blocks[0];
  if (bc.arg_ids.size() != ftype->types.size() || bc.arg_types.size() != bc.arg_ids.size()) {
    return Err(op, "function body arguments do not match its type");
  }
  for (size_t i = 0; i < bc.arg_types.size(); ++i) {
    StatusOr<Type> arg = attrs_.TypeOf(bc.arg_types[i]);
    PLUGRT_RETURN_IF_ERROR(AtOp(op, arg.status()));
    if (*arg != f->input_types[i]) {
      return Err(op, "argument #", i, " of @", f->name, " has type ", arg->ToString(),
                 " but the function type says ", f->input_types[i].ToString());
    }
  }
  f->body = std::make_unique<Region>();
  auto body = std::make_unique<Block>();
  body->parent = f->body.get();
  // A function sees no values of other functions.
  const size_t mark = OpenScope();
  Status built = BuildArguments(op, bc, f->input_types, body.get());
  if (built.ok()) built = BuildOps(bc.ops, body.get(), true, 1);
  CloseScope(mark);
  PLUGRT_RETURN_IF_ERROR(built);
  f->body->blocks.push_back(std::move(body));
  module->functions.push_back(std::move(f));
  return OkStatus();
}

Status IrFromBytecode::ForwardCast(const BcOp& op) {
  const size_t operands = op.name == "mhlo.add_dependency" ? 2 : 1;
  if (op.operand_ids.size() != operands || op.result_ids.size() != 1 ||
      op.result_types.size() != 1 || !op.regions.empty()) {
    return Err(op, "only takes ", operands == 2 ? "a value and a token" : "one value",
               " to one value");
  }
  PLUGRT_ASSIGN_OR_RETURN(Value * value, Use(op, op.operand_ids[0]));
  StatusOr<Type> type = attrs_.TypeOf(op.result_types[0]);
  PLUGRT_RETURN_IF_ERROR(AtOp(op, type.status()));
  if (*type != value->type) {
    return Err(op, "changes ", value->type.ToString(), " to ", type->ToString(),
               ", which is not the same type");
  }
  return Define(op, op.result_ids[0], value);
}

Status IrFromBytecode::BuildMesh(const BcOp& op, Module* module) {
  std::string name;
  Attribute mesh;
  PLUGRT_RETURN_IF_ERROR(bytecode::SdyMeshOf(op, attrs_, &name, &mesh));
  for (const NamedAttribute& other : module->meshes) {
    if (other.first == name) return Err(op, "redefinition of mesh @", name);
  }
  module->meshes.emplace_back(std::move(name), std::move(mesh));
  return OkStatus();
}

StatusOr<std::unique_ptr<Module>> IrFromBytecode::Run() {
  if (file_.top_ops.size() != 1 || file_.top_ops[0]->name != "builtin.module") {
    return InvalidArgument("bytecode: the artifact does not hold one builtin.module");
  }
  const BcOp& bc = *file_.top_ops[0];
  if (bc.regions.size() != 1) return Err(bc, "module without one body region");
  values_.assign(static_cast<size_t>(std::max<int64_t>(file_.num_values, 0)), nullptr);
  auto module = std::make_unique<Module>();
  module->location = locations_.Of(bc.location);
  for (const auto& [n, a] : bc.attributes) {
    if (n == "sym_name" && a->kind == BcAttr::Kind::kString) {
      if (a->str.empty()) return Err(bc, "module with an empty name");
      module->name = a->str;
    } else if (n != "sym_visibility") {
      StatusOr<Attribute> attr = attrs_.AttrOf(a);
      PLUGRT_RETURN_IF_ERROR(AtOp(bc, attr.status()));
      PLUGRT_RETURN_IF_ERROR(AtOp(bc, bytecode::AddNamedAttribute(n, *std::move(attr),
                                                                  &module->attributes)));
    }
  }
  for (const BcBlock& block : bc.regions[0].blocks) {
    for (const auto& op : block.ops) {
      if (op->name == "sdy.mesh") {
        PLUGRT_RETURN_IF_ERROR(BuildMesh(*op, module.get()));
      } else {
        PLUGRT_RETURN_IF_ERROR(BuildFunction(*op, module.get()));
      }
    }
  }
  return module;
}

}  // namespace

bool IsMlirBytecode(std::string_view bytes) { return bytecode::IsBytecode(bytes); }

StatusOr<std::unique_ptr<Module>> ReadBytecodeModule(std::string_view bytes,
                                                     std::string_view file_name) {
  return ReadBytecodeModule(bytes, file_name, ReadOptions());
}

StatusOr<std::unique_ptr<Module>> ReadBytecodeModule(std::string_view bytes,
                                                     std::string_view file_name,
                                                     const ReadOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<BcFile> file, bytecode::DecodeBytecode(bytes));
  IrFromBytecode builder(*file, bytes.size(), file_name, options);
  StatusOr<std::unique_ptr<Module>> module = builder.Run();
  if (!module.ok()) {
    return InvalidArgument(module.status().message(), " (", file_name, ", written by ",
                           file->producer, ")");
  }
  return module;
}

}  // namespace plugrt::shlo
