// plugrt StableHLO: the recursive-descent parser shared by parser.cc (module,
// functions, generic ops, regions, types), parser_attributes.cc (attributes and
// dense literals), parser_ops.cc (pretty forms normalised to the generic
// form's attributes), parser_generic_module.cc (builtin.module and func.func
// in the generic form), parser_resources.cc (dense_resource and the file's
// resource section), parser_mhlo.cc (the mhlo dialect read as StableHLO) and
// parser_dialects.cc (ops of other dialects exporters mix in). Internal to
// src/stablehlo.
#ifndef PLUGRT_COMPILER_IMPORTERS_MLIR_PARSER_IMPL_H_
#define PLUGRT_COMPILER_IMPORTERS_MLIR_PARSER_IMPL_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "stablehlo/ir.h"
#include "compiler/importers/mlir/lexer.h"
#include "compiler/importers/mlir/mhlo.h"

namespace plugrt::shlo::internal {

// Deepest nesting of regions, attributes, types or dense lists accepted; deeper
// input is rejected rather than risking the stack.
inline constexpr int kMaxNesting = 256;

// A block argument declared in text: name (no '%') and type.
struct ArgDecl {
  std::string name;
  Type type;
  size_t pos = 0;
  SourceLocationRef source;  // its loc(...), if any
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view file_name, int first_line);
  StatusOr<std::unique_ptr<Module>> Run();

  // ---- types (parser.cc)
  StatusOr<Type> ParseType();
  // `(t, ...)` or `()`.
  StatusOr<std::vector<Type>> ParseParenTypeList();
  // After ':' of a pretty op: `(a, b) -> r`, `a, b -> (r, s)`, `a, b`, `a`.
  Status ParseSignature(std::vector<Type>* inputs, std::vector<Type>* results, bool* has_arrow);

  // ---- attributes (parser_attributes.cc)
  StatusOr<Attribute> ParseAttribute();
  // `{name = value, flag, ...}`; appends to `out`.
  Status ParseAttrDict(std::vector<NamedAttribute>* out);
  // `[1, -2, 3]` (true/false count as 1/0).
  StatusOr<std::vector<int64_t>> ParseIntList();
  StatusOr<int64_t> ParseInt64();
  // The fields of `#name<field = value, ...>` after '<', up to and with '>'.
  Status ParseStructFields(std::vector<NamedAttribute>* fields, char close);

  // ---- generic module and functions (parser_generic_module.cc)
  // `"builtin.module"() [<{props}>] ({ body }) [{attrs}] : () -> ()`, the
  // name already read (at the '(').
  Status ParseGenericModuleBody(Module* module);
  // `"func.func"() <{function_type = ..., sym_name = ...}> ({ ... }) : () -> ()`.
  Status ParseGenericFunction(Module* module);
  // One item of a module body: a function (either form) or `sdy.mesh`.
  Status ParseModuleItem(Module* module);

  // ---- dense_resource (parser_resources.cc)
  // After 'dense_resource': `<name> : tensor<...>`; the data is filled in by
  // ResolveResources once the file's resource section has been read.
  StatusOr<Attribute> ParseDenseResource(size_t start);
  // `{-# dialect_resources: { builtin: { name: "0x..." } } #-}` (at '{-#').
  Status ParseResourceSection();
  // Fills every dense_resource with its blob; names without one are errors.
  Status ResolveResources();

  // ---- ops of other dialects (parser_mhlo.cc, parser_dialects.cc)
  // Gives an op of mhlo, arith, tensor or func the name it reads as (mhlo.add
  // -> stablehlo.add) or refuses it by name; `pos` is where the name stands.
  Status TranslateOpName(Operation* op, size_t pos);
  // After the op is read (`written` is its name in the text): checks and
  // rewrites what the translation needs (attribute spellings, arith.constant
  // -> stablehlo.constant). Identities (mhlo.copy, tensor.cast,
  // mhlo.add_dependency) set `*alias` to the value their result stands for;
  // the op is then dropped.
  Status FinishTranslatedOp(Operation* op, std::string_view written,
                            const std::vector<Type>& result_types, size_t pos, Value** alias);
  // `%x : tensor<..> to tensor<..>` of tensor.cast, `%t[] : tensor<T>` of
  // tensor.extract.
  Status ParsePrettyTensorCast(Operation* op, std::vector<Type>* result_types);
  Status ParsePrettyTensorExtract(Operation* op, std::vector<Type>* result_types);
  Status ParsePrettyTensorDim(Operation* op, std::vector<Type>* result_types);
  Status ParsePrettyFromElements(Operation* op, std::vector<Type>* result_types);
  // arith's ops on scalars and tensors (parser_arith.cc): their pretty forms,
  // a type that may be `index` (as tensor<i64>; scalars as 0-d tensors), and
  // the StableHLO op each reads as (before FinishTranslatedOp).
  Status ParsePrettyArith(Operation* op, std::vector<Type>* result_types);
  StatusOr<Type> ParseArithType();
  Status FinishArithOp(Operation* op, std::string_view written, std::vector<Type>* result_types,
                       size_t pos);

  // ---- operations
  Status ParseBlockOps(Block* block);
  StatusOr<std::unique_ptr<Operation>> ParseOperation(Block* block);
  Status ParseGenericOp(Operation* op, std::vector<Type>* result_types);
  // Pretty forms (parser_ops.cc); `num_results` is what the text binds.
  Status ParsePrettyOp(Operation* op, size_t num_results, std::vector<Type>* result_types);
  // Shardy's ops (parser_sdy.cc): `sdy.*` pretty forms and module-level meshes.
  Status ParsePrettySdy(Operation* op, std::vector<Type>* result_types);
  Status ParseSdyMesh(Module* module);
  // ml_program (parser_ml_program.cc): a module-level `ml_program.global`
  // (after its name) is remembered; `global_load_const` / `global_load` of it
  // read as its initial value, a stablehlo.constant.
  Status ParseMlProgramGlobal();
  Status ParsePrettyGlobalLoad(Operation* op, std::vector<Type>* result_types);
  // The initial value of global `name` loaded as `type` (errors carry no
  // position).
  StatusOr<Attribute> GlobalValue(const std::string& name, const Type& type) const;
  // `<@mesh, [{"x"}, {}]>` or `#sdy.sharding<...>` -> an "sdy.sharding" kEnum.
  StatusOr<Attribute> ParseSdySharding();
  // `{ [^bb(args):] ops }`; `entry_args` are used when the entry block has no
  // label (pretty forms that declare arguments outside the braces).
  Status ParseRegion(Region* region, const std::vector<ArgDecl>* entry_args);
  // `(%a: T, ...)` of a block label or `reducer(...)`.
  Status ParseArgDecls(std::vector<ArgDecl>* args);

  // ---- values
  StatusOr<Value*> ParseOperand();
  // Comma-separated operands until a token that is not '%'.
  Status ParseOperandList(std::vector<Value*>* operands);
  Status DefineValues(std::string_view name, size_t pos, std::vector<Value*> values);
  void PushScope() { scopes_.emplace_back(); }
  void PopScope() { scopes_.pop_back(); }

  // ---- source locations (parser_locations.cc)
  // `loc(...)` if the text continues with it, else null.
  StatusOr<SourceLocationRef> ParseOptionalLoc();
  // What is inside `loc(...)`: `"f":1:2`, `"name"(...)`, `callsite(a at b)`,
  // `fused<meta>[...]`, `unknown`, `#alias`.
  StatusOr<SourceLocationRef> ParseLocationInstance();
  // A top-level `#name = loc(...)` (JAX writes them after the module).
  Status ParseLocationAliasDefinition();
  // Points every `#alias` use at its definition once the file is read;
  // undefined, cyclic and too deeply nested aliases are errors.
  Status ResolveLocationAliases();

  Lexer& lex() { return lex_; }

 private:
  friend class DepthGuard;
  Status ParseFunction(Module* module);
  // `@name` or `@"quoted name"` at the next token: the name; `what` names the
  // symbol in errors ("function", "mesh").
  StatusOr<std::string> ParseSymbolName(std::string_view what);
  Status ParseDenseBody(Attribute* out);
  StatusOr<Attribute> ParseHashAttribute();
  StatusOr<Attribute> ParseDenseArray();
  StatusOr<Attribute> ParseNumberAttribute();
  // Pretty-form helpers (parser_ops.cc).
  Status ParsePrettyDefault(Operation* op, size_t num_results, std::vector<Type>* result_types);
  Status ParsePrettyKeywordValue(Operation* op, std::string_view keyword, size_t pos);
  Status ParsePrettyReduce(Operation* op, size_t num_results, std::vector<Type>* result_types);
  Status ParsePrettyWhile(Operation* op, size_t num_results, std::vector<Type>* result_types);
  Status ParsePrettyScan(Operation* op, size_t num_results, std::vector<Type>* result_types);
  Status ParseConvWindow(Operation* op);
  Status FinishPrettyResults(Operation* op, size_t num_results, const std::vector<Type>& sig,
                             const std::vector<Type>& arrow_results, bool has_arrow,
                             std::vector<Type>* result_types, size_t pos);

  StatusOr<int> AliasHeight(const std::string& name, int level);
  StatusOr<int> LocationHeight(const SourceLocation& loc, int level, size_t pos);

  Lexer lex_;
  int depth_ = 0;
  // Location aliases: definitions by name (with their position), and the
  // alias nodes of every use, resolved after the whole file is read.
  struct AliasDefinition {
    SourceLocationRef location;
    size_t pos = 0;
    int height = -1;  // -1: not computed; -2: being computed (a cycle)
  };
  std::unordered_map<std::string, AliasDefinition> location_aliases_;
  std::vector<std::pair<std::shared_ptr<SourceLocation>, size_t>> alias_uses_;
  std::vector<std::unordered_map<std::string, std::vector<Value*>>> scopes_;
  // dense_resource uses, filled in at the end (the resource section follows
  // the module), and the blobs of the resource section by name.
  struct ResourceUse {
    std::string name;
    Type type;
    std::shared_ptr<DenseData> data;
    size_t pos = 0;
  };
  std::vector<ResourceUse> resource_uses_;
  std::unordered_map<std::string, std::string> resource_blobs_;
  // ml_program globals by name: their initial values.
  std::unordered_map<std::string, Attribute> ml_program_globals_;

 public:
  // How resources left out of the file are filled (default: refused).
  void set_elided_fill(const ElidedConstantFill& fill) { elided_fill_ = fill; }

 private:
  ElidedConstantFill elided_fill_;
};

// Counts nesting; Enter() fails past kMaxNesting.
class DepthGuard {
 public:
  explicit DepthGuard(Parser* parser) : parser_(parser) { ++parser_->depth_; }
  ~DepthGuard() { --parser_->depth_; }
  Status Check() {
    if (parser_->depth_ > kMaxNesting) {
      return parser_->lex_.ErrorAt(parser_->lex_.pos(), "nesting deeper than ", kMaxNesting,
                                   " levels");
    }
    return OkStatus();
  }

 private:
  Parser* parser_;
};

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` -> the "stablehlo.conv" struct
// (parser_attributes.cc).
StatusOr<Attribute> ParseConvDimensionNumbers(Lexer& lex);

// The StableHLO name of an mhlo attribute (`mhlo.comparison_direction` ->
// `stablehlo.comparison_direction`, `mhlo.conv` -> `stablehlo.conv`); other
// names unchanged (parser_mhlo.cc).
std::string MhloAttributeName(std::string_view name);
// Sets attribute `name` of `op`, replacing one of that name.
inline void SetAttr(Operation* op, std::string name, Attribute value) {
  for (auto& [existing, attr] : op->attributes) {
    if (existing == name) {
      attr = std::move(value);
      return;
    }
  }
  op->attributes.emplace_back(std::move(name), std::move(value));
}

// Whether `name` is an arith op read as a StableHLO op (parser_arith.cc).
bool IsTranslatedArithOp(std::string_view name);

}  // namespace plugrt::shlo::internal

#endif  // PLUGRT_COMPILER_IMPORTERS_MLIR_PARSER_IMPL_H_
