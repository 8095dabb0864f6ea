// plugrt: the library's own diagnostics. Nothing reaches standard error
// unless the user asks: by PLUGRT_LOG_LEVEL, by SetLogLevel, or by a
// plugin's create option (the CPU plugin's "log_level"). Errors are returned
// as Status, never only logged; the log says what a user may want to watch
// (what a client was created with, warnings a caller chose to have written).
//
// The level is per copy of this library: the client and each plugin (which
// carries its own, statically linked) have one each.
#ifndef PLUGRT_COMMON_LOG_H_
#define PLUGRT_COMMON_LOG_H_

#include <string_view>

#include "common/status.h"

namespace plugrt {

enum class LogLevel : int { kOff = 0, kError = 1, kWarning = 2, kInfo = 3 };

// The environment variable read (once) for the default level.
inline constexpr const char* kLogLevelEnv = "PLUGRT_LOG_LEVEL";

// "off", "error", "warning", "info" (case as written); INVALID_ARGUMENT
// listing them otherwise.
StatusOr<LogLevel> ParseLogLevel(std::string_view text);
std::string_view LogLevelName(LogLevel level);

// SetLogLevel's last value, else $PLUGRT_LOG_LEVEL when it parses, else kOff.
LogLevel GetLogLevel();
void SetLogLevel(LogLevel level);

// "plugrt <component>: <message>" and a newline on standard error, when
// `level` is not above the current level. Thread-safe (one write per line).
void Log(LogLevel level, std::string_view component, std::string_view message);

}  // namespace plugrt

#endif  // PLUGRT_COMMON_LOG_H_
