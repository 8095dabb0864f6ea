// plugrt eager: Op, one operation to run eagerly: a StableHLO op by name
// ("stablehlo.add") or a function loaded into the context by its name,
// with typed attributes, single and list inputs, and an optional device.
//
//   Op add(ctx, "stablehlo.add");
//   add.AddInput(a); add.AddInput(b);
//   StatusOr<std::vector<Tensor>> sum = add.Execute();
#ifndef PLUGRT_EAGER_OP_H_
#define PLUGRT_EAGER_OP_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "eager/attribute.h"
#include "eager/function_library.h"
#include "eager/op_def.h"
#include "eager/tensor.h"

namespace plugrt::eager {

class Context;

class Op {
 public:
  // An unknown name is reported by the first call that needs the op's
  // signature (AddInput, the length queries, Execute).
  Op(Context& context, std::string name);

  const std::string& name() const { return name_; }
  bool is_function() const { return function_.has_value(); }

  // A device name from Context::devices() ("cpu:1") or a custom device's
  // (custom_device.h); checked at Execute.
  void SetDevice(std::string device) { device_ = std::move(device); }
  const std::optional<std::string>& device() const { return device_; }

  Status SetAttr(std::string_view name, AttrValue value);
  const AttrMap& attrs() const { return attrs_; }

  // Fills the next input: a single input takes one tensor, a list input a
  // list (a function's arguments form one list, "args", that AddInput also
  // extends). A list whose length disagrees with attribute N is an error
  // naming the list.
  Status AddInput(const Tensor& tensor);
  Status AddInputList(const std::vector<Tensor>& tensors);

  // The length of an input or output list (1 for a single one), once the
  // attributes (N, or a function's signature) or an added list fix it;
  // FAILED_PRECONDITION before, NOT_FOUND for a name the op does not have.
  StatusOr<int64_t> InputLength(std::string_view list) const;
  StatusOr<int64_t> OutputLength(std::string_view list) const;
  // The number of results Execute returns.
  StatusOr<int64_t> NumOutputs() const;

  // Runs (or, under the async executor, enqueues) the op; its outputs.
  StatusOr<std::vector<Tensor>> Execute();

  // This op (name, attributes) with other inputs, grouped as
  // input_groups() is (same group sizes), on `device`: how a custom device
  // runs an op it was given somewhere else.
  StatusOr<Op> Rebound(std::vector<std::vector<Tensor>> inputs,
                       std::optional<std::string> device) const;
  // This op's name and attributes, without inputs or device.
  Op Fresh() const;
  Context& context() const { return *context_; }

  // The inputs added so far, in order, flat (the per-op path reads these).
  std::span<const Tensor> inputs() const { return inputs_; }
  // How they group per input of the op's definition (a function's
  // arguments: one group): the number of groups added and each one's size
  // (1 for a single input, N for a list).
  size_t num_input_groups() const { return groups_; }
  size_t input_group_size(size_t group) const;
  // The inputs grouped, as a copy.
  std::vector<std::vector<Tensor>> input_groups() const;
  const OpDef* def() const { return def_; }
  const std::optional<FunctionSignature>& function() const { return function_; }

 private:
  Status Resolve() const;
  std::optional<int64_t> ListLength() const;
  // The definition's inputs (a function: one list, "args"); a view, so
  // that the per-op calls copy nothing.
  StatusOr<std::span<const InputArg>> InputArgs() const;

  Context* context_;
  std::string name_;
  const OpDef* def_ = nullptr;
  std::optional<FunctionSignature> function_;
  Status lookup_;
  std::optional<std::string> device_;
  AttrMap attrs_;
  // Flat: one allocation per op however many inputs (groups_ and the
  // definition say where each group starts).
  std::vector<Tensor> inputs_;
  size_t groups_ = 0;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_OP_H_
