#include "dlpack.h"

#include <dlpack/dlpack.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/element_type.h"
#include "common/layout.h"
#include "dtypes.h"
#include "errors.h"
#include "interpreter.h"

namespace plugrt::python {

namespace py = pybind11;

namespace {

constexpr const char* kCapsuleName = "dltensor";
constexpr const char* kUsedCapsuleName = "used_dltensor";
constexpr const char* kVersionedCapsuleName = "dltensor_versioned";
constexpr const char* kUsedVersionedCapsuleName = "used_dltensor_versioned";

// DLPack 1.0's versioned tensor, which Debian's 0.6 header lacks. The layout
// is the standard's: a version, the manager's context and deleter, flag bits,
// then the tensor.
struct DlpackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DlManagedTensorVersioned {
  DlpackVersion version;
  void* manager_ctx;
  void (*deleter)(DlManagedTensorVersioned*);
  uint64_t flags;
  DLTensor dl_tensor;
};
constexpr DlpackVersion kDlpackVersion{1, 0};  // what this module writes and reads
constexpr uint64_t kDlFlagReadOnly = 1ull << 0;
constexpr uint64_t kDlFlagIsCopied = 1ull << 1;
// kDLBool joined DLDataTypeCode in DLPack 0.8; Debian's header is 0.6.
constexpr uint8_t kDlBool = 6;
// The alignment the CPU plugin needs to alias host memory (cpu_client.h).
constexpr uintptr_t kViewAlignment = 16;

Status Error(StatusCode code, std::string message) { return Status(code, std::move(message)); }

std::optional<DLDataType> DlTypeOf(PJRT_Buffer_Type type) {
  const ElementTypeInfo* info = FindElementType(type);
  if (info == nullptr || !HasByteAlignedElements(type)) return std::nullopt;
  const auto bits = static_cast<uint8_t>(info->bits);
  switch (info->kind) {
    case ElementKind::kBool: return DLDataType{kDlBool, 8, 1};
    case ElementKind::kSigned: return DLDataType{kDLInt, bits, 1};
    case ElementKind::kUnsigned: return DLDataType{kDLUInt, bits, 1};
    case ElementKind::kComplex: return DLDataType{kDLComplex, bits, 1};
    case ElementKind::kFloat:
      if (type == PJRT_Buffer_Type_BF16) return DLDataType{kDLBfloat, 16, 1};
      if (bits >= 16) return DLDataType{kDLFloat, bits, 1};
      return std::nullopt;  // the 8-bit floats have no DLPack code
    case ElementKind::kNone: return std::nullopt;
  }
  return std::nullopt;
}

PJRT_Buffer_Type ElementTypeOfDl(const DLDataType& dl) {
  if (dl.lanes == 1) {
    for (PJRT_Buffer_Type type : AllElementTypes()) {
      std::optional<DLDataType> candidate = DlTypeOf(type);
      if (candidate && candidate->code == dl.code && candidate->bits == dl.bits) return type;
    }
  }
  throw StatusError(Error(StatusCode::kUnimplemented,
                          StrCat("DLPack dtype (code ", int{dl.code}, ", bits ", int{dl.bits},
                                 ", lanes ", dl.lanes, ") has no PJRT element type")));
}

// What one exported capsule owns; `Managed` is DLManagedTensor (0.x) or
// DlManagedTensorVersioned (1.x).
template <typename Managed>
struct Export {
  Managed managed{};
  std::shared_ptr<Buffer> buffer;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

template <typename Managed>
void DeleteExport(Managed* managed) {
  auto* state = static_cast<Export<Managed>*>(managed->manager_ctx);
  state->buffer->DecreaseExternalReferenceCount().IgnoreError();
  delete state;
}

// Runs when the capsule dies; a consumer that took the tensor renamed it and
// owns it now.
template <typename Managed, const char* const* kName>
void CapsuleDestructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, *kName)) return;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, *kName));
  if (managed != nullptr && managed->deleter != nullptr) managed->deleter(managed);
  PyErr_Restore(type, value, traceback);
}
constexpr const char* const kCapsuleNameRef = kCapsuleName;
constexpr const char* const kVersionedCapsuleNameRef = kVersionedCapsuleName;

// Owns an imported tensor of either generation; calls its producer's deleter
// once, holding the GIL (NumPy's deleter releases a Python object), from
// whichever thread lets go of the memory last.
class Imported {
 public:
  explicit Imported(DLManagedTensor* managed) : legacy_(managed) {}
  explicit Imported(DlManagedTensorVersioned* managed) : versioned_(managed) {}
  ~Imported() { Release(); }
  Imported(const Imported&) = delete;
  Imported& operator=(const Imported&) = delete;

  const DLTensor& tensor() const {
    return versioned_ != nullptr ? versioned_->dl_tensor : legacy_->dl_tensor;
  }
  void Release() {
    DLManagedTensor* legacy = std::exchange(legacy_, nullptr);
    DlManagedTensorVersioned* versioned = std::exchange(versioned_, nullptr);
    const bool has_deleter = (legacy != nullptr && legacy->deleter != nullptr) ||
                             (versioned != nullptr && versioned->deleter != nullptr);
    if (!has_deleter) return;
    if (!InterpreterAlive()) return;  // too late: leak
    PyGILState_STATE gil = PyGILState_Ensure();
    if (legacy != nullptr) legacy->deleter(legacy);
    if (versioned != nullptr) versioned->deleter(versioned);
    PyGILState_Release(gil);
  }

 private:
  DLManagedTensor* legacy_ = nullptr;
  DlManagedTensorVersioned* versioned_ = nullptr;
};

// Fills an export's tensor over `buffer` (host memory, row-major) and hands
// it to a capsule named `kName`.
template <typename Managed, const char* const* kName>
py::capsule MakeCapsule(std::unique_ptr<Export<Managed>> state, uintptr_t pointer,
                        DLDataType dl_type) {
  state->shape = ValueOrThrow(state->buffer->dimensions());
  state->strides.assign(state->shape.size(), 1);
  for (size_t d = state->shape.size(); d-- > 1;) {
    state->strides[d - 1] = state->strides[d] * state->shape[d];
  }
  DLTensor& t = state->managed.dl_tensor;
  t.data = reinterpret_cast<void*>(pointer);
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = static_cast<int>(state->shape.size());
  t.dtype = dl_type;
  t.shape = state->shape.data();
  t.strides = state->strides.data();
  t.byte_offset = 0;
  state->managed.manager_ctx = state.get();
  state->managed.deleter = DeleteExport<Managed>;

  PyObject* capsule =
      PyCapsule_New(&state->managed, *kName, CapsuleDestructor<Managed, kName>);
  if (capsule == nullptr) {
    DeleteExport(&state.release()->managed);
    throw py::error_already_set();
  }
  state.release();
  return py::reinterpret_steal<py::capsule>(capsule);
}

}  // namespace

std::pair<int, int> DlpackDevice(const PyBuffer& buffer) {
  if (!ValueOrThrow(buffer.buffer->is_on_cpu())) {
    throw StatusError(Error(StatusCode::kUnimplemented,
                            "DLPack: only buffers in host memory can be shared; copy this one "
                            "to a CPU device first"));
  }
  return {kDLCPU, 0};
}

py::capsule ToDlpack(const PyBuffer& py_buffer, bool copy, bool versioned) {
  std::shared_ptr<Buffer> buffer = py_buffer.buffer;
  if (copy) {
    Device device = ValueOrThrow(buffer->device());
    buffer = std::make_shared<Buffer>(ValueOrThrow(buffer->CopyToDevice(device)));
  }
  {
    Future ready = ValueOrThrow(buffer->ReadyFuture());
    py::gil_scoped_release release;
    ThrowIfError(ready.Await());
  }
  DlpackDevice(py_buffer);
  const PJRT_Buffer_Type type = ValueOrThrow(buffer->element_type());
  std::optional<DLDataType> dl_type = DlTypeOf(type);
  if (!dl_type) {
    throw StatusError(Error(StatusCode::kUnimplemented,
                            StrCat("DLPack: element type ", ElementTypeName(type),
                                   " has no DLPack dtype")));
  }
  if (!ValueOrThrow(buffer->layout()).IsRowMajor()) {
    throw StatusError(Error(StatusCode::kUnimplemented,
                            "DLPack: only dense row-major buffers can be shared"));
  }
  const uintptr_t pointer = ValueOrThrow(buffer->unsafe_pointer());
  ThrowIfError(buffer->IncreaseExternalReferenceCount());
  if (versioned) {
    auto state = std::make_unique<Export<DlManagedTensorVersioned>>();
    state->buffer = std::move(buffer);
    state->managed.version = kDlpackVersion;
    state->managed.flags = copy ? kDlFlagIsCopied : 0;
    return MakeCapsule<DlManagedTensorVersioned, &kVersionedCapsuleNameRef>(std::move(state),
                                                                          pointer, *dl_type);
  }
  auto state = std::make_unique<Export<DLManagedTensor>>();
  state->buffer = std::move(buffer);
  return MakeCapsule<DLManagedTensor, &kCapsuleNameRef>(std::move(state), pointer, *dl_type);
}

bool WantsVersionedCapsule(const py::object& max_version) {
  if (max_version.is_none()) return false;
  py::tuple version = max_version.cast<py::tuple>();
  if (version.size() != 2) {
    throw StatusError(Error(StatusCode::kInvalidArgument,
                            "__dlpack__: max_version must be a (major, minor) pair"));
  }
  return version[0].cast<int64_t>() >= static_cast<int64_t>(kDlpackVersion.major);
}

PyBuffer FromDlpack(const py::object& source, const PyDevice& device) {
  py::object capsule = source;
  if (!PyCapsule_CheckExact(source.ptr())) {
    if (!py::hasattr(source, "__dlpack__")) {
      throw StatusError(Error(StatusCode::kInvalidArgument,
                              "from_dlpack: the object has no __dlpack__ method and is not a "
                              "DLPack capsule"));
    }
    if (py::hasattr(source, "__dlpack_device__")) {
      py::tuple where = source.attr("__dlpack_device__")();
      if (where.size() < 1 || where[0].cast<int>() != kDLCPU) {
        throw StatusError(Error(StatusCode::kUnimplemented,
                                "from_dlpack: only tensors in CPU memory (kDLCPU) can be "
                                "imported"));
      }
    }
    // Ask for a 1.x capsule; producers that predate the keyword (NumPy 1.x,
    // PyTorch 1.x) raise TypeError and are asked again without it.
    try {
      capsule = source.attr("__dlpack__")(py::arg("max_version") = py::make_tuple(
                                              kDlpackVersion.major, kDlpackVersion.minor));
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_TypeError)) throw;
      capsule = source.attr("__dlpack__")();
    }
  }
  std::shared_ptr<Imported> owner;
  bool read_only = false;
  if (PyCapsule_IsValid(capsule.ptr(), kVersionedCapsuleName)) {
    auto* managed = static_cast<DlManagedTensorVersioned*>(
        PyCapsule_GetPointer(capsule.ptr(), kVersionedCapsuleName));
    if (managed == nullptr) throw py::error_already_set();
    // A newer major version may lay the tensor out differently: touch nothing
    // past the version, and leave the capsule to free it.
    if (managed->version.major != kDlpackVersion.major) {
      throw StatusError(Error(StatusCode::kUnimplemented,
                              StrCat("from_dlpack: DLPack version ", managed->version.major, ".",
                                     managed->version.minor, " is not readable (this module reads ",
                                     kDlpackVersion.major, ".x)")));
    }
    PyCapsule_SetName(capsule.ptr(), kUsedVersionedCapsuleName);
    owner = std::make_shared<Imported>(managed);
    read_only = (managed->flags & kDlFlagReadOnly) != 0;
  } else if (PyCapsule_IsValid(capsule.ptr(), kCapsuleName)) {
    auto* managed =
        static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), kCapsuleName));
    if (managed == nullptr) throw py::error_already_set();
    // From here on the tensor is ours: renaming tells the producer's capsule
    // destructor not to free it.
    PyCapsule_SetName(capsule.ptr(), kUsedCapsuleName);
    owner = std::make_shared<Imported>(managed);
  } else {
    throw StatusError(Error(StatusCode::kInvalidArgument,
                            "from_dlpack: not an unused \"dltensor\" or \"dltensor_versioned\" "
                            "capsule (a capsule can be consumed only once)"));
  }

  const DLTensor& t = owner->tensor();
  if (t.device.device_type != kDLCPU) {
    throw StatusError(Error(StatusCode::kUnimplemented,
                            StrCat("from_dlpack: device type ", int{t.device.device_type},
                                   " is not CPU memory")));
  }
  if (t.ndim < 0 || (t.ndim > 0 && t.shape == nullptr)) {
    throw StatusError(Error(StatusCode::kInvalidArgument, "from_dlpack: malformed tensor shape"));
  }
  const PJRT_Buffer_Type type = ElementTypeOfDl(t.dtype);
  const int64_t element_bytes = t.dtype.bits / 8;
  std::vector<int64_t> dims(t.shape, t.shape + t.ndim);
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0) throw StatusError(Error(StatusCode::kInvalidArgument, "from_dlpack: negative dimension"));
    count *= d;
  }
  // Byte strides; a null stride array means compact row-major.
  std::vector<int64_t> byte_strides(dims.size());
  bool dense = true;
  int64_t compact = element_bytes;
  for (size_t d = dims.size(); d-- > 0;) {
    const int64_t stride = t.strides != nullptr ? t.strides[d] * element_bytes : compact;
    byte_strides[d] = stride;
    if (dims[d] > 1 && stride != compact) dense = false;
    if (dims[d] > 1 && stride <= 0) {
      throw StatusError(Error(StatusCode::kUnimplemented,
                              "from_dlpack: zero or negative strides are not supported"));
    }
    compact *= dims[d];
  }
  const void* data = static_cast<const char*>(t.data) + t.byte_offset;
  if (count > 0 && data == nullptr) {
    throw StatusError(Error(StatusCode::kInvalidArgument, "from_dlpack: null data pointer"));
  }

  const Client& client = *device.client;
  const bool host_memory_client = ValueOrThrow(client.platform_name()) == "cpu";
  // A read-only tensor is copied: a view would let programs write into it
  // (donation, in-place outputs).
  if (dense && !read_only && host_memory_client && count > 0 &&
      reinterpret_cast<uintptr_t>(data) % kViewAlignment == 0) {
    // The plugin runs on_delete when it no longer uses the memory; dropping
    // the callable (also when the view is refused) releases it too.
    Buffer view = ValueOrThrow(client.CreateViewOfDeviceBuffer(
        const_cast<void*>(data), type, dims, device.device, [owner] { owner->Release(); }));
    return PyBuffer(device.client, std::move(view));
  }
  Client::HostBuffer host(data, type, dims);
  if (!dense) host.byte_strides = byte_strides;  // some plugins take dense data only
  host.semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  std::pair<Buffer, Future> made = ValueOrThrow(client.BufferFromHostBuffer(host, device.device));
  return PyBuffer(device.client, std::move(made.first));
}

}  // namespace plugrt::python
