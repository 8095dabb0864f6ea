#include "cpu/custom_calls/ducc_fft.h"

#include <complex>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/fft.h"

namespace plugrt::cpu {
namespace {

// A bounds-checked view of one flatbuffer table (the wire format: a root
// u32 offset, tables that point back to a vtable of u16 field offsets,
// vectors as a u32 length followed by their elements). Absent fields read as
// their defaults (zero).
class FlatTable {
 public:
  static StatusOr<FlatTable> Root(std::string_view buffer) {
    uint32_t root = 0;
    if (!Read(buffer, 0, &root)) return InvalidArgument("the descriptor is too short");
    FlatTable table(buffer, root);
    int32_t back = 0;
    if (!Read(buffer, root, &back)) return InvalidArgument("the descriptor's root is out of range");
    const int64_t vtable = static_cast<int64_t>(root) - back;
    uint16_t vtable_size = 0;
    if (vtable < 0 || !Read(buffer, static_cast<size_t>(vtable), &vtable_size) ||
        vtable_size < 4 || static_cast<size_t>(vtable) + vtable_size > buffer.size()) {
      return InvalidArgument("the descriptor's vtable is out of range");
    }
    table.vtable_ = static_cast<size_t>(vtable);
    table.vtable_size_ = vtable_size;
    return table;
  }

  // Field `id`'s scalar, or `fallback` when absent.
  template <typename T>
  StatusOr<T> Scalar(int id, T fallback) const {
    const size_t at = FieldOffset(id);
    if (at == 0) return fallback;
    T value{};
    if (!Read(buffer_, table_ + at, &value)) return InvalidArgument("field ", id, " is out of range");
    return value;
  }

  // Field `id`'s vector of T (empty when absent).
  template <typename T>
  StatusOr<std::vector<T>> Vector(int id) const {
    const size_t at = FieldOffset(id);
    if (at == 0) return std::vector<T>();
    uint32_t relative = 0;
    const size_t where = table_ + at;
    if (!Read(buffer_, where, &relative)) return InvalidArgument("field ", id, " is out of range");
    const size_t start = where + relative;
    uint32_t count = 0;
    if (!Read(buffer_, start, &count) || count > (buffer_.size() - start - 4) / sizeof(T)) {
      return InvalidArgument("vector field ", id, " is out of range");
    }
    std::vector<T> values(count);
    if (count > 0) std::memcpy(values.data(), buffer_.data() + start + 4, count * sizeof(T));
    return values;
  }

 private:
  FlatTable(std::string_view buffer, size_t table) : buffer_(buffer), table_(table) {}

  template <typename T>
  static bool Read(std::string_view buffer, size_t at, T* value) {
    if (at > buffer.size() || buffer.size() - at < sizeof(T)) return false;
    std::memcpy(value, buffer.data() + at, sizeof(T));  // little-endian, as flatbuffers are
    return true;
  }

  size_t FieldOffset(int id) const {
    const size_t slot = 4 + 2 * static_cast<size_t>(id);
    if (slot + 2 > vtable_size_) return 0;
    uint16_t offset = 0;
    Read(buffer_, vtable_ + slot, &offset);
    return offset;
  }

  std::string_view buffer_;
  size_t table_;
  size_t vtable_ = 0;
  uint16_t vtable_size_ = 0;
};

// jaxlib's enums.
enum DuccDtype : int8_t { kComplex64 = 0, kComplex128 = 1 };
enum DuccType : int8_t { kC2C = 0, kC2R = 1, kR2C = 2 };

// One transform, from either descriptor and the dynamic operands.
struct DuccFft {
  int8_t dtype = 0;
  int8_t fft_type = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides_in, strides_out;
  std::vector<int64_t> axes;
  bool forward = true;
  double scale = 1;
};

template <typename From>
std::vector<int64_t> ToInt64s(const std::vector<From>& values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

StatusOr<DuccFft> ReadStatic(std::string_view descriptor) {
  PLUGRT_ASSIGN_OR_RETURN(FlatTable t, FlatTable::Root(descriptor));
  DuccFft f;
  PLUGRT_ASSIGN_OR_RETURN(f.dtype, t.Scalar<int8_t>(0, 0));
  PLUGRT_ASSIGN_OR_RETURN(f.fft_type, t.Scalar<int8_t>(1, 0));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<uint64_t> shape, t.Vector<uint64_t>(2));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<uint64_t> strides_in, t.Vector<uint64_t>(3));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<uint64_t> strides_out, t.Vector<uint64_t>(4));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<uint32_t> axes, t.Vector<uint32_t>(5));
  PLUGRT_ASSIGN_OR_RETURN(uint8_t forward, t.Scalar<uint8_t>(6, 0));
  PLUGRT_ASSIGN_OR_RETURN(f.scale, t.Scalar<double>(7, 0.0));
  f.shape = ToInt64s(shape);
  f.strides_in = ToInt64s(strides_in);
  f.strides_out = ToInt64s(strides_out);
  f.axes = ToInt64s(axes);
  f.forward = forward != 0;
  return f;
}

// Reads `count` 32-bit integers (i32 or ui32 storage) from `t`.
StatusOr<std::vector<int64_t>> Int32s(const Tensor& t, size_t count, const char* what) {
  if (shlo::StorageBytes(t.type()) != 4 || !shlo::IsInteger(t.type()) ||
      static_cast<size_t>(t.num_elements()) < count) {
    return InvalidArgument("dynamic_ducc_fft: ", what, " must hold ", count,
                           " 32-bit integers");
  }
  std::vector<uint32_t> raw(count);
  if (count > 0) std::memcpy(raw.data(), t.data(), count * 4);
  return ToInt64s(raw);
}

StatusOr<DuccFft> ReadDynamic(std::string_view descriptor, const std::vector<RtValue>& operands) {
  PLUGRT_ASSIGN_OR_RETURN(FlatTable t, FlatTable::Root(descriptor));
  DuccFft f;
  PLUGRT_ASSIGN_OR_RETURN(uint32_t ndims, t.Scalar<uint32_t>(0, 0));
  PLUGRT_ASSIGN_OR_RETURN(f.dtype, t.Scalar<int8_t>(1, 0));
  PLUGRT_ASSIGN_OR_RETURN(f.fft_type, t.Scalar<int8_t>(2, 0));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<uint32_t> axes, t.Vector<uint32_t>(3));
  PLUGRT_ASSIGN_OR_RETURN(uint8_t forward, t.Scalar<uint8_t>(4, 0));
  f.axes = ToInt64s(axes);
  f.forward = forward != 0;
  if (ndims > 64) return InvalidArgument("dynamic_ducc_fft: ndims ", ndims, " is too large");
  PLUGRT_ASSIGN_OR_RETURN(f.shape, Int32s(operands[2].tensor, ndims, "shape"));
  PLUGRT_ASSIGN_OR_RETURN(f.strides_in, Int32s(operands[3].tensor, ndims, "strides_in"));
  PLUGRT_ASSIGN_OR_RETURN(f.strides_out, Int32s(operands[4].tensor, ndims, "strides_out"));
  const Tensor& scale = operands[5].tensor;
  if (scale.type() != ElementType::kF64 || scale.num_elements() != 1) {
    return InvalidArgument("dynamic_ducc_fft: scale must be an f64 scalar");
  }
  std::memcpy(&f.scale, scale.data(), sizeof(double));
  return f;
}

// Multiplies every real component of `t` (f32, f64, c64, c128) by `factor`.
void ScaleInPlace(Tensor& t, double factor) {
  const int64_t n = t.num_elements() * (shlo::IsComplex(t.type()) ? 2 : 1);
  if (t.type() == ElementType::kF32 || t.type() == ElementType::kC64) {
    auto* v = reinterpret_cast<float*>(t.MutableData());
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(v[i] * factor);
  } else {
    auto* v = reinterpret_cast<double*>(t.MutableData());
    for (int64_t i = 0; i < n; ++i) v[i] *= factor;
  }
}

StatusOr<Tensor> RunDuccFft(const DuccFft& f, const Tensor& x, const shlo::Type& result_type) {
  const bool complex128 = f.dtype == kComplex128;
  if (f.dtype != kComplex64 && f.dtype != kComplex128) {
    return InvalidArgument("unknown dtype ", int{f.dtype});
  }
  FftType type;
  switch (f.fft_type) {
    case kC2C:
      type = f.forward ? FftType::kFft : FftType::kIfft;
      break;
    case kR2C:
      if (!f.forward) return Unimplemented("a backward real-to-complex transform");
      type = FftType::kRfft;
      break;
    case kC2R:
      if (f.forward) return Unimplemented("a forward complex-to-real transform");
      type = FftType::kIrfft;
      break;
    default:
      return InvalidArgument("unknown fft_type ", int{f.fft_type});
  }
  const ElementType complex = complex128 ? ElementType::kC128 : ElementType::kC64;
  const ElementType real = complex128 ? ElementType::kF64 : ElementType::kF32;
  const ElementType in_type = type == FftType::kRfft ? real : complex;
  const ElementType out_type = type == FftType::kIrfft ? real : complex;
  if (x.type() != in_type || result_type.element_type() != out_type) {
    return InvalidArgument("the descriptor's dtype says ", shlo::ElementTypeName(in_type), " to ",
                           shlo::ElementTypeName(out_type), ", the call has ",
                           shlo::ElementTypeName(x.type()), " to ",
                           shlo::ElementTypeName(result_type.element_type()));
  }
  const std::vector<int64_t>& real_dims =
      type == FftType::kIrfft ? result_type.dims() : x.dims();
  if (f.shape != real_dims) {
    return InvalidArgument("the descriptor's shape does not match the call's ",
                           type == FftType::kIrfft ? "result" : "operand");
  }
  const size_t rank = f.shape.size();
  if (f.axes.empty() || f.axes.size() > 3 || f.axes.size() > rank) {
    return Unimplemented("transforms over ", f.axes.size(), " axes (plugrt runs 1 to 3)");
  }
  for (size_t i = 0; i < f.axes.size(); ++i) {
    if (f.axes[i] != static_cast<int64_t>(rank - f.axes.size() + i)) {
      return Unimplemented("transforms over axes other than the trailing ones");
    }
  }
  if (f.strides_in != RowMajorStrides(x.dims()) ||
      f.strides_out != RowMajorStrides(result_type.dims())) {
    return Unimplemented("strides other than dense row-major");
  }
  std::vector<int64_t> length;
  for (int64_t axis : f.axes) length.push_back(f.shape[static_cast<size_t>(axis)]);
  StatusOr<std::vector<int64_t>> dims = FftResultDims(x.dims(), type, length);
  if (!dims.ok()) return dims.status();
  if (*dims != result_type.dims()) {
    return InvalidArgument("the call's result shape is not the transform's");
  }
  Tensor out = Fft(x, type, length, out_type);
  // Fft scales backward transforms by 1/N; the descriptor gives its own.
  double n = 1;
  for (int64_t l : length) n *= static_cast<double>(l);
  const double factor = f.forward ? f.scale : f.scale * n;
  if (factor != 1) ScaleInPlace(out, factor);
  return out;
}

class DuccFftOp final : public CompiledOp {
 public:
  DuccFftOp(std::string where, bool dynamic, shlo::Type result_type)
      : where_(std::move(where)), dynamic_(dynamic), result_type_(std::move(result_type)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext&) const override {
    // (A result-shape operand after the call's own ones goes unread.)
    const size_t expected = dynamic_ ? 6 : 2;
    if (operands.size() < expected) {
      return InvalidArgument(where_, ": expected ", expected, " operands, got ", operands.size());
    }
    for (const RtValue& v : operands) {
      if (v.kind != RtValue::Kind::kTensor) return InvalidArgument(where_, ": operands are tensors");
    }
    const Tensor& descriptor = operands[0].tensor;
    const std::string_view bytes(reinterpret_cast<const char*>(descriptor.data()),
                                 static_cast<size_t>(descriptor.num_elements()));
    StatusOr<DuccFft> fft = dynamic_ ? ReadDynamic(bytes, operands) : ReadStatic(bytes);
    if (!fft.ok()) {
      return Status(fft.status().code(), StrCat(where_, ": ", fft.status().message()));
    }
    StatusOr<Tensor> out = RunDuccFft(*fft, operands[1].tensor, result_type_);
    if (!out.ok()) {
      return Status(out.status().code(), StrCat(where_, ": ", out.status().message()));
    }
    std::vector<RtValue> results;
    results.push_back(RtValue::Of(std::move(*out)));
    return results;
  }

 private:
  std::string where_;
  bool dynamic_;
  shlo::Type result_type_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledOp>> CompileDuccFftCall(const shlo::Operation& op,
                                                         std::string_view target,
                                                         const ProgramOptions& /*options*/) {
  const bool dynamic = target == "dynamic_ducc_fft";
  size_t expected = dynamic ? 6 : 2;
  // JAX's shape-polymorphic export appends the result's shape as an operand
  // named by indices_of_shape_operands; with a static result it says
  // nothing the result type does not.
  if (const shlo::Attribute* shapes = op.attribute("indices_of_shape_operands")) {
    StatusOr<std::vector<int64_t>> indices = shlo::AttrToIntList(*shapes);
    if (!indices.ok() || indices->size() != 1 || (*indices)[0] != static_cast<int64_t>(expected)) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat("custom call target '", target,
                            "': indices_of_shape_operands must name the one operand after the ",
                            expected, " it takes"));
    }
    ++expected;
  }
  if (op.operands.size() != expected || op.results.size() != 1) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("custom call target '", target, "' takes ", expected,
                          " operands and has one result"));
  }
  const shlo::Type& descriptor = op.operands[0]->type;
  if (!descriptor.is_tensor() || shlo::StorageBytes(descriptor.element_type()) != 1 ||
      !shlo::IsInteger(descriptor.element_type())) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("custom call target '", target,
                          "': operand 0 is the descriptor, a tensor of 8-bit integers"));
  }
  for (const auto& operand : op.operands) {
    if (!operand->type.is_tensor() || !operand->type.has_static_shape()) {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat("custom call target '", target, "': operands of static shape only"));
    }
  }
  const shlo::Type& result = op.results[0]->type;
  if (!result.is_tensor() || !result.has_static_shape()) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("custom call target '", target, "': a result of static shape only"));
  }
  return std::unique_ptr<CompiledOp>(
      new DuccFftOp(StrCat(op.location.ToString(), ": ", op.name, " ", target), dynamic, result));
}

}  // namespace plugrt::cpu
