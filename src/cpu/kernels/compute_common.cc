#include "cpu/kernels/compute_common.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "stablehlo/float_format.h"

namespace plugrt::cpu {
namespace {

using shlo::ElementType;

// Value conversions between the domain types, defined for every pair so the
// type switches below compile for all of them.
template <typename To, typename From>
To Cast(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, std::complex<float>>) {
    return Cast<To>(Complex(v.real(), v.imag()));
  } else if constexpr (std::is_same_v<From, Complex>) {
    return Cast<To>(v.real());
  } else if constexpr (std::is_same_v<To, Complex>) {
    return Complex(static_cast<double>(v), 0.0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    // Out-of-range float-to-int is undefined in C++; saturate instead.
    if (std::isnan(v)) return 0;
    if (v <= static_cast<double>(std::numeric_limits<To>::lowest())) {
      return std::numeric_limits<To>::lowest();
    }
    if (v >= static_cast<double>(std::numeric_limits<To>::max())) {
      return std::numeric_limits<To>::max();
    }
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

template <typename D, typename S>
void LoadAll(const Tensor& t, std::vector<D>& out) {
  const S* p = t.as<S>();
  for (size_t i = 0; i < out.size(); ++i) out[i] = Cast<D>(p[i]);
}

template <typename D, typename S>
void LoadNarrowFloat(const Tensor& t, std::vector<D>& out) {
  const S* p = t.as<S>();
  ElementType type = t.type();
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = Cast<D>(shlo::DecodeFloat(type, static_cast<uint64_t>(p[i])));
  }
}

template <typename S, typename D>
void StoreAll(const std::vector<D>& values, Tensor& t) {
  S* p = t.mutable_as<S>();
  for (size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_integral_v<S> && !std::is_integral_v<D>) {
      // Floats stored into integers go through int64 (saturating).
      p[i] = static_cast<S>(Cast<int64_t>(values[i]));
    } else if constexpr (std::is_integral_v<S>) {
      // Wraps modulo 2^width.
      p[i] = static_cast<S>(static_cast<uint64_t>(values[i]));
    } else {
      p[i] = Cast<S>(values[i]);
    }
  }
}

template <typename S, typename D>
void StoreNarrowFloat(const std::vector<D>& values, Tensor& t) {
  S* p = t.mutable_as<S>();
  ElementType type = t.type();
  for (size_t i = 0; i < values.size(); ++i) {
    p[i] = static_cast<S>(shlo::EncodeFloat(type, Cast<double>(values[i])));
  }
}

// Sub-byte integers: keep `bits` bits, sign- or zero-extended to the byte.
template <typename D>
void StoreSubByte(const std::vector<D>& values, Tensor& t, int bits, bool is_signed) {
  uint8_t* p = t.mutable_as<uint8_t>();
  uint64_t mask = (uint64_t{1} << bits) - 1;
  for (size_t i = 0; i < values.size(); ++i) {
    uint64_t v;
    if constexpr (std::is_integral_v<D>) {
      v = static_cast<uint64_t>(values[i]);
    } else {
      v = static_cast<uint64_t>(Cast<int64_t>(values[i]));
    }
    v &= mask;
    if (is_signed && (v >> (bits - 1)) != 0) v |= ~mask;
    p[i] = static_cast<uint8_t>(v);
  }
}

}  // namespace

template <typename D>
std::vector<D> ToDomain(const Tensor& t) {
  std::vector<D> out(static_cast<size_t>(t.num_elements()));
  switch (t.type()) {
    case ElementType::kI1:
    case ElementType::kUI2:
    case ElementType::kUI4:
    case ElementType::kUI8: LoadAll<D, uint8_t>(t, out); break;
    case ElementType::kSI2:
    case ElementType::kSI4:
    case ElementType::kSI8: LoadAll<D, int8_t>(t, out); break;
    case ElementType::kSI16: LoadAll<D, int16_t>(t, out); break;
    case ElementType::kSI32: LoadAll<D, int32_t>(t, out); break;
    case ElementType::kSI64: LoadAll<D, int64_t>(t, out); break;
    case ElementType::kUI16: LoadAll<D, uint16_t>(t, out); break;
    case ElementType::kUI32: LoadAll<D, uint32_t>(t, out); break;
    case ElementType::kUI64: LoadAll<D, uint64_t>(t, out); break;
    case ElementType::kF32: LoadAll<D, float>(t, out); break;
    case ElementType::kF64: LoadAll<D, double>(t, out); break;
    case ElementType::kC64: LoadAll<D, std::complex<float>>(t, out); break;
    case ElementType::kC128: LoadAll<D, std::complex<double>>(t, out); break;
    case ElementType::kBF16:
    case ElementType::kF16: LoadNarrowFloat<D, uint16_t>(t, out); break;
    default: LoadNarrowFloat<D, uint8_t>(t, out); break;  // f8/f6/f4 kinds
  }
  return out;
}

template <typename D>
Tensor FromDomain(ElementType type, std::vector<int64_t> dims, const std::vector<D>& values) {
  Tensor t(type, std::move(dims));
  switch (type) {
    case ElementType::kI1: {
      uint8_t* p = t.mutable_as<uint8_t>();
      for (size_t i = 0; i < values.size(); ++i) p[i] = values[i] != D{} ? 1 : 0;
      break;
    }
    case ElementType::kUI2: StoreSubByte(values, t, 2, false); break;
    case ElementType::kUI4: StoreSubByte(values, t, 4, false); break;
    case ElementType::kSI2: StoreSubByte(values, t, 2, true); break;
    case ElementType::kSI4: StoreSubByte(values, t, 4, true); break;
    case ElementType::kUI8: StoreAll<uint8_t>(values, t); break;
    case ElementType::kSI8: StoreAll<int8_t>(values, t); break;
    case ElementType::kSI16: StoreAll<int16_t>(values, t); break;
    case ElementType::kSI32: StoreAll<int32_t>(values, t); break;
    case ElementType::kSI64: StoreAll<int64_t>(values, t); break;
    case ElementType::kUI16: StoreAll<uint16_t>(values, t); break;
    case ElementType::kUI32: StoreAll<uint32_t>(values, t); break;
    case ElementType::kUI64: StoreAll<uint64_t>(values, t); break;
    case ElementType::kF32: StoreAll<float>(values, t); break;
    case ElementType::kF64: StoreAll<double>(values, t); break;
    case ElementType::kC64: {
      auto* p = t.mutable_as<std::complex<float>>();
      for (size_t i = 0; i < values.size(); ++i) {
        Complex c = Cast<Complex>(values[i]);
        p[i] = std::complex<float>(static_cast<float>(c.real()), static_cast<float>(c.imag()));
      }
      break;
    }
    case ElementType::kC128: {
      auto* p = t.mutable_as<std::complex<double>>();
      for (size_t i = 0; i < values.size(); ++i) p[i] = Cast<Complex>(values[i]);
      break;
    }
    case ElementType::kBF16:
    case ElementType::kF16: StoreNarrowFloat<uint16_t>(values, t); break;
    default: StoreNarrowFloat<uint8_t>(values, t); break;
  }
  return t;
}

#define PLUGRT_INSTANTIATE_DOMAIN_(D)                   \
  template std::vector<D> ToDomain<D>(const Tensor& t); \
  template Tensor FromDomain<D>(ElementType, std::vector<int64_t>, const std::vector<D>&);
PLUGRT_INSTANTIATE_DOMAIN_(double)
PLUGRT_INSTANTIATE_DOMAIN_(Complex)
PLUGRT_INSTANTIATE_DOMAIN_(int64_t)
PLUGRT_INSTANTIATE_DOMAIN_(uint64_t)
#undef PLUGRT_INSTANTIATE_DOMAIN_


StepRounding ElementStepRounding(ElementType type) {
  if (type == ElementType::kF32 || type == ElementType::kC64) return StepRounding::kFloat;
  if (shlo::IsFloat(type) && type != ElementType::kF64) return StepRounding::kElement;
  return StepRounding::kNone;
}

Domain DomainOf(ElementType type) {
  if (shlo::IsComplex(type)) return Domain::kComplex;
  if (shlo::IsFloat(type)) return Domain::kReal;
  if (shlo::IsSignedInteger(type)) return Domain::kSigned;
  return Domain::kUnsigned;  // unsigned integers and i1
}

Tensor ScalarAt(const Tensor& t, int64_t index) {
  Tensor s(t.type(), {});
  size_t bytes = static_cast<size_t>(shlo::StorageBytes(t.type()));
  std::memcpy(s.MutableData(), t.data() + static_cast<size_t>(index) * bytes, bytes);
  return s;
}

void StoreScalar(const Tensor& scalar, Tensor& t, int64_t index) {
  size_t bytes = static_cast<size_t>(shlo::StorageBytes(t.type()));
  std::memcpy(t.MutableData() + static_cast<size_t>(index) * bytes, scalar.data(), bytes);
}

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims[i + 1];
  }
  return strides;
}

int64_t NumElements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

bool NextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

}  // namespace plugrt::cpu
