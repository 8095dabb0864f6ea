#include "cpu/kernels/rng.h"

#include <array>
#include <cmath>
#include <numbers>

#include "cpu/kernels/compute_common.h"

namespace plugrt::cpu {
namespace {

using Words2 = std::array<uint32_t, 2>;
using Words4 = std::array<uint32_t, 4>;

uint32_t RotateLeft(uint32_t v, int distance) {
  return (v << distance) | (v >> (32 - distance));
}

// Threefry-2x32 with 20 rounds (Salmon et al., SC 2011), as XLA uses it.
Words2 ThreeFry2x32(Words2 x, Words2 key) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  x[0] += ks[0];
  x[1] += ks[1];
  for (int group = 0; group < 5; ++group) {
    const int* rot = kRotations + (group % 2) * 4;
    for (int r = 0; r < 4; ++r) {
      x[0] += x[1];
      x[1] = RotateLeft(x[1], rot[r]);
      x[1] ^= x[0];
    }
    // Key injection after every 4 rounds.
    x[0] += ks[(group + 1) % 3];
    x[1] += ks[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
  return x;
}

// Philox-4x32 with 10 rounds, as XLA uses it.
Words4 Philox4x32(Words4 x, Words2 key) {
  constexpr uint32_t kW32A = 0x9E3779B9u, kW32B = 0xBB67AE85u;
  constexpr uint64_t kM4x32A = 0xD2511F53u, kM4x32B = 0xCD9E8D57u;
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = static_cast<uint64_t>(x[0]) * kM4x32A;
    uint64_t p1 = static_cast<uint64_t>(x[2]) * kM4x32B;
    x = Words4{static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<uint32_t>(p1),
               static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<uint32_t>(p0)};
    key[0] += kW32A;
    key[1] += kW32B;
  }
  return x;
}

Words2 Split(uint64_t v) { return {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)}; }
uint64_t Join(uint32_t lo, uint32_t hi) { return static_cast<uint64_t>(hi) << 32 | lo; }

// Writes the low `bits` of each value into `out` (storage of its type).
void StoreBits(const std::vector<uint64_t>& values, int bits, Tensor& out) {
  std::byte* p = out.MutableData();
  const size_t bytes = static_cast<size_t>(shlo::StorageBytes(out.type()));
  for (size_t i = 0; i < values.size(); ++i) {
    uint64_t v = values[i];
    if (bits < 64) v &= (uint64_t{1} << bits) - 1;
    for (size_t b = 0; b < bytes; ++b) p[i * bytes + b] = static_cast<std::byte>(v >> (8 * b));
  }
}

// ThreeFry: 64-bit outputs take one block per element; narrower ones split
// the shape in halves along one dimension and take each block's two words
// for the two halves' matching elements.
std::vector<uint64_t> ThreeFryValues(uint64_t key, uint64_t& counter, int bits,
                                     const std::vector<int64_t>& dims) {
  const int64_t n = NumElements(dims);
  std::vector<uint64_t> values(static_cast<size_t>(n));
  const Words2 k = Split(key);
  if (bits == 64) {
    for (int64_t i = 0; i < n; ++i) {
      Words2 out = ThreeFry2x32(Split(counter + static_cast<uint64_t>(i)), k);
      values[i] = Join(out[0], out[1]);
    }
    counter += static_cast<uint64_t>(n);
    return values;
  }
  if (dims.empty()) {
    values[0] = ThreeFry2x32(Split(counter), k)[0];
    counter += 1;
    return values;
  }
  // The split dimension: the first even one, else the (first) largest.
  size_t split = dims.size();
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] % 2 == 0) {
      split = d;
      break;
    }
  }
  if (split == dims.size()) {
    split = 0;
    for (size_t d = 1; d < dims.size(); ++d) {
      if (dims[d] > dims[split]) split = d;
    }
  }
  std::vector<int64_t> half = dims;
  half[split] = (dims[split] + 1) / 2;
  const std::vector<int64_t> half_strides = RowMajorStrides(half);
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t h = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      h += (d == split ? index[d] / 2 : index[d]) * half_strides[d];
    }
    Words2 out = ThreeFry2x32(Split(counter + static_cast<uint64_t>(h)), k);
    values[i] = out[index[split] % 2];
    NextIndex(index, dims);
  }
  counter += static_cast<uint64_t>(NumElements(half));
  return values;
}

// Philox: block i's counter is the 128-bit counter plus i; 32-bit (and
// narrower) outputs take the block's four words in turn, 64-bit ones two
// words each.
std::vector<uint64_t> PhiloxValues(uint64_t key, uint64_t& lo, uint64_t& hi, int bits,
                                   int64_t n) {
  std::vector<uint64_t> values(static_cast<size_t>(n));
  const Words2 k = Split(key);
  const int64_t per_block = bits == 64 ? 2 : 4;
  const int64_t blocks = (n + per_block - 1) / per_block;
  for (int64_t i = 0; i < blocks; ++i) {
    uint64_t c_lo = lo + static_cast<uint64_t>(i);
    uint64_t c_hi = c_lo < lo ? hi + 1 : hi;
    Words2 a = Split(c_lo), b = Split(c_hi);
    Words4 out = Philox4x32(Words4{a[0], a[1], b[0], b[1]}, k);
    for (int64_t j = 0; j < per_block && i * per_block + j < n; ++j) {
      values[i * per_block + j] =
          bits == 64 ? Join(out[2 * j], out[2 * j + 1]) : static_cast<uint64_t>(out[j]);
    }
  }
  uint64_t new_lo = lo + static_cast<uint64_t>(blocks);
  if (new_lo < lo) ++hi;
  lo = new_lo;
  return values;
}

// A small deterministic stream for rng (splitmix64).
class SplitMix {
 public:
  explicit SplitMix(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double NextUnit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

Status CheckScalarOperands(const Tensor& a, const Tensor& b, ElementType type) {
  if (a.num_elements() != 1 || b.num_elements() != 1) {
    return InvalidArgument("rng's a and b must be scalars");
  }
  if (a.type() != type || b.type() != type) {
    return InvalidArgument("rng's a and b must have the result's element type");
  }
  return OkStatus();
}

}  // namespace

StatusOr<RngBits> RngBitGenerator(const Tensor& state, RngAlgorithm algorithm, ElementType type,
                                  const std::vector<int64_t>& dims) {
  if (state.type() != ElementType::kUI64 || state.rank() != 1) {
    return InvalidArgument("rng_bit_generator's state must be a ui64 vector");
  }
  const int bits = shlo::BitWidth(type);
  if (shlo::IsComplex(type) || shlo::IsBoolean(type) ||
      (bits != 8 && bits != 16 && bits != 32 && bits != 64)) {
    return Unimplemented("rng_bit_generator output type ", shlo::ElementTypeName(type),
                         " (needs an 8, 16, 32 or 64-bit integer or float type)");
  }
  const uint64_t* s = state.as<uint64_t>();
  const int64_t size = state.num_elements();
  RngBits out{state.Clone(), Tensor(type, dims)};
  uint64_t* new_state = out.state.mutable_as<uint64_t>();
  std::vector<uint64_t> values;
  if (algorithm == RngAlgorithm::kThreeFry) {
    if (size != 2) return InvalidArgument("THREE_FRY needs a state of 2 ui64 words");
    uint64_t counter = s[1];
    values = ThreeFryValues(s[0], counter, bits, dims);
    new_state[1] = counter;
  } else {
    if (size < 2) return InvalidArgument("PHILOX needs a state of 2 or 3 ui64 words");
    // A 2-word state holds the key and the counter's low word; its high
    // word reads as the key, as XLA does (the state is read reversed).
    uint64_t lo = s[1], hi = size >= 3 ? s[2] : s[0];
    values = PhiloxValues(s[0], lo, hi, bits, NumElements(dims));
    new_state[1] = lo;
    if (size >= 3) new_state[2] = hi;
  }
  StoreBits(values, bits, out.bits);
  return out;
}

StatusOr<Tensor> RngUniform(const Tensor& a, const Tensor& b, ElementType type,
                            const std::vector<int64_t>& dims, uint64_t seed) {
  PLUGRT_RETURN_IF_ERROR(CheckScalarOperands(a, b, type));
  if (shlo::IsComplex(type)) return InvalidArgument("rng UNIFORM does not take complex types");
  SplitMix gen(seed);
  const size_t n = static_cast<size_t>(NumElements(dims));
  if (shlo::IsFloat(type)) {
    const double lo = ToDomain<double>(a)[0], hi = ToDomain<double>(b)[0];
    std::vector<double> v(n);
    for (double& x : v) {
      x = lo + (hi - lo) * gen.NextUnit();
      if (!(x < hi)) x = lo;  // rounding must not reach the open bound
    }
    Tensor t = FromDomain<double>(type, dims, v);
    // Narrow types may round up to `hi` on the store; pull those back to lo.
    std::vector<double> stored = ToDomain<double>(t);
    for (double& x : stored) {
      if (!(x < hi)) x = lo;
    }
    return FromDomain<double>(type, dims, stored);
  }
  const int64_t lo = ToDomain<int64_t>(a)[0], hi = ToDomain<int64_t>(b)[0];
  std::vector<int64_t> v(n);
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  for (int64_t& x : v) {
    x = hi <= lo ? lo : static_cast<int64_t>(static_cast<uint64_t>(lo) + gen.Next() % range);
  }
  return FromDomain<int64_t>(type, dims, v);
}

StatusOr<Tensor> RngNormal(const Tensor& a, const Tensor& b, ElementType type,
                           const std::vector<int64_t>& dims, uint64_t seed) {
  PLUGRT_RETURN_IF_ERROR(CheckScalarOperands(a, b, type));
  if (!shlo::IsFloat(type)) return InvalidArgument("rng NORMAL needs a floating-point type");
  SplitMix gen(seed);
  const double mu = ToDomain<double>(a)[0], sigma = ToDomain<double>(b)[0];
  std::vector<double> v(static_cast<size_t>(NumElements(dims)));
  for (double& x : v) {
    // Box-Muller; 1 - u keeps the log's argument in (0, 1].
    double u1 = 1.0 - gen.NextUnit(), u2 = gen.NextUnit();
    x = mu + sigma * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  return FromDomain<double>(type, dims, v);
}

}  // namespace plugrt::cpu
