// plugrt remote: the shared token that authenticates remote clients to a
// worker. Both sides read it the same way; it never appears on a command
// line (where other users of the machine could read it).
#ifndef PLUGRT_REMOTE_TOKEN_H_
#define PLUGRT_REMOTE_TOKEN_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt::remote {

// Environment fallbacks of both sides.
inline constexpr const char* kTokenEnv = "PLUGRT_REMOTE_TOKEN";
inline constexpr const char* kTokenFileEnv = "PLUGRT_REMOTE_TOKEN_FILE";

// The shared token: the contents of `token_file` (trailing newlines dropped)
// when it is not empty, else of $PLUGRT_REMOTE_TOKEN_FILE's file, else
// $PLUGRT_REMOTE_TOKEN. No token is an error: a worker serves no one without
// one, and a client without one would only be refused.
StatusOr<std::string> LoadToken(const std::string& token_file);

// Compares without an early exit, so that timing tells nothing of the token.
bool TokenMatches(std::string_view expected, std::string_view given);

}  // namespace plugrt::remote

#endif  // PLUGRT_REMOTE_TOKEN_H_
