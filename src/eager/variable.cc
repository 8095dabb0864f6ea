#include "eager/variable.h"

#include <algorithm>
#include <vector>

namespace plugrt::eager {

namespace {

std::vector<VariableObserver*>& ThreadVariableObservers() {
  thread_local std::vector<VariableObserver*> observers;
  return observers;
}

}  // namespace

void AddThreadVariableObserver(VariableObserver* observer) {
  ThreadVariableObservers().push_back(observer);
}

void RemoveThreadVariableObserver(VariableObserver* observer) {
  std::vector<VariableObserver*>& observers = ThreadVariableObservers();
  observers.erase(std::remove(observers.begin(), observers.end(), observer), observers.end());
}

StatusOr<Variable> Variable::Create(std::string name, Tensor initial, bool trainable) {
  if (name.empty()) return InvalidArgument("a variable needs a name");
  if (!initial) return InvalidArgument("variable '", name, "': no initial tensor");
  PLUGRT_ASSIGN_OR_RETURN(TensorType type, initial.type());
  auto state = std::make_shared<State>();
  state->name = std::move(name);
  state->trainable = trainable;
  state->type = std::move(type);
  state->value = std::move(initial);
  return Variable(std::move(state));
}

Tensor Variable::Value() const {
  Tensor value;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    value = state_->value;
  }
  if (state_->trainable) {
    // A copy: an observer may remove itself (a tape ending) while told.
    const std::vector<VariableObserver*> observers = ThreadVariableObservers();
    for (VariableObserver* o : observers) o->OnVariableRead(*this, value);
  }
  return value;
}

Status Variable::Assign(const Tensor& value) {
  if (!value) return InvalidArgument("variable '", name(), "': assigned an empty handle");
  PLUGRT_ASSIGN_OR_RETURN(TensorType type, value.type());
  if (type != state_->type) {
    return InvalidArgument("variable '", name(), "' holds ", ShortTypeText(state_->type),
                           "; assigned ", ShortTypeText(type));
  }
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->value = value;
  return OkStatus();
}

}  // namespace plugrt::eager
