// plugrt CPU executor: stablehlo.send / stablehlo.recv to and from the host
// (is_host_transfer = true), served by the host callbacks of the launch's
// execute options (sdk::ExecuteOptions::send_callbacks / recv_callbacks),
// looked up by the op's channel_handle handle for the running device.
//
// Wire format: the op's tensors in operand (send) or result (recv) order,
// each dense, row-major, little-endian, concatenated. A send hands them to
// its callback as one chunk (done = true). A recv makes a stream expecting
// exactly that many bytes, calls its callback and waits for the bytes; a
// host that never delivers them would block the run, so the wait ends after
// PLUGRT_HOST_RECV_TIMEOUT_MS milliseconds (default 300000) with
// DEADLINE_EXCEEDED.
//
// Device-to-device send/recv (is_host_transfer false or absent) is not
// implemented and answers UNIMPLEMENTED.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cpu/exec/interpreter.h"
#include "sdk/executable.h"

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

constexpr int64_t kDefaultRecvTimeoutMs = 300000;

std::chrono::milliseconds RecvTimeout() {
  const char* text = std::getenv("PLUGRT_HOST_RECV_TIMEOUT_MS");
  if (text != nullptr) {
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (end != text && *end == '\0' && value > 0) return std::chrono::milliseconds(value);
  }
  return std::chrono::milliseconds(kDefaultRecvTimeoutMs);
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

// "the Execute call gave no send callbacks" / "... none for channel 3 ...".
Status NoCallback(const OpName& op, const char* kind, int64_t channel,
                  const ExecContext& context, bool any) {
  return NamedError(op, StatusCode::kFailedPrecondition,
                 StrCat("no ", kind, " callback for channel ", channel, " on device ",
                        context.device_index, any ? "" : StrCat(" (the Execute call gave no ", kind,
                                                                " callbacks for it)")));
}

class HostSendOp : public CompiledOp {
 public:
  HostSendOp(const shlo::Operation& op, int64_t channel, size_t num_tensors)
      : op_(op), channel_(channel), num_tensors_(num_tensors) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    const sdk::SendCallback* callback = nullptr;
    bool any = false;
    if (context.execute_options != nullptr) {
      const auto& all = context.execute_options->send_callbacks;
      if (context.device_index >= 0 && static_cast<size_t>(context.device_index) < all.size()) {
        for (const sdk::SendCallbackInfo& info : all[context.device_index]) {
          any = true;
          if (info.channel_id == channel_) {
            callback = &info.callback;
            break;
          }
        }
      }
    }
    if (callback == nullptr || !*callback) return NoCallback(op_, "send", channel_, context, any);

    std::string bytes;
    for (size_t i = 0; i < num_tensors_; ++i) {
      if (operands[i].kind != RtValue::Kind::kTensor) {
        return NamedError(op_, StatusCode::kInternal, StrCat("operand ", i, " is not a tensor"));
      }
      const Tensor& t = operands[i].tensor;
      bytes.append(reinterpret_cast<const char*>(t.data()), t.byte_size());
    }
    Status status = (*callback)(bytes.data(), bytes.size(), bytes.size(), /*done=*/true);
    if (!status.ok()) {
      return NamedError(op_, status.code() == StatusCode::kOk ? StatusCode::kUnknown : status.code(),
                     StrCat("the send callback of channel ", channel_, " failed: ",
                            status.message()));
    }
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
    const sdk::RecvCallback* callback = nullptr;
    bool any = false;
    if (context.execute_options != nullptr) {
      const auto& all = context.execute_options->recv_callbacks;
      if (context.device_index >= 0 && static_cast<size_t>(context.device_index) < all.size()) {
        for (const sdk::RecvCallbackInfo& info : all[context.device_index]) {
          any = true;
          if (info.channel_id == channel_) {
            callback = &info.callback;
            break;
          }
        }
      }
    }
    if (callback == nullptr || !*callback) return NoCallback(op_, "recv", channel_, context, any);

    std::vector<Tensor> tensors;
    int64_t total = 0;
    for (const shlo::Type& type : types_) {
      tensors.emplace_back(type.element_type(), type.dims());
      total += static_cast<int64_t>(tensors.back().byte_size());
    }
    auto stream = std::make_shared<sdk::CopyToDeviceStream>(total, /*granule=*/1);
    (*callback)(stream);
    const std::chrono::milliseconds timeout = RecvTimeout();
    StatusOr<std::string> bytes = stream->Await(timeout);
    if (!bytes.ok()) {
      return NamedError(op_, bytes.status().code(),
                     StrCat("waiting for the recv callback of channel ", channel_, ": ",
                            bytes.status().message(),
                            " (PLUGRT_HOST_RECV_TIMEOUT_MS sets the limit)"));
    }
    std::vector<RtValue> results;
    size_t offset = 0;
    for (Tensor& t : tensors) {
      const size_t n = t.byte_size();
      if (n > 0) std::memcpy(t.MutableData(), bytes->data() + offset, n);
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

}  // namespace plugrt::cpu
