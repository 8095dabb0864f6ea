#include "compiler/passes/lower_sharding.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/passes/ir_rewrite.h"

namespace plugrt::shlo {
namespace {

using AxisSizes = std::unordered_map<std::string, int64_t>;
using Meshes = std::unordered_map<std::string, AxisSizes>;

std::string_view TrimView(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

int64_t LeadingInt(std::string_view s, size_t* used = nullptr) {
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (used != nullptr) *used = ec == std::errc() ? static_cast<size_t>(ptr - s.data()) : 0;
  return ec == std::errc() ? value : 0;
}

// `["x"=2, "y"=4], device_ids=[...]` -> {x: 2, y: 4}.
AxisSizes ParseMeshAxes(std::string_view text) {
  AxisSizes axes;
  size_t pos = 0;
  while ((pos = text.find('"', pos)) != std::string_view::npos) {
    size_t end = text.find('"', pos + 1);
    if (end == std::string_view::npos) break;
    std::string name(text.substr(pos + 1, end - pos - 1));
    size_t eq = end + 1;
    if (eq < text.size() && text[eq] == '=') axes[name] = LeadingInt(text.substr(eq + 1));
    pos = end + 1;
  }
  return axes;
}

// The text from `open` (a '<', '[' or '{') to its matching close, inclusive.
std::string_view Group(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      i = text.find('"', i + 1);
      if (i == std::string_view::npos) break;
      continue;
    }
    if (c == '<' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ']' || c == '}') {
      if (--depth == 0) return text.substr(open, i - open + 1);
    }
  }
  return text.substr(open);
}

class ShardingChecker {
 public:
  ShardingChecker(const Meshes& meshes, int64_t num_partitions)
      : meshes_(meshes), num_partitions_(num_partitions) {}

  // One TensorShardingAttr's text: `@mesh, [{"x"}, {}], replicated={"y"}`
  // or `mesh<["x"=2]>, [...]`. True when some axis of size > 1 splits it.
  StatusOr<bool> SdySplits(std::string_view text) const {
    text = TrimView(text);
    AxisSizes inline_axes;
    const AxisSizes* axes = nullptr;
    size_t rest = 0;
    if (!text.empty() && text[0] == '@') {
      size_t end = text.find_first_of(", >");
      std::string name(text.substr(1, end == std::string_view::npos ? end : end - 1));
      if (!name.empty() && name.front() == '"') name = name.substr(1, name.size() - 2);
      auto it = meshes_.find(name);
      if (it == meshes_.end()) return InvalidArgument("unknown mesh @", name);
      axes = &it->second;
      rest = end == std::string_view::npos ? text.size() : end;
    } else if (text.rfind("mesh<", 0) == 0) {
      std::string_view mesh = Group(text, 4);
      inline_axes = ParseMeshAxes(mesh);
      axes = &inline_axes;
      rest = 4 + mesh.size();
    } else {
      return InvalidArgument("cannot read the sharding <", text, ">");
    }
    std::string remainder(text.substr(rest));
    // Axes the value is replicated over do not split it.
    size_t replicated = remainder.find("replicated=");
    if (replicated != std::string::npos && remainder.find('{', replicated) != std::string::npos) {
      size_t open = remainder.find('{', replicated);
      remainder.erase(replicated, open - replicated + Group(remainder, open).size());
    }
    size_t pos = 0;
    while ((pos = remainder.find('"', pos)) != std::string::npos) {
      size_t end = remainder.find('"', pos + 1);
      if (end == std::string::npos) break;
      std::string axis = remainder.substr(pos + 1, end - pos - 1);
      int64_t size = 0;
      if (end + 2 < remainder.size() && remainder[end + 1] == ':' && remainder[end + 2] == '(') {
        // A sub-axis "x":(pre)size.
        size_t close = remainder.find(')', end);
        if (close != std::string::npos) size = LeadingInt(std::string_view(remainder).substr(close + 1));
      } else {
        auto it = axes->find(axis);
        if (it == axes->end()) return InvalidArgument("the mesh has no axis \"", axis, "\"");
        size = it->second;
      }
      if (size > 1) return true;
      pos = end + 1;
    }
    return false;
  }

  // An "sdy.sharding" (one value) or "sdy.sharding_per_value" ([<...>, ...]).
  StatusOr<bool> AttrSplits(const Attribute& attr) const {
    if (attr.kind == Attribute::Kind::kArray) {
      for (const Attribute& element : attr.elements) {
        PLUGRT_ASSIGN_OR_RETURN(bool split, AttrSplits(element));
        if (split) return true;
      }
      return false;
    }
    if (attr.kind == Attribute::Kind::kString) {
      return ClassifyHloSharding(attr.str) == HloShardingKind::kSplit;
    }
    if (attr.kind != Attribute::Kind::kEnum) return false;
    std::string_view text = TrimView(attr.enum_value);
    if (!text.empty() && text.front() == '[') {
      text = TrimView(text.substr(1, text.size() >= 2 ? text.size() - 2 : 0));
      for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '<') continue;
        std::string_view group = Group(text, i);
        PLUGRT_ASSIGN_OR_RETURN(bool split, SdySplits(group.substr(1, group.size() - 2)));
        if (split) return true;
        i += group.size() - 1;
      }
      return false;
    }
    return SdySplits(text);
  }

  // Fails when `attrs` holds a sharding that splits its value over several
  // partitions; `where` names the holder for the message.
  Status Check(const std::vector<NamedAttribute>& attrs, const std::string& where) const {
    for (const auto& [name, value] : attrs) {
      const bool sdy = name == "sdy.sharding" || name == "sharding" || name == "in_shardings" ||
                       name == "out_shardings";
      if (!sdy && name != "mhlo.sharding") continue;
      StatusOr<bool> split = AttrSplits(value);
      if (!split.ok()) return InvalidArgument(where, ": ", name, ": ", split.status().message());
      if (*split && num_partitions_ > 1) {
        return Unimplemented(where, ": ", name, " = ", value.ToString(), " splits the value over ",
                             num_partitions_,
                             " partitions; the CPU backend runs the whole program on each "
                             "partition and has no SPMD partitioner to place shards");
      }
    }
    return OkStatus();
  }

 private:
  const Meshes& meshes_;
  int64_t num_partitions_;
};

// Custom calls that only annotate their one operand: GSPMD's sharding calls,
// memory placement, and the calls by which Shardy's round-trip form (what
// XLA and JAX write when sdy ops must travel as StableHLO) marks results
// and manual-computation bounds.
bool IsIdentityTarget(std::string_view target) {
  return target == "Sharding" || target == "SPMDFullToShardShape" ||
         target == "SPMDShardToFullShape" || target == "annotate_device_placement" ||
         target == "MoveToHost" || target == "MoveToDevice" ||
         target == "xla.sdy.FuncResultSharding" || target == "xla.sdy.GlobalToLocalShape" ||
         target == "xla.sdy.LocalToGlobalShape";
}

using passes::Where;

class ShardingLowering {
 public:
  explicit ShardingLowering(const ShardingChecker& checker) : checker_(checker) {}

  Status ProcessBlock(shlo::Block& block) {
    std::vector<std::unique_ptr<Operation>> kept;
    for (std::unique_ptr<Operation>& owned : block.operations) {
      Operation& op = *owned;
      for (const auto& region : op.regions) {
        for (const auto& inner : region->blocks) PLUGRT_RETURN_IF_ERROR(ProcessBlock(*inner));
      }
      PLUGRT_RETURN_IF_ERROR(checker_.Check(op.attributes, Where(op)));
      const std::string& name = op.name;
      const Attribute* target = op.attribute("call_target_name");
      const bool identity_call = op.code == OpCode::kCustomCall && target != nullptr &&
                                 target->kind == Attribute::Kind::kString &&
                                 IsIdentityTarget(target->str);
      if (identity_call || name == "sdy.sharding_constraint" || name == "sdy.reshard" ||
          name == "sdy.propagation_barrier" || name == "sdy.data_flow_edge") {
        if (op.operands.size() != 1 || op.results.size() != 1) {
          return InvalidArgument(Where(op), ": takes one operand and gives one result");
        }
        if (op.operands[0]->type != op.results[0]->type) {
          return Unimplemented(Where(op), ": turns ", op.operands[0]->type.ToString(), " into ",
                               op.results[0]->type.ToString(),
                               " (a per-device shard of a partitioned value); the CPU backend "
                               "has no SPMD partitioner");
        }
        replace_[op.results[0].get()] = op.operands[0];
        dropped_.push_back(std::move(owned));
        continue;
      }
      const bool sharding_group_call = op.code == OpCode::kCustomCall && target != nullptr &&
                                       target->kind == Attribute::Kind::kString &&
                                       target->str == "xla.sdy.ShardingGroup";
      if (name == "sdy.sharding_group" || sharding_group_call) {
        if (!op.results.empty()) {
          return InvalidArgument(Where(op), ": a sharding group gives no results");
        }
        dropped_.push_back(std::move(owned));
        continue;
      }
      if (name == "sdy.constant") {
        op.name = "stablehlo.constant";
        op.code = LookupOpCode(op.name);
        kept.push_back(std::move(owned));
        continue;
      }
      if (name == "sdy.manual_computation" || name == "sdy.named_computation") {
        PLUGRT_RETURN_IF_ERROR(Inline(op, block, kept));
        dropped_.push_back(std::move(owned));
        continue;
      }
      if (name.rfind("sdy.", 0) == 0 && name != "sdy.return") {
        return Unimplemented(Where(op), ": Shardy's collectives and other sdy ops are not "
                                        "supported; the CPU backend has no SPMD partitioner");
      }
      kept.push_back(std::move(owned));
    }
    block.operations = std::move(kept);
    return OkStatus();
  }

  // Reads every operand through the replacements (chains followed).
  void Apply(Region& region) {
    for (const auto& block : region.blocks) {
      for (const auto& op : block->operations) {
        for (Value*& operand : op->operands) {
          for (auto it = replace_.find(operand); it != replace_.end(); it = replace_.find(operand)) {
            operand = it->second;
          }
        }
        for (const auto& inner : op->regions) Apply(*inner);
      }
    }
  }

 private:
  // The body runs on the operands themselves: on one device (or replicated)
  // a shard is the whole value, which the body's argument types must show.
  Status Inline(Operation& op, shlo::Block& block, std::vector<std::unique_ptr<Operation>>& kept) {
    if (op.regions.size() != 1 || op.regions[0]->blocks.size() != 1) {
      return InvalidArgument(Where(op), ": needs one region of one block");
    }
    shlo::Block& body = op.regions[0]->front();
    if (body.arguments.size() != op.operands.size()) {
      return InvalidArgument(Where(op), ": the body takes ", body.arguments.size(),
                             " arguments for ", op.operands.size(), " operands");
    }
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (body.arguments[i]->type != op.operands[i]->type) {
        return Unimplemented(Where(op), ": the body works on per-device shards (",
                             body.arguments[i]->type.ToString(), " of ",
                             op.operands[i]->type.ToString(),
                             "); the CPU backend has no SPMD partitioner to split values");
      }
      replace_[body.arguments[i].get()] = op.operands[i];
    }
    if (body.operations.empty() || body.operations.back()->name != "sdy.return") {
      return InvalidArgument(Where(op), ": the body must end in sdy.return");
    }
    Operation& ret = *body.operations.back();
    if (ret.operands.size() != op.results.size()) {
      return InvalidArgument(Where(op), ": sdy.return gives ", ret.operands.size(),
                             " values for ", op.results.size(), " results");
    }
    for (size_t i = 0; i < op.results.size(); ++i) {
      if (ret.operands[i]->type != op.results[i]->type) {
        return Unimplemented(Where(op), ": the body returns per-device shards (",
                             ret.operands[i]->type.ToString(), " of ",
                             op.results[i]->type.ToString(), ")");
      }
      replace_[op.results[i].get()] = ret.operands[i];
    }
    for (size_t i = 0; i + 1 < body.operations.size(); ++i) {
      body.operations[i]->parent = &block;
      kept.push_back(std::move(body.operations[i]));
    }
    return OkStatus();
  }

  const ShardingChecker& checker_;
  std::unordered_map<const Value*, Value*> replace_;
  // Removed ops stay alive until the replacements are applied, so no value
  // address is reused while the map still names it.
  std::vector<std::unique_ptr<Operation>> dropped_;
};

// `mhlo.layout_mode`: "default" and "auto" let plugrt choose (row-major);
// an explicit layout "{1,0}" must be the row-major one.
Status CheckLayoutMode(const std::vector<NamedAttribute>& attrs, const Type& type,
                       const std::string& where) {
  const Attribute* mode = FindAttribute(attrs, "mhlo.layout_mode");
  if (mode == nullptr || mode->kind != Attribute::Kind::kString) return OkStatus();
  std::string_view text = TrimView(mode->str);
  if (text == "default" || text == "auto") return OkStatus();
  std::string expected = "{";
  for (int64_t d = type.is_tensor() ? type.rank() - 1 : -1; d >= 0; --d) {
    expected += std::to_string(d);
    if (d > 0) expected += ",";
  }
  expected += "}";
  std::string compact;
  for (char c : text) {
    if (c != ' ') compact += c;
  }
  if (compact == expected) return OkStatus();
  return Unimplemented(where, ": mhlo.layout_mode \"", mode->str, "\": the CPU backend keeps ",
                       type.ToString(), " row-major (", expected, ")");
}

}  // namespace

HloShardingKind ClassifyHloSharding(std::string_view text) {
  text = TrimView(text);
  // Every `devices=[d0,d1,...]` tile assignment: the value is split when the
  // tiles over its dimensions (not the trailing replication ones) exceed 1.
  size_t pos = 0;
  while ((pos = text.find("devices=[", pos)) != std::string_view::npos) {
    pos += 9;
    std::vector<int64_t> dims;
    while (pos < text.size() && text[pos] != ']') {
      size_t used = 0;
      dims.push_back(LeadingInt(text.substr(pos), &used));
      pos += used;
      if (pos < text.size() && text[pos] == ',') ++pos;
      if (used == 0 && pos < text.size() && text[pos] != ']') ++pos;
    }
    // The rest of this element (up to the next element of a tuple sharding).
    size_t end = text.find("devices=[", pos);
    std::string_view tail = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    size_t replicated_dims = 0;
    if (tail.find("last_tile_dim_replicate") != std::string_view::npos) {
      replicated_dims = 1;
    } else if (size_t k = tail.find("last_tile_dims={"); k != std::string_view::npos) {
      std::string_view list = tail.substr(k + 16, tail.find('}', k) - (k + 16));
      replicated_dims = list.empty() ? 0 : static_cast<size_t>(std::count(list.begin(), list.end(), ',') + 1);
    }
    int64_t tiles = 1;
    for (size_t i = 0; i + replicated_dims < dims.size(); ++i) tiles *= dims[i];
    if (tiles > 1) return HloShardingKind::kSplit;
  }
  // One device holds a maximal value; the others have none.
  if (text.find("maximal") != std::string_view::npos) return HloShardingKind::kSplit;
  if (text.find("manual") != std::string_view::npos) return HloShardingKind::kManual;
  return HloShardingKind::kReplicated;
}

Status LowerShardingOps(Module& module, int64_t num_partitions) {
  Meshes meshes;
  for (const auto& [name, mesh] : module.meshes) meshes[name] = ParseMeshAxes(mesh.enum_value);
  ShardingChecker checker(meshes, num_partitions);
  const Function* entry = module.EntryFunction();
  for (const auto& function : module.functions) {
    const std::string where = StrCat(function->location.ToString(), ": @", function->name);
    for (size_t i = 0; i < function->arg_attributes.size(); ++i) {
      const std::string arg = StrCat(where, " argument ", i);
      PLUGRT_RETURN_IF_ERROR(checker.Check(function->arg_attributes[i], arg));
      if (function.get() == entry && i < function->input_types.size()) {
        PLUGRT_RETURN_IF_ERROR(
            CheckLayoutMode(function->arg_attributes[i], function->input_types[i], arg));
      }
    }
    for (size_t i = 0; i < function->result_attributes.size(); ++i) {
      const std::string result = StrCat(where, " result ", i);
      PLUGRT_RETURN_IF_ERROR(checker.Check(function->result_attributes[i], result));
      if (function.get() == entry && i < function->result_types.size()) {
        PLUGRT_RETURN_IF_ERROR(
            CheckLayoutMode(function->result_attributes[i], function->result_types[i], result));
      }
    }
    if (!function->body) continue;
    ShardingLowering lowering(checker);
    for (const auto& block : function->body->blocks) PLUGRT_RETURN_IF_ERROR(lowering.ProcessBlock(*block));
    lowering.Apply(*function->body);
  }
  module.meshes.clear();
  return OkStatus();
}

}  // namespace plugrt::shlo
