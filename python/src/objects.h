// plugrt Python bindings: the C++ objects behind the Python classes. Each
// holds the client it came from, so a Device, Memory, Buffer or executable
// keeps its PJRT_Client (and the plugin) alive from Python as long as it is
// referenced.
#ifndef PLUGRT_PYTHON_OBJECTS_H_
#define PLUGRT_PYTHON_OBJECTS_H_

#include <memory>
#include <utility>

#include "client/buffer.h"
#include "client/client.h"
#include "client/device.h"
#include "client/executable.h"

namespace plugrt::python {

struct PyDevice {
  std::shared_ptr<Client> client;
  Device device;
};

struct PyMemory {
  std::shared_ptr<Client> client;
  Memory memory;
};

// Shared ownership of the Buffer: NumPy views and DLPack capsules hold it
// too (with an external reference on the plugin's side), so the PJRT_Buffer
// outlives the Python object while they use its memory.
struct PyBuffer {
  std::shared_ptr<Client> client;
  std::shared_ptr<Buffer> buffer;

  PyBuffer(std::shared_ptr<Client> c, Buffer b)
      : client(std::move(c)), buffer(std::make_shared<Buffer>(std::move(b))) {}
  // A buffer owned elsewhere (an eager tensor's), shared.
  PyBuffer(std::shared_ptr<Client> c, std::shared_ptr<Buffer> b)
      : client(std::move(c)), buffer(std::move(b)) {}
};

struct PyExecutable {
  std::shared_ptr<Client> client;
  std::shared_ptr<LoadedExecutable> executable;
};

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_OBJECTS_H_
