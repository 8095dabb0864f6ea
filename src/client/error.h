// plugrt client: PJRT_Error -> plugrt::Status.
#ifndef PLUGRT_CLIENT_ERROR_H_
#define PLUGRT_CLIENT_ERROR_H_

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

// Reads code and message of `error` and destroys it (the caller gives up
// ownership). nullptr means OK. Codes outside the known range become UNKNOWN.
Status StatusFromPjrtError(const PJRT_Api* api, PJRT_Error* error);

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_ERROR_H_
