#include "autodiff/trace_device.h"

#include "autodiff/function_runner.h"
#include "eager/program_text.h"

namespace plugrt::autodiff {

namespace {

// A traced tensor: the name of the value holding it in the program written.
class TracedValue : public eager::CustomTensorData {
 public:
  TracedValue(std::string value, eager::TensorType type)
      : value_(std::move(value)), type_(std::move(type)) {}
  StatusOr<std::vector<int64_t>> Dims() const override { return type_.dims; }
  StatusOr<std::string> Summary() const override { return "traced " + value_; }
  const std::string& value() const { return value_; }

 private:
  std::string value_;
  eager::TensorType type_;
};

// "%v3#1" -> "%v3": the line that binds it.
std::string BaseName(const std::string& value) { return value.substr(0, value.find('#')); }

}  // namespace

StatusOr<eager::Tensor> TraceDevice::NewValue(eager::Context& context,
                                              const eager::TensorType& type, std::string value) {
  return context.NewCustomTensor(name_, type.type,
                                 std::make_unique<TracedValue>(std::move(value), type));
}

StatusOr<eager::Tensor> TraceDevice::Argument(eager::Context& context,
                                              const eager::TensorType& type, std::string value) {
  return NewValue(context, type, std::move(value));
}

StatusOr<std::string> TraceDevice::ValueOf(const eager::Tensor& tensor) const {
  const auto* traced = dynamic_cast<const TracedValue*>(tensor.custom_data());
  if (traced == nullptr || tensor.device_name() != name_) {
    return InvalidArgument("a tensor on ", tensor.device_name(), " is not one traced by ", name_);
  }
  return traced->value();
}

StatusOr<std::string> TraceDevice::Embed(const eager::Tensor& tensor) {
  if (tensor.is_custom()) {
    return InvalidArgument("a tensor of custom device ", tensor.device_name(),
                           " cannot be traced by ", name_);
  }
  PLUGRT_ASSIGN_OR_RETURN(eager::TensorType type, tensor.type());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::byte> data, tensor.ToHost());
  eager::AttrMap attrs;
  attrs.emplace("value", eager::DenseTensor{type, std::move(data)});
  const eager::OpDef* def = eager::FindOpDef("stablehlo.constant");
  if (def == nullptr) return Internal("the eager layer has no stablehlo.constant");
  const eager::OpCall call{"stablehlo.constant", attrs, {}};
  std::string value = NextName();
  std::vector<std::string> unused;
  PLUGRT_ASSIGN_OR_RETURN(std::string text, eager::BuildOpLine(*def, call, {}, value, {type},
                                                               unused));
  lines_.push_back(Line{value, {}, std::move(text)});
  return value;
}

StatusOr<eager::Tensor> TraceDevice::CopyToDevice(eager::Context& context,
                                                  const eager::Tensor& tensor) {
  PLUGRT_ASSIGN_OR_RETURN(eager::TensorType type, tensor.type());
  PLUGRT_ASSIGN_OR_RETURN(std::string value, Embed(tensor));
  return NewValue(context, type, std::move(value));
}

StatusOr<eager::Tensor> TraceDevice::CopyFromDevice(eager::Context&, const eager::Tensor& tensor,
                                                    const std::string&) {
  PLUGRT_ASSIGN_OR_RETURN(std::string value, ValueOf(tensor));
  return FailedPrecondition("traced value ", value, " of ", name_,
                            " has no data until the program written from the trace runs");
}

StatusOr<std::vector<eager::Tensor>> TraceDevice::Execute(eager::Context& context,
                                                          const eager::Op& op) {
  if (op.is_function()) {
    // Inlined: its body's ops are routed here one by one.
    std::vector<eager::Tensor> args(op.inputs().begin(), op.inputs().end());
    return internal::RunFunctionOpByOp(context, op.name(), args, name_);
  }
  const eager::OpDef* def = op.def();
  if (def == nullptr) {
    return Unimplemented(op.name(), " cannot be traced: the eager layer has no rule for it");
  }
  std::vector<std::vector<eager::TensorType>> types;
  std::vector<std::string> operands;
  for (const std::vector<eager::Tensor>& group : op.input_groups()) {
    types.emplace_back();
    for (const eager::Tensor& t : group) {
      PLUGRT_ASSIGN_OR_RETURN(eager::TensorType type, t.type());
      types.back().push_back(std::move(type));
      if (t.device_name() == name_) {
        PLUGRT_ASSIGN_OR_RETURN(std::string value, ValueOf(t));
        operands.push_back(std::move(value));
      } else {
        PLUGRT_ASSIGN_OR_RETURN(std::string value, Embed(t));
        operands.push_back(std::move(value));
      }
    }
  }
  const eager::OpCall call{op.name(), op.attrs(), std::move(types)};
  PLUGRT_ASSIGN_OR_RETURN(std::vector<eager::TensorType> results, def->result_types(call));
  if (results.empty()) return InvalidArgument(op.name(), ": the op has no results");
  const std::string value = NextName();
  std::vector<std::string> functions;
  PLUGRT_ASSIGN_OR_RETURN(std::string text,
                          eager::BuildOpLine(*def, call, operands, value, results, functions));
  functions_.insert(functions.begin(), functions.end());
  std::vector<std::string> read;
  for (const std::string& operand : operands) read.push_back(BaseName(operand));
  lines_.push_back(Line{value, std::move(read), std::move(text)});
  std::vector<eager::Tensor> outputs;
  for (size_t i = 0; i < results.size(); ++i) {
    std::string name = results.size() == 1 ? value : value + "#" + std::to_string(i);
    PLUGRT_ASSIGN_OR_RETURN(eager::Tensor t, NewValue(context, results[i], std::move(name)));
    outputs.push_back(std::move(t));
  }
  return outputs;
}

std::vector<std::string> TraceDevice::Body(const std::vector<std::string>& live) const {
  std::set<std::string> needed;
  for (const std::string& v : live) needed.insert(BaseName(v));
  std::vector<bool> keep(lines_.size(), false);
  for (size_t i = lines_.size(); i-- > 0;) {
    if (needed.count(lines_[i].value) == 0) continue;
    keep[i] = true;
    needed.insert(lines_[i].operands.begin(), lines_[i].operands.end());
  }
  std::vector<std::string> body;
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (keep[i]) body.push_back(lines_[i].text);
  }
  return body;
}

}  // namespace plugrt::autodiff
