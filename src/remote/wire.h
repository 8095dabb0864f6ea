// plugrt remote: what the worker (`plugrt serve`) and the remote plugin
// share beyond the generated protocol (proto/remote_worker.proto): the
// token, status conversion, chunk sizes. gRPC appears here and in the two
// sides' sources, never in a header other layers include.
#ifndef PLUGRT_REMOTE_WIRE_H_
#define PLUGRT_REMOTE_WIRE_H_

#include <grpcpp/grpcpp.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace plugrt::remote {

// The metadata entry that carries the shared token (remote/token.h) on
// every call.
inline constexpr const char* kTokenMetadataKey = "plugrt-token";

// Bytes per streamed message: large enough that per-message costs vanish,
// small enough that neither side holds more than a chunk of an array twice.
inline constexpr size_t kChunkBytes = size_t{1} << 20;
// Unary messages (programs, serialized executables) up to this size.
inline constexpr int kMaxMessageBytes = 1 << 30;

// Bytes of a dense row-major host array of `type` and `dims` (sub-byte
// types one byte per element, as PJRT host buffers hold them). Errors for
// types without a host form (INVALID, TOKEN, unknown numbers), negative
// dimensions and sizes beyond int64.
StatusOr<int64_t> HostArrayBytes(int type, const std::vector<int64_t>& dims);

// Codes are shared: PJRT_Error_Code, plugrt's StatusCode and gRPC's are all
// the canonical codes.
grpc::Status ToGrpc(const Status& status);
Status FromGrpc(const grpc::Status& status);

}  // namespace plugrt::remote

#endif  // PLUGRT_REMOTE_WIRE_H_
