// plugrt SDK: how the per-area entry files (api_*.cc) fill the PJRT_Api
// table that api_table.cc builds.
#ifndef PLUGRT_SDK_API_SLOTS_H_
#define PLUGRT_SDK_API_SLOTS_H_

#include "pjrt_c_api.h"
#include "sdk/plugin.h"

namespace plugrt::sdk {

// The plugin BuildApi was given; lives for the rest of the process.
Plugin& CurrentPlugin();

void FillEventSlots(PJRT_Api& api);
void FillClientSlots(PJRT_Api& api);
void FillDeviceSlots(PJRT_Api& api);
void FillBufferSlots(PJRT_Api& api);
void FillExecutableSlots(PJRT_Api& api);
void FillTopologySlots(PJRT_Api& api);

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_API_SLOTS_H_
