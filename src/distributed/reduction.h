// plugrt distributed: the element types and reductions of cross-process
// all-reduces, shared by both collective backends (Gloo, MPI): one place
// for how integers wrap and how min/max treat NaN.
#ifndef PLUGRT_DISTRIBUTED_REDUCTION_H_
#define PLUGRT_DISTRIBUTED_REDUCTION_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace plugrt::distributed {

enum class Reduction { kSum, kProduct, kMin, kMax };
enum class DataType { kF32, kF64, kS8, kS16, kS32, kS64, kU8, kU16, kU32, kU64 };

// c[i] = a[i] (op) b[i] for n elements; c may alias a or b.
using ReduceFunction = void (*)(void* c, const void* a, const void* b, size_t n);

template <typename T, Reduction kReduction>
void ReduceElements(void* c_, const void* a_, const void* b_, size_t n) {
  T* c = static_cast<T*>(c_);
  const T* a = static_cast<const T*>(a_);
  const T* b = static_cast<const T*>(b_);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (kReduction == Reduction::kSum || kReduction == Reduction::kProduct) {
      if constexpr (std::is_integral_v<T>) {
        // Integers wrap around (StableHLO's add and multiply), computed
        // unsigned, at least as wide as unsigned int, so nothing overflows.
        using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
        const U x = static_cast<U>(a[i]), y = static_cast<U>(b[i]);
        c[i] = static_cast<T>(kReduction == Reduction::kSum ? static_cast<U>(x + y)
                                                            : static_cast<U>(x * y));
      } else {
        c[i] = kReduction == Reduction::kSum ? a[i] + b[i] : a[i] * b[i];
      }
    } else {
      // NaN wins, as StableHLO's maximum and minimum say.
      if constexpr (std::is_floating_point_v<T>) {
        if (a[i] != a[i] || b[i] != b[i]) {
          c[i] = a[i] != a[i] ? a[i] : b[i];
          continue;
        }
      }
      if constexpr (kReduction == Reduction::kMax) {
        c[i] = a[i] < b[i] ? b[i] : a[i];
      } else {
        c[i] = b[i] < a[i] ? b[i] : a[i];
      }
    }
  }
}

template <typename T>
ReduceFunction ReduceFunctionFor(Reduction reduction) {
  switch (reduction) {
    case Reduction::kSum: return &ReduceElements<T, Reduction::kSum>;
    case Reduction::kProduct: return &ReduceElements<T, Reduction::kProduct>;
    case Reduction::kMin: return &ReduceElements<T, Reduction::kMin>;
    case Reduction::kMax: return &ReduceElements<T, Reduction::kMax>;
  }
  return &ReduceElements<T, Reduction::kSum>;
}

// Calls f(T{}) with T the C++ type of `type`.
template <typename F>
decltype(auto) VisitDataType(DataType type, F&& f) {
  switch (type) {
    case DataType::kF32: return f(float{});
    case DataType::kF64: return f(double{});
    case DataType::kS8: return f(int8_t{});
    case DataType::kS16: return f(int16_t{});
    case DataType::kS32: return f(int32_t{});
    case DataType::kS64: return f(int64_t{});
    case DataType::kU8: return f(uint8_t{});
    case DataType::kU16: return f(uint16_t{});
    case DataType::kU32: return f(uint32_t{});
    case DataType::kU64: return f(uint64_t{});
  }
  return f(float{});
}

inline ReduceFunction ReduceFunctionFor(DataType type, Reduction reduction) {
  return VisitDataType(type, [reduction](auto zero) {
    return ReduceFunctionFor<decltype(zero)>(reduction);
  });
}

inline size_t DataTypeBytes(DataType type) {
  return VisitDataType(type, [](auto zero) { return sizeof(zero); });
}

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_REDUCTION_H_
