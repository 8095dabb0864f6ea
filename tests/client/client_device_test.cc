// End-to-end tests of the client's devices, memories, descriptions, device
// assignment and topology over the CPU plugin.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/device.h"
#include "client/topology.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::CpuClientTest;

using DeviceTest = CpuClientTest;

TEST_F(DeviceTest, ClientFacts) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, client_->platform_name());
  EXPECT_EQ(name, "cpu");
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string version, client_->platform_version());
  EXPECT_FALSE(version.empty());
  PLUGRT_ASSERT_OK_AND_ASSIGN(int process, client_->process_index());
  EXPECT_EQ(process, 0);
  EXPECT_NE(client_->raw(), nullptr);
  EXPECT_EQ(client_->api(), plugin_->api());
}

TEST_F(DeviceTest, DevicesHaveDistinctIdsAndDescriptions) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> all, client_->devices());
  ASSERT_EQ(all.size(), devices_.size());
  std::set<int> ids, hardware_ids;
  std::set<std::string> debug_strings, to_strings;
  for (const Device& device : devices_) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(int id, device.id());
    ids.insert(id);
    PLUGRT_ASSERT_OK_AND_ASSIGN(int hardware_id, device.local_hardware_id());
    hardware_ids.insert(hardware_id);
    PLUGRT_ASSERT_OK_AND_ASSIGN(bool addressable, device.is_addressable());
    EXPECT_TRUE(addressable);
    PLUGRT_ASSERT_OK_AND_ASSIGN(int process, device.process_index());
    EXPECT_EQ(process, 0);
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string kind, device.kind());
    EXPECT_FALSE(kind.empty());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string debug, device.debug_string());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string text, device.to_string());
    EXPECT_THAT(debug, HasSubstr(std::to_string(id)));
    EXPECT_THAT(text, HasSubstr(std::to_string(id)));
    debug_strings.insert(debug);
    to_strings.insert(text);
    PLUGRT_EXPECT_OK(device.attributes());
    // The description gives the same facts as the device.
    PLUGRT_ASSERT_OK_AND_ASSIGN(DeviceDescription description, device.description());
    PLUGRT_ASSERT_OK_AND_ASSIGN(int description_id, description.id());
    EXPECT_EQ(description_id, id);
    // Every addressable device is among all devices.
    EXPECT_NE(std::find(all.begin(), all.end(), device), all.end());
  }
  EXPECT_EQ(ids.size(), devices_.size());
  EXPECT_EQ(hardware_ids.size(), devices_.size());
  EXPECT_EQ(debug_strings.size(), devices_.size());
  EXPECT_EQ(to_strings.size(), devices_.size());
}

TEST_F(DeviceTest, LookupFindsEachDevice) {
  for (const Device& device : devices_) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(int id, device.id());
    PLUGRT_ASSERT_OK_AND_ASSIGN(Device found, client_->LookupDevice(id));
    EXPECT_EQ(found, device);
    PLUGRT_ASSERT_OK_AND_ASSIGN(int hardware_id, device.local_hardware_id());
    PLUGRT_ASSERT_OK_AND_ASSIGN(Device local, client_->LookupAddressableDevice(hardware_id));
    EXPECT_EQ(local, device);
  }
}

TEST_F(DeviceTest, LookupOfUnknownIdsFailsNamingTheId) {
  for (int bad : {-1, 12345}) {
    auto device = client_->LookupDevice(bad);
    ASSERT_FALSE(device.ok());
    EXPECT_THAT(device.status().code(),
                ::testing::AnyOf(StatusCode::kInvalidArgument, StatusCode::kNotFound));
    EXPECT_THAT(device.status().message(), HasSubstr(std::to_string(bad)));
    auto local = client_->LookupAddressableDevice(bad);
    ASSERT_FALSE(local.ok());
    EXPECT_THAT(local.status().code(),
                ::testing::AnyOf(StatusCode::kInvalidArgument, StatusCode::kNotFound));
    EXPECT_THAT(local.status().message(), HasSubstr(std::to_string(bad)));
  }
}

TEST_F(DeviceTest, MemoriesOfDevicesAndClient) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Memory> client_memories,
                              client_->addressable_memories());
  std::set<int> memory_ids;
  for (const Memory& memory : client_memories) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(int id, memory.id());
    memory_ids.insert(id);
  }
  EXPECT_EQ(memory_ids.size(), client_memories.size()) << "memory ids are not unique";

  for (const Device& device : devices_) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Memory> memories, device.memories());
    ASSERT_FALSE(memories.empty());
    PLUGRT_ASSERT_OK_AND_ASSIGN(Memory default_memory, device.default_memory());
    EXPECT_NE(std::find(memories.begin(), memories.end(), default_memory), memories.end());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string default_kind, default_memory.kind());
    EXPECT_EQ(default_kind, "device");
    std::set<std::string> kinds;
    for (const Memory& memory : memories) {
      EXPECT_NE(std::find(client_memories.begin(), client_memories.end(), memory),
                client_memories.end());
      PLUGRT_ASSERT_OK_AND_ASSIGN(std::string kind, memory.kind());
      EXPECT_FALSE(kind.empty());
      kinds.insert(kind);
      PLUGRT_EXPECT_OK(memory.kind_id());
      PLUGRT_ASSERT_OK_AND_ASSIGN(std::string debug, memory.debug_string());
      EXPECT_THAT(debug, HasSubstr(kind));
      PLUGRT_ASSERT_OK_AND_ASSIGN(std::string text, memory.to_string());
      EXPECT_THAT(text, HasSubstr(kind));
      PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> users, memory.addressable_by_devices());
      EXPECT_NE(std::find(users.begin(), users.end(), device), users.end());
    }
    EXPECT_EQ(kinds.size(), memories.size()) << "a device has two memories of one kind";
  }
}

TEST_F(DeviceTest, MemoriesOfOneKindShareAKindId) {
  std::map<std::string, int> kind_ids;
  for (const Device& device : devices_) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Memory> memories, device.memories());
    for (const Memory& memory : memories) {
      PLUGRT_ASSERT_OK_AND_ASSIGN(std::string kind, memory.kind());
      PLUGRT_ASSERT_OK_AND_ASSIGN(int kind_id, memory.kind_id());
      auto [it, inserted] = kind_ids.emplace(kind, kind_id);
      EXPECT_EQ(it->second, kind_id) << kind;
    }
  }
}

TEST_F(DeviceTest, MemoryStatsReportBytesInUse) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats stats, devices_[0].memory_stats());
  EXPECT_GE(stats.bytes_in_use, 0);
  ASSERT_TRUE(stats.peak_bytes_in_use.has_value());
  EXPECT_GE(*stats.peak_bytes_in_use, stats.bytes_in_use);
  // Statistics the CPU plugin does not track stay unset.
  EXPECT_FALSE(stats.pool_bytes.has_value());
}

TEST_F(DeviceTest, DefaultDeviceAssignment) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int> assignment,
                              client_->DefaultDeviceAssignment(2, 2));
  ASSERT_EQ(assignment.size(), 4u);
  std::set<int> distinct(assignment.begin(), assignment.end());
  EXPECT_EQ(distinct.size(), 4u);
  for (int id : assignment) PLUGRT_EXPECT_OK(client_->LookupDevice(id));

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int> single, client_->DefaultDeviceAssignment(1, 1));
  ASSERT_EQ(single.size(), 1u);
  PLUGRT_EXPECT_OK(client_->LookupDevice(single[0]));
}

TEST_F(DeviceTest, DeviceAssignmentErrors) {
  auto too_many = client_->DefaultDeviceAssignment(kDeviceCount + 1, 1);
  EXPECT_FALSE(too_many.ok());
  auto zero = client_->DefaultDeviceAssignment(0, 1);
  EXPECT_EQ(zero.status().code(), StatusCode::kInvalidArgument);
  auto negative = client_->DefaultDeviceAssignment(1, -3);
  EXPECT_EQ(negative.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(DeviceTest, ClientTopology) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription topology, client_->topology());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, topology.platform_name());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string client_name, client_->platform_name());
  EXPECT_EQ(name, client_name);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string version, topology.platform_version());
  EXPECT_FALSE(version.empty());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<DeviceDescription> descriptions,
                              topology.device_descriptions());
  ASSERT_EQ(descriptions.size(), devices_.size());
  std::set<int> topology_ids, device_ids;
  for (const DeviceDescription& d : descriptions) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(int id, d.id());
    topology_ids.insert(id);
    PLUGRT_EXPECT_OK(d.kind());
    PLUGRT_EXPECT_OK(d.attributes());
  }
  for (const Device& device : devices_) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(int id, device.id());
    device_ids.insert(id);
  }
  EXPECT_EQ(topology_ids, device_ids);
  PLUGRT_EXPECT_OK(topology.attributes());
}

TEST_F(DeviceTest, TopologySerializationRoundTripsOrIsUnimplemented) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription topology, client_->topology());
  auto serialized = topology.Serialize();
  if (!serialized.ok()) {
    // The plugin's choice; the client must pass it on as UNIMPLEMENTED
    // naming the function.
    EXPECT_EQ(serialized.status().code(), StatusCode::kUnimplemented);
    EXPECT_THAT(serialized.status().message(), HasSubstr("PJRT_TopologyDescription_Serialize"));
    return;
  }
  EXPECT_FALSE(serialized->empty());
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription back,
                              TopologyDescription::Deserialize(plugin_, *serialized));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, back.platform_name());
  EXPECT_EQ(name, "cpu");
}

TEST_F(DeviceTest, ClientTopologyOutlivesTheClientObject) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription topology, client_->topology());
  client_.reset();
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, topology.platform_name());
  EXPECT_EQ(name, "cpu");
}

TEST(TopologyTest, CreatedTopologyIsOwned) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, testing::CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription topology,
                              TopologyDescription::Create(plugin, "cpu"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, topology.platform_name());
  EXPECT_EQ(name, "cpu");
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<DeviceDescription> descriptions,
                              topology.device_descriptions());
  EXPECT_FALSE(descriptions.empty());
  // Moving transfers ownership; the moved-from object destroys nothing.
  TopologyDescription moved = std::move(topology);
  PLUGRT_EXPECT_OK(moved.platform_version());
}

TEST(TopologyTest, UnknownTopologyNameIsAnError) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, testing::CpuPlugin());
  auto topology = TopologyDescription::Create(plugin, "no-such-topology");
  ASSERT_FALSE(topology.ok());
  EXPECT_THAT(topology.status().message(), HasSubstr("no-such-topology"));
}

TEST(DeviceHandleTest, DefaultConstructedHandlesFailCleanly) {
  Device device;
  EXPECT_FALSE(device.id().ok());
  EXPECT_FALSE(device.memories().ok());
  Memory memory;
  EXPECT_FALSE(memory.kind().ok());
  DeviceDescription description;
  EXPECT_FALSE(description.kind().ok());
}

}  // namespace
}  // namespace plugrt
