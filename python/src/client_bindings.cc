// plugrt Python bindings: Plugin, Client, Device, Memory.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "client/plugin.h"
#include "default_plugin.h"
#include "distributed/join_job.h"
#include "errors.h"
#include "named_values.h"
#include "objects.h"

namespace plugrt::python {

namespace py = pybind11;

namespace {

std::shared_ptr<Plugin> LoadPlugin(const std::string& path) {
  return ValueOrThrow(Plugin::Load(path));
}

// None: the built-in CPU plugin; a str or os.PathLike: that library; or a
// Plugin already loaded.
std::shared_ptr<Plugin> PluginFrom(const py::object& plugin) {
  if (plugin.is_none()) return LoadPlugin(DefaultCpuPluginPath());
  if (py::isinstance<Plugin>(plugin)) return plugin.cast<std::shared_ptr<Plugin>>();
  py::object path = py::module_::import("os").attr("fspath")(plugin);
  return LoadPlugin(path.cast<std::string>());
}

std::vector<PyDevice> Wrap(const std::shared_ptr<Client>& client, std::vector<Device> devices) {
  std::vector<PyDevice> out;
  for (Device& d : devices) out.push_back(PyDevice{client, d});
  return out;
}

std::vector<PyMemory> Wrap(const std::shared_ptr<Client>& client, std::vector<Memory> memories) {
  std::vector<PyMemory> out;
  for (Memory& mem : memories) out.push_back(PyMemory{client, mem});
  return out;
}

py::dict StatsDict(const MemoryStats& stats) {
  py::dict d;
  d["bytes_in_use"] = stats.bytes_in_use;
  auto put = [&d](const char* name, const std::optional<int64_t>& v) {
    if (v) d[name] = *v;
  };
  put("peak_bytes_in_use", stats.peak_bytes_in_use);
  put("num_allocs", stats.num_allocs);
  put("largest_alloc_size", stats.largest_alloc_size);
  put("bytes_limit", stats.bytes_limit);
  put("bytes_reserved", stats.bytes_reserved);
  put("peak_bytes_reserved", stats.peak_bytes_reserved);
  put("bytes_reservable_limit", stats.bytes_reservable_limit);
  put("largest_free_block_bytes", stats.largest_free_block_bytes);
  put("pool_bytes", stats.pool_bytes);
  put("peak_pool_bytes", stats.peak_pool_bytes);
  return d;
}

}  // namespace

void RegisterClient(py::module_& m, ClientClass& client) {
  py::class_<Plugin, std::shared_ptr<Plugin>>(m, "Plugin",
                                              "A loaded PJRT plugin (stays loaded for the process).")
      .def_property_readonly("path", &Plugin::path)
      .def_property_readonly("api_version",
                             [](const Plugin& p) {
                               return py::make_tuple(p.major_version(), p.minor_version());
                             })
      .def_property_readonly("attributes",
                             [](const Plugin& p) { return ToDict(ValueOrThrow(p.attributes())); })
      .def("__repr__", [](const Plugin& p) {
        return StrCat("<plugrt.Plugin ", p.path(), " (PJRT ", p.major_version(), ".",
                      p.minor_version(), ")>");
      });
  m.def("load_plugin", &LoadPlugin, py::arg("path"),
        "Loads a PJRT plugin (a shared library exporting GetPjrtApi).");

  py::class_<PyMemory>(m, "Memory", "A memory space of a client (device memory, pinned host ...).")
      .def_property_readonly("id", [](const PyMemory& mem) { return ValueOrThrow(mem.memory.id()); })
      .def_property_readonly("kind",
                             [](const PyMemory& mem) { return ValueOrThrow(mem.memory.kind()); })
      .def_property_readonly("kind_id",
                             [](const PyMemory& mem) { return ValueOrThrow(mem.memory.kind_id()); })
      .def_property_readonly("client", [](const PyMemory& mem) { return mem.client; })
      .def("addressable_by_devices",
           [](const PyMemory& mem) {
             return Wrap(mem.client, ValueOrThrow(mem.memory.addressable_by_devices()));
           })
      .def("__eq__", [](const PyMemory& a, const PyMemory& b) { return a.memory == b.memory; })
      .def("__hash__", [](const PyMemory& mem) { return std::hash<void*>()(mem.memory.raw()); })
      .def("__repr__", [](const PyMemory& mem) {
        return StrCat("<plugrt.Memory ", ValueOrThrow(mem.memory.to_string()), ">");
      });

  py::class_<PyDevice>(m, "Device", "A device of a client.")
      .def_property_readonly("id", [](const PyDevice& d) { return ValueOrThrow(d.device.id()); })
      .def_property_readonly("kind", [](const PyDevice& d) { return ValueOrThrow(d.device.kind()); })
      .def_property_readonly("process_index",
                             [](const PyDevice& d) { return ValueOrThrow(d.device.process_index()); })
      .def_property_readonly(
          "local_hardware_id",
          [](const PyDevice& d) { return ValueOrThrow(d.device.local_hardware_id()); })
      .def_property_readonly("is_addressable",
                             [](const PyDevice& d) { return ValueOrThrow(d.device.is_addressable()); })
      .def_property_readonly(
          "attributes", [](const PyDevice& d) { return ToDict(ValueOrThrow(d.device.attributes())); })
      .def_property_readonly("client", [](const PyDevice& d) { return d.client; })
      .def("memories",
           [](const PyDevice& d) { return Wrap(d.client, ValueOrThrow(d.device.memories())); })
      .def("default_memory",
           [](const PyDevice& d) {
             return PyMemory{d.client, ValueOrThrow(d.device.default_memory())};
           })
      .def("memory_stats",
           [](const PyDevice& d) { return StatsDict(ValueOrThrow(d.device.memory_stats())); })
      .def("__eq__", [](const PyDevice& a, const PyDevice& b) { return a.device == b.device; })
      .def("__hash__", [](const PyDevice& d) { return std::hash<void*>()(d.device.raw()); })
      .def("__repr__", [](const PyDevice& d) {
        return StrCat("<plugrt.Device ", ValueOrThrow(d.device.to_string()), ">");
      });

  client
      .def(py::init([](const py::object& plugin, bool join_job, const py::kwargs& options) {
             ClientOptions client_options;
             client_options.create_options = FromKwargs(options);
             if (join_job) {
               ThrowIfError(distributed::JoinJob(client_options.create_options,
                                                 client_options.kv_store)
                                .status());
             }
             std::unique_ptr<Client> made =
                 ValueOrThrow(Client::Create(PluginFrom(plugin), client_options));
             return std::shared_ptr<Client>(std::move(made));
           }),
           py::arg("plugin") = py::none(), py::arg("join_job") = true,
           "Client(plugin=None, join_job=True, **create_options): plugin is None (the built-in "
           "CPU plugin), a path, or a plugrt.Plugin; keyword arguments are the plugin's create "
           "options (e.g. cpu_device_count=4). A process started by mpirun, srun, torchrun or "
           "plugrt launch joins its job (node_id, num_nodes, the job's key-value store) unless "
           "join_job is False; create options given here win.")
      .def_property_readonly("plugin", &Client::plugin)
      .def_property_readonly("platform_name",
                             [](const Client& c) { return ValueOrThrow(c.platform_name()); })
      .def_property_readonly("platform_version",
                             [](const Client& c) { return ValueOrThrow(c.platform_version()); })
      .def_property_readonly("process_index",
                             [](const Client& c) { return ValueOrThrow(c.process_index()); })
      .def("devices",
           [](const std::shared_ptr<Client>& c) { return Wrap(c, ValueOrThrow(c->devices())); })
      .def("addressable_devices",
           [](const std::shared_ptr<Client>& c) {
             return Wrap(c, ValueOrThrow(c->addressable_devices()));
           })
      .def("memories",
           [](const std::shared_ptr<Client>& c) {
             return Wrap(c, ValueOrThrow(c->addressable_memories()));
           })
      .def("lookup_device",
           [](const std::shared_ptr<Client>& c, int id) {
             return PyDevice{c, ValueOrThrow(c->LookupDevice(id))};
           },
           py::arg("id"))
      .def("default_device_assignment",
           [](const Client& c, int replicas, int partitions) {
             return ValueOrThrow(c.DefaultDeviceAssignment(replicas, partitions));
           },
           py::arg("num_replicas"), py::arg("num_partitions"))
      .def("__repr__", [](const Client& c) {
        return StrCat("<plugrt.Client ", ValueOrThrow(c.platform_name()), " via ",
                      c.plugin()->path(), ">");
      });
}

}  // namespace plugrt::python
