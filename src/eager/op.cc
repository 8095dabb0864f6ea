#include "eager/op.h"

#include "eager/context.h"

namespace plugrt::eager {

namespace {

// A function's arguments: one list.
constexpr InputArg kFunctionArgs[] = {{"args", true}};

std::string NamesOf(std::span<const InputArg> args) {
  std::string names;
  for (const InputArg& a : args) names += (names.empty() ? "'" : ", '") + std::string(a.name) + "'";
  return names.empty() ? "none" : names;
}

}  // namespace

Op::Op(Context& context, std::string name) : context_(&context), name_(std::move(name)) {
  if (name_.starts_with("stablehlo.") || name_ == kDeviceIdOp) {
    def_ = FindOpDef(name_);
    if (def_ == nullptr) {
      std::string known;
      for (std::string_view n : OpDefNames()) known += (known.empty() ? "" : ", ") + std::string(n);
      lookup_ = Unimplemented("the eager layer has no rule for ", name_, "; it runs: ", known);
      return;
    }
    inputs_.reserve(def_->inputs.size());
    return;
  }
  StatusOr<FunctionSignature> signature = context.functions().Signature(name_);
  if (signature.ok()) {
    function_ = std::move(signature).value();
    groups_ = 1;  // the arguments, one list
  } else {
    lookup_ = NotFound("'", name_, "' is neither a stablehlo.* op nor a function loaded into the "
                       "context (Context::LoadFunctions)");
  }
}

StatusOr<std::span<const InputArg>> Op::InputArgs() const {
  PLUGRT_RETURN_IF_ERROR(lookup_);
  if (function_) return std::span<const InputArg>(kFunctionArgs);
  return std::span<const InputArg>(def_->inputs);
}

std::optional<int64_t> Op::ListLength() const {
  if (function_) return static_cast<int64_t>(function_->argument_types.size());
  auto it = attrs_.find(kListLengthAttr);
  if (it != attrs_.end()) {
    if (const int64_t* n = std::get_if<int64_t>(&it->second)) return *n;
  }
  return std::nullopt;
}

Status Op::SetAttr(std::string_view name, AttrValue value) {
  PLUGRT_RETURN_IF_ERROR(lookup_);
  if (function_) {
    return InvalidArgument("function @", name_, " takes no attributes; got '", name, "'");
  }
  if (name == kListLengthAttr) {
    const int64_t* n = std::get_if<int64_t>(&value);
    if (n == nullptr || *n < 0) {
      return InvalidArgument(name_, ": attribute N (the length of its lists) must be a "
                             "non-negative int, got ", AttrKindName(value), " ",
                             AttrValueSummary(value));
    }
    for (size_t i = 0; i < groups_; ++i) {
      if (def_->inputs[i].list && static_cast<int64_t>(input_group_size(i)) != *n) {
        return InvalidArgument(name_, ": input list '", def_->inputs[i].name, "' has ",
                               input_group_size(i), " tensors; N = ", *n, " disagrees");
      }
    }
  }
  attrs_.insert_or_assign(std::string(name), std::move(value));
  return OkStatus();
}

Status Op::AddInput(const Tensor& tensor) {
  PLUGRT_ASSIGN_OR_RETURN(std::span<const InputArg> args, InputArgs());
  if (!tensor) return InvalidArgument(name_, ": input ", groups_, " is an empty handle");
  if (function_) {
    if (inputs_.size() >= function_->argument_types.size()) {
      return InvalidArgument("function @", name_, " takes ", function_->argument_types.size(),
                             " arguments (list 'args'); got one more");
    }
    inputs_.push_back(tensor);
    return OkStatus();
  }
  if (groups_ >= args.size()) {
    return InvalidArgument(name_, " takes ", args.size(), " inputs (", NamesOf(args),
                           "); got one more");
  }
  if (args[groups_].list) {
    return InvalidArgument(name_, ": input '", args[groups_].name,
                           "' is a list; add it with AddInputList");
  }
  inputs_.push_back(tensor);
  ++groups_;
  return OkStatus();
}

Status Op::AddInputList(const std::vector<Tensor>& tensors) {
  PLUGRT_ASSIGN_OR_RETURN(std::span<const InputArg> args, InputArgs());
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i]) return InvalidArgument(name_, ": list element ", i, " is an empty handle");
  }
  if (function_) {
    const size_t total = inputs_.size() + tensors.size();
    if (total > function_->argument_types.size()) {
      return InvalidArgument("function @", name_, " takes ", function_->argument_types.size(),
                             " arguments (list 'args'); got ", total);
    }
    inputs_.insert(inputs_.end(), tensors.begin(), tensors.end());
    return OkStatus();
  }
  if (groups_ >= args.size()) {
    return InvalidArgument(name_, " takes ", args.size(), " inputs (", NamesOf(args),
                           "); got one more");
  }
  const InputArg& arg = args[groups_];
  if (!arg.list) {
    return InvalidArgument(name_, ": input '", arg.name, "' is a single tensor; add it with "
                           "AddInput");
  }
  std::optional<int64_t> n = ListLength();
  if (n && *n != static_cast<int64_t>(tensors.size())) {
    return InvalidArgument(name_, ": input list '", arg.name, "' has ", tensors.size(),
                           " tensors but N = ", *n);
  }
  if (!n) attrs_.insert_or_assign(std::string(kListLengthAttr), static_cast<int64_t>(tensors.size()));
  inputs_.insert(inputs_.end(), tensors.begin(), tensors.end());
  ++groups_;
  return OkStatus();
}

size_t Op::input_group_size(size_t group) const {
  if (function_) return inputs_.size();
  if (!def_->inputs[group].list) return 1;
  // Every list added has length N (AddInputList sets or checks it).
  return static_cast<size_t>(ListLength().value_or(0));
}

std::vector<std::vector<Tensor>> Op::input_groups() const {
  std::vector<std::vector<Tensor>> groups(groups_);
  size_t next = 0;
  for (size_t g = 0; g < groups_; ++g) {
    const size_t size = input_group_size(g);
    groups[g].assign(inputs_.begin() + static_cast<std::ptrdiff_t>(next),
                     inputs_.begin() + static_cast<std::ptrdiff_t>(next + size));
    next += size;
  }
  return groups;
}

StatusOr<int64_t> Op::InputLength(std::string_view list) const {
  PLUGRT_ASSIGN_OR_RETURN(std::span<const InputArg> args, InputArgs());
  for (const InputArg& arg : args) {
    if (arg.name != list) continue;
    if (!arg.list) return 1;
    if (std::optional<int64_t> n = ListLength()) return *n;
    return FailedPrecondition(name_, ": the length of input list '", list, "' is not fixed yet "
                              "(set attribute N or add the list)");
  }
  return NotFound(name_, " has no input named '", list, "'; its inputs: ", NamesOf(args));
}

StatusOr<int64_t> Op::OutputLength(std::string_view list) const {
  PLUGRT_RETURN_IF_ERROR(lookup_);
  if (function_) {
    if (list != "results") {
      return NotFound("function @", name_, " has one output list, 'results'; not '", list, "'");
    }
    return static_cast<int64_t>(function_->result_types.size());
  }
  if (list != def_->output_name) {
    return NotFound(name_, " has no output named '", list, "'; its output: '", def_->output_name,
                    "'");
  }
  if (!def_->output_list) return 1;
  if (std::optional<int64_t> n = ListLength()) return *n;
  return FailedPrecondition(name_, ": the length of output list '", list, "' is not fixed yet "
                            "(set attribute N or add the input list)");
}

StatusOr<int64_t> Op::NumOutputs() const {
  PLUGRT_RETURN_IF_ERROR(lookup_);
  if (def_ != nullptr && !def_->output_list) return 1;  // most ops: no list to look up
  return OutputLength(function_ ? std::string_view("results") : def_->output_name);
}

StatusOr<std::vector<Tensor>> Op::Execute() {
  PLUGRT_ASSIGN_OR_RETURN(std::span<const InputArg> args, InputArgs());
  if (function_) {
    if (inputs_.size() != function_->argument_types.size()) {
      return InvalidArgument("function @", name_, " takes ", function_->argument_types.size(),
                             " arguments (list 'args'); got ", inputs_.size());
    }
  } else if (groups_ < args.size()) {
    return InvalidArgument(name_, ": input '", args[groups_].name, "' is missing (",
                           name_, " takes ", NamesOf(args), ")");
  }
  return context_->Execute(*this);
}

Op Op::Fresh() const {
  Op op = *this;
  op.inputs_.clear();
  op.groups_ = function_ ? 1 : 0;
  op.device_.reset();
  return op;
}

StatusOr<Op> Op::Rebound(std::vector<std::vector<Tensor>> inputs,
                         std::optional<std::string> device) const {
  if (inputs.size() != groups_) {
    return InvalidArgument(name_, ": rebound with ", inputs.size(), " input groups; it has ",
                           groups_);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].size() != input_group_size(i)) {
      return InvalidArgument(name_, ": rebound input group ", i, " has ", inputs[i].size(),
                             " tensors; it has ", input_group_size(i));
    }
    for (const Tensor& t : inputs[i]) {
      if (!t) return InvalidArgument(name_, ": rebound input group ", i, " has an empty handle");
    }
  }
  Op op = *this;
  op.inputs_.clear();
  for (std::vector<Tensor>& group : inputs) {
    op.inputs_.insert(op.inputs_.end(), std::make_move_iterator(group.begin()),
                      std::make_move_iterator(group.end()));
  }
  op.device_ = std::move(device);
  return op;
}

}  // namespace plugrt::eager
