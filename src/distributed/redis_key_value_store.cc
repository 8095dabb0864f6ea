#include "distributed/redis_key_value_store.h"

#include <hiredis/hiredis.h>

#include "distributed/poll_backoff.h"

namespace plugrt::distributed {
namespace {

timeval ToTimeval(int ms) {
  timeval tv;
  tv.tv_sec = ms / 1000;
  tv.tv_usec = (ms % 1000) * 1000;
  return tv;
}

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

}  // namespace

RedisKeyValueStore::RedisKeyValueStore(std::string host, int port, std::string prefix,
                                       int io_timeout_ms)
    : host_(std::move(host)), port_(port), prefix_(std::move(prefix)),
      io_timeout_ms_(io_timeout_ms) {}

RedisKeyValueStore::~RedisKeyValueStore() {
  if (context_ != nullptr) redisFree(context_);
}

StatusOr<std::unique_ptr<RedisKeyValueStore>> RedisKeyValueStore::Connect(std::string host,
                                                                          int port,
                                                                          std::string prefix,
                                                                          int io_timeout_ms) {
  if (port < 1 || port > 65535) {
    return InvalidArgument("Redis key-value store: port ", port, " is not a TCP port");
  }
  if (io_timeout_ms < 1) {
    return InvalidArgument("Redis key-value store: the I/O timeout must be positive");
  }
  std::unique_ptr<RedisKeyValueStore> store(
      new RedisKeyValueStore(std::move(host), port, std::move(prefix), io_timeout_ms));
  std::lock_guard<std::mutex> lock(store->mu_);
  PLUGRT_RETURN_IF_ERROR(store->EnsureConnected());
  return store;
}

std::string RedisKeyValueStore::address() const {
  return StrCat("redis://", host_, ":", port_, prefix_.empty() ? "" : "/", prefix_);
}

Status RedisKeyValueStore::EnsureConnected() {
  if (context_ != nullptr) return OkStatus();
  redisContext* context = redisConnectWithTimeout(host_.c_str(), port_, ToTimeval(io_timeout_ms_));
  if (context == nullptr || context->err != 0) {
    std::string why = context == nullptr ? "out of memory" : context->errstr;
    if (context != nullptr) redisFree(context);
    return MakeError(StatusCode::kUnavailable, "Redis key-value store ", address(),
                     ": cannot connect: ", why);
  }
  if (redisSetTimeout(context, ToTimeval(io_timeout_ms_)) != REDIS_OK) {
    redisFree(context);
    return MakeError(StatusCode::kUnavailable, "Redis key-value store ", address(),
                     ": cannot set the I/O timeout");
  }
  context_ = context;
  return OkStatus();
}

StatusOr<std::string> RedisKeyValueStore::GetOnce(std::string_view key) {
  PLUGRT_RETURN_IF_ERROR(EnsureConnected());
  const std::string full = prefix_ + std::string(key);
  Reply reply(static_cast<redisReply*>(
      redisCommand(context_, "GET %b", full.data(), full.size())));
  if (reply == nullptr) {
    // The connection is unusable after an I/O error: drop it, so the next
    // call reconnects.
    std::string why = context_->errstr;
    redisFree(context_);
    context_ = nullptr;
    return MakeError(StatusCode::kUnavailable, "Redis key-value store ", address(), ": GET '",
                     key, "' failed: ", why);
  }
  if (reply->type == REDIS_REPLY_NIL) return NotFound("key '", key, "' not found");
  if (reply->type == REDIS_REPLY_STRING) return std::string(reply->str, reply->len);
  if (reply->type == REDIS_REPLY_ERROR) {
    return MakeError(StatusCode::kUnavailable, "Redis key-value store ", address(), ": GET '", key,
                     "': ", std::string(reply->str, reply->len));
  }
  return Internal("Redis key-value store ", address(), ": GET '", key,
                  "' answered with reply type ", reply->type);
}

StatusOr<std::string> RedisKeyValueStore::TryGet(std::string_view key) {
  std::lock_guard<std::mutex> lock(mu_);
  return GetOnce(key);
}

StatusOr<std::string> RedisKeyValueStore::Get(std::string_view key, int timeout_ms) {
  PollBackoff poll(timeout_ms);
  while (true) {
    {
      // Not held while sleeping: other threads' calls go through meanwhile.
      std::lock_guard<std::mutex> lock(mu_);
      StatusOr<std::string> value = GetOnce(key);
      if (value.ok() || value.status().code() != StatusCode::kNotFound) return value;
    }
    if (!poll.Wait()) {
      return MakeError(StatusCode::kDeadlineExceeded, "key '", key, "' did not appear within ",
                       timeout_ms, " ms (", address(), ")");
    }
  }
}

Status RedisKeyValueStore::Put(std::string_view key, std::string_view value) {
  std::lock_guard<std::mutex> lock(mu_);
  PLUGRT_RETURN_IF_ERROR(EnsureConnected());
  const std::string full = prefix_ + std::string(key);
  Reply reply(static_cast<redisReply*>(
      redisCommand(context_, "SET %b %b", full.data(), full.size(), value.data(), value.size())));
  if (reply == nullptr) {
    std::string why = context_->errstr;
    redisFree(context_);
    context_ = nullptr;
    return MakeError(StatusCode::kUnavailable, "Redis key-value store ", address(), ": SET '",
                     key, "' failed: ", why);
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    return MakeError(StatusCode::kUnavailable, "Redis key-value store ", address(), ": SET '", key,
                     "': ", std::string(reply->str, reply->len));
  }
  return OkStatus();
}

}  // namespace plugrt::distributed
