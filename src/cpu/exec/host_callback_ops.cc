// plugrt CPU executor: stablehlo.send / stablehlo.recv to and from the host
// (is_host_transfer = true), through the run's HostChannels
// (ExecContext::host_channels; host_channels.h), by the op's channel_handle
// handle for the running device.
//
// Wire format: the op's tensors in operand (send) or result (recv) order,
// each dense, row-major, little-endian, concatenated. A send hands them over
// as one chunk; a recv asks for exactly that many bytes and waits (within the
// channel implementation's limit).
//
// Device-to-device send/recv (is_host_transfer false or absent) is not
// implemented and answers UNIMPLEMENTED.
#include <cstring>
#include <string>

#include "cpu/exec/host_channels.h"
#include "cpu/exec/program_compiler.h"

namespace plugrt::cpu {

StatusOr<std::unique_ptr<CompiledOp>> CompileHostTransferOp(const shlo::Operation& op,
                                                            CompileContext& context);

namespace {

// What OpError needs of an op, kept by value: compiled ops do not hold on to
// the IR.
struct OpName {
  explicit OpName(const shlo::Operation& op) : location(op.location.ToString()), name(op.name) {}
  std::string location;
  std::string name;
};

Status NamedError(const OpName& op, StatusCode code, const std::string& message) {
  return Status(code, StrCat(op.location, ": ", op.name, ": ", message));
}

StatusOr<int64_t> ChannelHandle(const shlo::Operation& op) {
  const shlo::Attribute* attr = op.attribute("channel_handle");
  if (attr == nullptr) {
    return OpError(op, StatusCode::kInvalidArgument,
                   "a host transfer needs a channel_handle naming its callback's channel");
  }
  const shlo::Attribute* handle =
      attr->kind == shlo::Attribute::Kind::kStruct ? attr->field("handle") : attr;
  if (handle == nullptr) {
    return OpError(op, StatusCode::kInvalidArgument, "channel_handle has no 'handle'");
  }
  StatusOr<int64_t> value = shlo::AttrToInt(*handle);
  if (!value.ok()) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("'channel_handle': ", value.status().message()));
  }
  return *value;
}

// Checks that `type` is a tensor the wire format can carry.
Status CheckTransferType(const shlo::Operation& op, const shlo::Type& type, const char* what) {
  if (!type.is_tensor()) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat(what, " ", type.ToString(), " is not a tensor"));
  }
  if (!type.has_static_shape()) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("host transfers of dynamically shaped ", what, " ", type.ToString(),
                          " are not implemented"));
  }
  const ElementType element = type.element_type();
  if (shlo::BitWidth(element) < 8 && !shlo::IsBoolean(element)) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("host transfers of sub-byte element types (", what, " ",
                          type.ToString(), ") are not implemented"));
  }
  return OkStatus();
}

// The run has no host channels at all (not a PJRT launch or harness run).
Status NoChannels(const OpName& op, const char* kind, int64_t channel,
                  const ExecContext& context) {
  return NamedError(op, StatusCode::kFailedPrecondition,
                    StrCat("no ", kind, " callback for channel ", channel, " on device ",
                           context.device_index, " (the Execute call gave no ", kind,
                           " callbacks for it)"));
}

class HostSendOp : public CompiledOp {
 public:
  HostSendOp(const shlo::Operation& op, int64_t channel, size_t num_tensors)
      : op_(op), channel_(channel), num_tensors_(num_tensors) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    if (context.host_channels == nullptr) return NoChannels(op_, "send", channel_, context);
    std::string bytes;
    for (size_t i = 0; i < num_tensors_; ++i) {
      if (operands[i].kind != RtValue::Kind::kTensor) {
        return NamedError(op_, StatusCode::kInternal, StrCat("operand ", i, " is not a tensor"));
      }
      const Tensor& t = operands[i].tensor;
      bytes.append(reinterpret_cast<const char*>(t.data()), t.byte_size());
    }
    Status status = context.host_channels->Send(context.device_index, channel_, bytes);
    if (!status.ok()) return NamedError(op_, status.code(), status.message());
    return std::vector<RtValue>{RtValue::Token()};
  }

 private:
  OpName op_;
  int64_t channel_;
  size_t num_tensors_;
};

class HostRecvOp : public CompiledOp {
 public:
  HostRecvOp(const shlo::Operation& op, int64_t channel, std::vector<shlo::Type> types)
      : op_(op), channel_(channel), types_(std::move(types)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    (void)operands;
    if (context.host_channels == nullptr) return NoChannels(op_, "recv", channel_, context);
    std::vector<Tensor> tensors;
    size_t total = 0;
    for (const shlo::Type& type : types_) {
      tensors.push_back(Tensor::Uninitialized(type.element_type(), type.dims()));
      total += tensors.back().byte_size();
    }
    std::string bytes(total, '\0');
    Status status = context.host_channels->Recv(context.device_index, channel_, bytes.data(), total);
    if (!status.ok()) return NamedError(op_, status.code(), status.message());
    std::vector<RtValue> results;
    size_t offset = 0;
    for (Tensor& t : tensors) {
      const size_t n = t.byte_size();
      if (n > 0) std::memcpy(t.MutableData(), bytes.data() + offset, n);
      offset += n;
      results.push_back(RtValue::Of(std::move(t)));
    }
    results.push_back(RtValue::Token());
    return results;
  }

 private:
  OpName op_;
  int64_t channel_;
  std::vector<shlo::Type> types_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledOp>> CompileHostTransferOp(const shlo::Operation& op,
                                                            CompileContext& context) {
  (void)context;
  const bool is_send = op.code == shlo::OpCode::kSend;
  if (!is_send && op.code != shlo::OpCode::kRecv) {
    return OpError(op, StatusCode::kUnimplemented,
                   "host transfers (infeed, outfeed) are not implemented yet");
  }
  bool host = false;
  if (const shlo::Attribute* attr = op.attribute("is_host_transfer")) {
    StatusOr<bool> value = shlo::AttrToBool(*attr);
    if (!value.ok()) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat("'is_host_transfer': ", value.status().message()));
    }
    host = *value;
  }
  if (!host) {
    return OpError(op, StatusCode::kUnimplemented,
                   "device-to-device send/recv (is_host_transfer false) is not implemented yet");
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t channel, ChannelHandle(op));

  if (is_send) {
    if (op.operands.empty() || !op.operands.back()->type.is_token()) {
      return OpError(op, StatusCode::kInvalidArgument, "the last operand must be a token");
    }
    const size_t n = op.operands.size() - 1;
    for (size_t i = 0; i < n; ++i) {
      PLUGRT_RETURN_IF_ERROR(CheckTransferType(op, op.operands[i]->type, "operand"));
    }
    return std::unique_ptr<CompiledOp>(new HostSendOp(op, channel, n));
  }
  if (op.results.empty() || !op.results.back()->type.is_token()) {
    return OpError(op, StatusCode::kInvalidArgument, "the last result must be a token");
  }
  std::vector<shlo::Type> types;
  for (size_t i = 0; i + 1 < op.results.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(CheckTransferType(op, op.results[i]->type, "result"));
    types.push_back(op.results[i]->type);
  }
  return std::unique_ptr<CompiledOp>(new HostRecvOp(op, channel, std::move(types)));
}

void RegisterHostTransferOps(OpRegistry& registry) {
  registry.Set(shlo::OpCode::kSend, &CompileHostTransferOp);
  registry.Set(shlo::OpCode::kRecv, &CompileHostTransferOp);
}

}  // namespace plugrt::cpu
