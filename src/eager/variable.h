// plugrt eager: Variable, a named, mutable slot holding a tensor (a model's
// weights), as TensorFlow's tf.Variable: Value() reads the tensor it holds
// now, Assign replaces it (same element type and dimensions) for every
// holder of the variable. Tensors stay immutable: an assignment makes the
// variable hold another tensor, and earlier reads keep theirs.
//
// A trainable variable's reads are reported to this thread's variable
// observers; a gradient tape is one and watches what it is told of
// (autodiff/tape.h: "every trainable variable" is watched as it is read).
#ifndef PLUGRT_EAGER_VARIABLE_H_
#define PLUGRT_EAGER_VARIABLE_H_

#include <memory>
#include <mutex>
#include <string>

#include "common/status.h"
#include "eager/tensor.h"

namespace plugrt::eager {

class Variable;

class VariableObserver {
 public:
  virtual ~VariableObserver() = default;
  // A trainable `variable` was read on this thread and gave `value`.
  virtual void OnVariableRead(const Variable& variable, const Tensor& value) = 0;
};
// Adds `observer` to this thread's variable observers; removes it.
void AddThreadVariableObserver(VariableObserver* observer);
void RemoveThreadVariableObserver(VariableObserver* observer);

// Copies share the variable (one slot); thread-safe.
class Variable {
 public:
  // INVALID_ARGUMENT for an empty name or handle. The value's type is the
  // variable's for good.
  static StatusOr<Variable> Create(std::string name, Tensor initial, bool trainable = true);

  const std::string& name() const { return state_->name; }
  bool trainable() const { return state_->trainable; }
  // The tensor held now (reported to the thread's observers if trainable).
  Tensor Value() const;
  // Holds `value` from now on; INVALID_ARGUMENT naming the variable if its
  // element type or dimensions differ from the variable's.
  Status Assign(const Tensor& value);
  // Whether two handles are the same variable.
  bool SameAs(const Variable& other) const { return state_ == other.state_; }

 private:
  struct State {
    std::string name;
    bool trainable;
    TensorType type;
    mutable std::mutex mu;
    Tensor value;  // guarded by mu
  };
  explicit Variable(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_VARIABLE_H_
