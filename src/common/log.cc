#include "common/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace plugrt {
namespace {

// -1: not decided yet (the environment is read on first use).
std::atomic<int> current_level{-1};

constexpr std::string_view kNames[] = {"off", "error", "warning", "info"};

}  // namespace

StatusOr<LogLevel> ParseLogLevel(std::string_view text) {
  for (int i = 0; i < 4; ++i) {
    if (text == kNames[i]) return static_cast<LogLevel>(i);
  }
  return InvalidArgument("log level \"", text, "\" is not one of off, error, warning, info");
}

std::string_view LogLevelName(LogLevel level) {
  const int i = static_cast<int>(level);
  return i >= 0 && i < 4 ? kNames[i] : "unknown";
}

LogLevel GetLogLevel() {
  int level = current_level.load(std::memory_order_relaxed);
  if (level >= 0) return static_cast<LogLevel>(level);
  LogLevel from_env = LogLevel::kOff;
  if (const char* text = std::getenv(kLogLevelEnv); text != nullptr) {
    StatusOr<LogLevel> parsed = ParseLogLevel(text);
    if (parsed.ok()) from_env = *parsed;
  }
  // A SetLogLevel racing with the first read wins.
  int expected = -1;
  current_level.compare_exchange_strong(expected, static_cast<int>(from_env));
  return static_cast<LogLevel>(current_level.load(std::memory_order_relaxed));
}

void SetLogLevel(LogLevel level) { current_level.store(static_cast<int>(level)); }

void Log(LogLevel level, std::string_view component, std::string_view message) {
  if (level == LogLevel::kOff || static_cast<int>(level) > static_cast<int>(GetLogLevel())) return;
  std::string line = StrCat("plugrt ", component, ": ", message, "\n");
  // One write(2): lines of concurrent threads do not interleave.
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

}  // namespace plugrt
