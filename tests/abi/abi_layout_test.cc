// ABI layout guard for include/pjrt_c_api.h.
//
// The literal numbers below were measured from the upstream PJRT C API header
// (openxla/xla xla/pjrt/c/pjrt_c_api.h, minor version 0.94) compiled with
// GCC on x86_64 Linux (LP64). plugrt's header must reproduce them exactly;
// any edit that moves a field or an API slot makes this test fail.

#include "pjrt_c_api.h"

#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

namespace {

// ------------------------------------------------------------------ version

static_assert(PJRT_API_MAJOR == 0, "plugrt targets PJRT C API major 0");
static_assert(PJRT_API_MINOR == 94, "plugrt targets PJRT C API minor 94");

// ------------------------------------------------- layout (LP64 targets only)

constexpr bool kLp64 = sizeof(void*) == 8 && sizeof(size_t) == 8 &&
                       sizeof(int) == 4 && alignof(int64_t) == 8;

#define PLUGRT_LP64_ASSERT(expr) \
  static_assert(!kLp64 || (expr), "ABI layout mismatch: " #expr)

// The API table: 3 header fields (struct_size, extension_start, version)
// followed by 129 function-pointer slots.
PLUGRT_LP64_ASSERT(sizeof(PJRT_Api) == 1072);
PLUGRT_LP64_ASSERT(PJRT_Api_STRUCT_SIZE == 1072);
PLUGRT_LP64_ASSERT(offsetof(PJRT_Api, pjrt_api_version) == 16);
PLUGRT_LP64_ASSERT(offsetof(PJRT_Api, PJRT_Error_Destroy) == 40);
PLUGRT_LP64_ASSERT(offsetof(PJRT_Api, PJRT_Device_GetAttributes) == 1064);

PLUGRT_LP64_ASSERT(sizeof(PJRT_Client_Create_Args) == 88);
PLUGRT_LP64_ASSERT(sizeof(PJRT_LoadedExecutable_Execute_Args) == 80);
PLUGRT_LP64_ASSERT(sizeof(PJRT_ExecuteOptions) == 112);

struct SizeFact {
  const char* name;
  size_t measured_sizeof;
  size_t measured_struct_size;  // NAME_STRUCT_SIZE (excludes tail padding)
  size_t actual_sizeof;
  size_t actual_struct_size;
};

#define PLUGRT_SIZE_FACT(type, size, struct_size) \
  SizeFact { #type, size, struct_size, sizeof(type), type##_STRUCT_SIZE }

const SizeFact kSizeFacts[] = {
    PLUGRT_SIZE_FACT(PJRT_Api, 1072, 1072),
    PLUGRT_SIZE_FACT(PJRT_Api_Version, 24, 24),
    PLUGRT_SIZE_FACT(PJRT_Extension_Base, 24, 24),
    PLUGRT_SIZE_FACT(PJRT_NamedValue, 56, 56),
    PLUGRT_SIZE_FACT(PJRT_Error_Message_Args, 40, 40),
    PLUGRT_SIZE_FACT(PJRT_Plugin_Attributes_Args, 32, 32),
    PLUGRT_SIZE_FACT(PJRT_Event_OnReady_Args, 40, 40),
    PLUGRT_SIZE_FACT(PJRT_KeyValueGetCallback_Args, 80, 80),
    PLUGRT_SIZE_FACT(PJRT_Client_Create_Args, 88, 88),
    PLUGRT_SIZE_FACT(PJRT_ProcessInfo, 48, 48),
    PLUGRT_SIZE_FACT(PJRT_Program, 48, 48),
    PLUGRT_SIZE_FACT(PJRT_Client_Compile_Args, 56, 56),
    PLUGRT_SIZE_FACT(PJRT_Client_BufferFromHostBuffer_Args, 120, 120),
    PLUGRT_SIZE_FACT(PJRT_Client_CreateViewOfDeviceBuffer_Args, 112, 112),
    PLUGRT_SIZE_FACT(PJRT_Buffer_MemoryLayout_Tiled, 56, 56),
    PLUGRT_SIZE_FACT(PJRT_Buffer_MemoryLayout_Strides, 32, 32),
    PLUGRT_SIZE_FACT(PJRT_Buffer_MemoryLayout, 80, 76),
    PLUGRT_SIZE_FACT(PJRT_ShapeSpec, 40, 36),
    PLUGRT_SIZE_FACT(PJRT_Device_MemoryStats_Args, 192, 185),
    PLUGRT_SIZE_FACT(PJRT_Device_GetAttributes_Args, 56, 56),
    PLUGRT_SIZE_FACT(PJRT_SendCallbackInfo, 24, 24),
    PLUGRT_SIZE_FACT(PJRT_ExecuteOptions, 112, 112),
    PLUGRT_SIZE_FACT(PJRT_LoadedExecutable_Execute_Args, 80, 80),
    PLUGRT_SIZE_FACT(PJRT_Executable_GetCompiledMemoryStats_Args, 120, 120),
    PLUGRT_SIZE_FACT(PJRT_Executable_Serialize_Args, 56, 56),
    PLUGRT_SIZE_FACT(PJRT_Executable_DeserializeAndLoad_Args, 64, 64),
    PLUGRT_SIZE_FACT(PJRT_Buffer_GetMemoryLayout_Args, 104, 104),
    PLUGRT_SIZE_FACT(PJRT_Buffer_ToHostBuffer_Args, 56, 56),
};

struct OffsetFact {
  const char* name;
  size_t measured;
  size_t actual;
};

#define PLUGRT_OFFSET_FACT(type, field, off) \
  OffsetFact { #type "." #field, off, offsetof(type, field) }

const OffsetFact kApiSlotFacts[] = {
    PLUGRT_OFFSET_FACT(PJRT_Api, struct_size, 0),
    PLUGRT_OFFSET_FACT(PJRT_Api, extension_start, 8),
    PLUGRT_OFFSET_FACT(PJRT_Api, pjrt_api_version, 16),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Error_Destroy, 40),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Error_Message, 48),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Error_GetCode, 56),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Plugin_Initialize, 64),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Plugin_Attributes, 72),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Executable_DeserializeAndLoad, 488),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_LoadedExecutable_Fingerprint, 496),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Buffer_Destroy, 504),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Executable_GetCompileOptions, 1032),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Buffer_DonateWithControlDependency,
                       1040),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Event_Create, 1048),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Event_Set, 1056),
    PLUGRT_OFFSET_FACT(PJRT_Api, PJRT_Device_GetAttributes, 1064),
};

const OffsetFact kFieldFacts[] = {
    // Anonymous unions share one offset.
    PLUGRT_OFFSET_FACT(PJRT_NamedValue, type, 32),
    PLUGRT_OFFSET_FACT(PJRT_NamedValue, string_value, 40),
    PLUGRT_OFFSET_FACT(PJRT_NamedValue, int64_value, 40),
    PLUGRT_OFFSET_FACT(PJRT_NamedValue, bool_value, 40),
    PLUGRT_OFFSET_FACT(PJRT_NamedValue, value_size, 48),
    PLUGRT_OFFSET_FACT(PJRT_Buffer_MemoryLayout, tiled, 16),
    PLUGRT_OFFSET_FACT(PJRT_Buffer_MemoryLayout, strides, 16),
    PLUGRT_OFFSET_FACT(PJRT_Buffer_MemoryLayout, type, 72),
    PLUGRT_OFFSET_FACT(PJRT_Client_BufferFromHostBuffer_Args, type, 32),
    PLUGRT_OFFSET_FACT(PJRT_Client_BufferFromHostBuffer_Args,
                       host_buffer_semantics, 72),
    PLUGRT_OFFSET_FACT(PJRT_Client_BufferFromHostBuffer_Args, device_layout,
                       96),
    PLUGRT_OFFSET_FACT(PJRT_Client_BufferFromHostBuffer_Args, buffer, 112),
    PLUGRT_OFFSET_FACT(PJRT_ExecuteOptions, launch_id, 48),
    PLUGRT_OFFSET_FACT(PJRT_ExecuteOptions, non_donatable_input_indices, 56),
    PLUGRT_OFFSET_FACT(PJRT_ExecuteOptions, call_location, 80),
    PLUGRT_OFFSET_FACT(PJRT_ExecuteOptions, incarnation_ids, 104),
    PLUGRT_OFFSET_FACT(PJRT_LoadedExecutable_Execute_Args, argument_lists, 32),
    PLUGRT_OFFSET_FACT(PJRT_LoadedExecutable_Execute_Args, output_lists, 56),
    PLUGRT_OFFSET_FACT(PJRT_LoadedExecutable_Execute_Args, execute_device,
                       72),
};

TEST(AbiLayoutTest, ApiVersionMacros) {
  EXPECT_EQ(PJRT_API_MAJOR, 0);
  EXPECT_EQ(PJRT_API_MINOR, 94);
}

TEST(AbiLayoutTest, StructSizesMatchUpstream) {
  if (!kLp64) GTEST_SKIP() << "facts were measured on an LP64 target";
  for (const SizeFact& f : kSizeFacts) {
    EXPECT_EQ(f.actual_sizeof, f.measured_sizeof) << "sizeof " << f.name;
    EXPECT_EQ(f.actual_struct_size, f.measured_struct_size)
        << f.name << "_STRUCT_SIZE";
  }
}

TEST(AbiLayoutTest, ApiSlotOffsetsMatchUpstream) {
  if (!kLp64) GTEST_SKIP() << "facts were measured on an LP64 target";
  for (const OffsetFact& f : kApiSlotFacts) {
    EXPECT_EQ(f.actual, f.measured) << "offsetof " << f.name;
  }
  // 129 pointer slots after the 40-byte header, no gaps.
  EXPECT_EQ((sizeof(PJRT_Api) - offsetof(PJRT_Api, PJRT_Error_Destroy)) /
                sizeof(void*),
            129u);
}

TEST(AbiLayoutTest, FieldOffsetsMatchUpstream) {
  if (!kLp64) GTEST_SKIP() << "facts were measured on an LP64 target";
  for (const OffsetFact& f : kFieldFacts) {
    EXPECT_EQ(f.actual, f.measured) << "offsetof " << f.name;
  }
}

TEST(AbiLayoutTest, EnumValuesMatchUpstream) {
  EXPECT_EQ(sizeof(PJRT_Buffer_Type), 4u);
  EXPECT_EQ(PJRT_Extension_Type_Gpu_Custom_Call, 0);
  EXPECT_EQ(PJRT_Extension_Type_Collectives, 21);
  EXPECT_EQ(PJRT_Error_Code_OK, 0);
  EXPECT_EQ(PJRT_Error_Code_UNIMPLEMENTED, 12);
  EXPECT_EQ(PJRT_Error_Code_UNAUTHENTICATED, 16);
  EXPECT_EQ(PJRT_NamedValue_kBool, 4);
  EXPECT_EQ(PJRT_Buffer_Type_INVALID, 0);
  EXPECT_EQ(PJRT_Buffer_Type_PRED, 1);
  EXPECT_EQ(PJRT_Buffer_Type_F32, 11);
  EXPECT_EQ(PJRT_Buffer_Type_BF16, 13);
  EXPECT_EQ(PJRT_Buffer_Type_TOKEN, 23);
  EXPECT_EQ(PJRT_Buffer_Type_F4E2M1FN, 29);
  EXPECT_EQ(PJRT_Buffer_Type_U1, 31);
  EXPECT_EQ(PJRT_HostBufferSemantics_kMutableZeroCopy, 3);
  EXPECT_EQ(PJRT_Buffer_MemoryLayout_Type_Strides, 1);
  EXPECT_EQ(PJRT_ProcessState_kError, 4);
}

}  // namespace
