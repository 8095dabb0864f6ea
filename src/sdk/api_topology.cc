// PJRT_TopologyDescription_* entries and ahead-of-time PJRT_Compile.
#include "sdk/api_args.h"
#include "sdk/api_slots.h"

namespace plugrt::sdk {
namespace {

PJRT_Error* TopologyCreate(PJRT_TopologyDescription_Create_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_Create_Args& a, const Call& call) -> Status {
    PLUGRT_RETURN_IF_ERROR(call.Array(a.topology_name, a.topology_name_size, "topology_name"));
    std::string_view name(a.topology_name ? a.topology_name : "", a.topology_name_size);
    PLUGRT_ASSIGN_OR_RETURN(Attributes options, AttributesFromC(a.create_options, a.num_options,
                                                                call.fn(), "create_options"));
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<TopologyDescription> topology,
                            CurrentPlugin().CreateTopology(name, options));
    const TopologyDescription* raw = topology.get();
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<PJRT_TopologyDescription> handle,
                            PJRT_TopologyDescription::Create(raw, std::move(topology)));
    a.topology = handle.release();
    return OkStatus();
  });
}

PJRT_Error* TopologyDeserialize(PJRT_TopologyDescription_Deserialize_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_Deserialize_Args& a, const Call& call) -> Status {
    PLUGRT_RETURN_IF_ERROR(
        call.Array(a.serialized_topology, a.serialized_topology_size, "serialized_topology"));
    std::string_view bytes(a.serialized_topology ? a.serialized_topology : "",
                           a.serialized_topology_size);
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<TopologyDescription> topology,
                            CurrentPlugin().DeserializeTopology(bytes));
    if (topology == nullptr) return Internal(call.fn(), ": the backend returned no topology");
    const TopologyDescription* raw = topology.get();
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<PJRT_TopologyDescription> handle,
                            PJRT_TopologyDescription::Create(raw, std::move(topology)));
    a.topology = handle.release();
    return OkStatus();
  });
}

PJRT_Error* TopologyDestroy(PJRT_TopologyDescription_Destroy_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_Destroy_Args& a, const Call& call) -> Status {
    PJRT_TopologyDescription* topology = a.topology;  // never null: Run answers null
    if (topology->owned == nullptr) {
      return call.Invalid("topology belongs to its client (PJRT_Client_TopologyDescription) "
                          "and is freed with it");
    }
    delete topology;
    return OkStatus();
  });
}

PJRT_Error* TopologyPlatformName(PJRT_TopologyDescription_PlatformName_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_PlatformName_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(const PJRT_TopologyDescription* t, Handle(a.topology, call, "topology"));
    a.platform_name = t->platform_name.c_str();
    a.platform_name_size = t->platform_name.size();
    return OkStatus();
  });
}

PJRT_Error* TopologyPlatformVersion(PJRT_TopologyDescription_PlatformVersion_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_PlatformVersion_Args& a,
                      const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(const PJRT_TopologyDescription* t, Handle(a.topology, call, "topology"));
    a.platform_version = t->platform_version.c_str();
    a.platform_version_size = t->platform_version.size();
    return OkStatus();
  });
}

PJRT_Error* TopologyGetDeviceDescriptions(PJRT_TopologyDescription_GetDeviceDescriptions_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_GetDeviceDescriptions_Args& a,
                      const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(const PJRT_TopologyDescription* t, Handle(a.topology, call, "topology"));
    a.descriptions = t->descriptions.data();
    a.num_descriptions = t->descriptions.size();
    return OkStatus();
  });
}

void DeleteSerializedTopology(PJRT_SerializedTopology* serialized) { delete serialized; }

PJRT_Error* TopologySerialize(PJRT_TopologyDescription_Serialize_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_Serialize_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_TopologyDescription * t, Handle(a.topology, call, "topology"));
    PLUGRT_ASSIGN_OR_RETURN(std::string bytes, t->topology->Serialize());
    auto* serialized = new PJRT_SerializedTopology{std::move(bytes)};
    a.serialized_topology = serialized;
    a.serialized_bytes = serialized->bytes.data();
    a.serialized_bytes_size = serialized->bytes.size();
    a.serialized_topology_deleter = DeleteSerializedTopology;
    return OkStatus();
  });
}

PJRT_Error* TopologyAttributes(PJRT_TopologyDescription_Attributes_Args* args) {
  return Run(args, [](PJRT_TopologyDescription_Attributes_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_TopologyDescription * t, Handle(a.topology, call, "topology"));
    a.attributes = t->attributes->data();
    a.num_attributes = t->attributes->size();
    return OkStatus();
  });
}

// Ahead-of-time compilation for a topology; `client` is optional in the ABI
// and not needed by the sdk interface.
PJRT_Error* Compile(PJRT_Compile_Args* args) {
  return Run(args, [](PJRT_Compile_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(const PJRT_TopologyDescription* t, Handle(a.topology, call, "topology"));
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Program program, ReadNested(a.program, call.fn(), "program"));
    PLUGRT_RETURN_IF_ERROR(call.Array(program.code, program.code_size, "program.code"));
    PLUGRT_RETURN_IF_ERROR(call.Array(program.format, program.format_size, "program.format"));
    PLUGRT_RETURN_IF_ERROR(call.Array(a.compile_options, a.compile_options_size, "compile_options"));
    Program sdk_program{std::string_view(program.format ? program.format : "", program.format_size),
                        std::string_view(program.code ? program.code : "", program.code_size)};
    std::string_view options(a.compile_options ? a.compile_options : "", a.compile_options_size);
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Executable> executable,
                            CurrentPlugin().CompileForTopology(*t->topology, sdk_program, options));
    if (executable == nullptr) return Internal(call.fn(), ": the backend returned no executable");
    a.executable = new PJRT_Executable(std::move(executable));
    return OkStatus();
  });
}

}  // namespace

void FillTopologySlots(PJRT_Api& api) {
  api.PJRT_TopologyDescription_Create = TopologyCreate;
  api.PJRT_TopologyDescription_Deserialize = TopologyDeserialize;
  api.PJRT_TopologyDescription_Destroy = TopologyDestroy;
  api.PJRT_TopologyDescription_PlatformName = TopologyPlatformName;
  api.PJRT_TopologyDescription_PlatformVersion = TopologyPlatformVersion;
  api.PJRT_TopologyDescription_GetDeviceDescriptions = TopologyGetDeviceDescriptions;
  api.PJRT_TopologyDescription_Serialize = TopologySerialize;
  api.PJRT_TopologyDescription_Attributes = TopologyAttributes;
  api.PJRT_Compile = Compile;
}

}  // namespace plugrt::sdk
