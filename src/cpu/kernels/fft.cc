#include "cpu/kernels/fft.h"

#include <cmath>
#include <numbers>

#include "cpu/kernels/compute_common.h"

namespace plugrt::cpu {
namespace {

// Transforms run in extended precision so f64 results keep (nearly) full
// accuracy even for the O(n^2) path of non-power-of-two lengths.
using Wide = std::complex<long double>;

// e^(sign * 2 pi i * k / n), with k reduced mod n first so large products
// keep full precision.
Wide Twiddle(int64_t k, int64_t n, long double sign) {
  long double angle = sign * 2.0L * std::numbers::pi_v<long double> *
                      static_cast<long double>(k % n) / static_cast<long double>(n);
  return Wide(std::cos(angle), std::sin(angle));
}

// In-place unnormalised transform of `x` (sign -1 forward, +1 inverse).
void Transform1D(std::vector<Wide>& x, long double sign) {
  const int64_t n = static_cast<int64_t>(x.size());
  if (n <= 1) return;
  if ((n & (n - 1)) != 0) {
    std::vector<Wide> out(x.size());
    for (int64_t k = 0; k < n; ++k) {
      Wide sum = 0;
      for (int64_t j = 0; j < n; ++j) sum += x[j] * Twiddle(j * k, n, sign);
      out[k] = sum;
    }
    x.swap(out);
    return;
  }
  // Iterative radix-2: bit-reversal permutation, then butterflies.
  for (int64_t i = 1, j = 0; i < n; ++i) {
    int64_t bit = n >> 1;
    for (; (j & bit) != 0; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    const int64_t half = len / 2;
    for (int64_t start = 0; start < n; start += len) {
      for (int64_t j = 0; j < half; ++j) {
        Wide w = Twiddle(j, len, sign);
        Wide u = x[start + j], v = x[start + j + half] * w;
        x[start + j] = u + v;
        x[start + j + half] = u - v;
      }
    }
  }
}

// Applies Transform1D along dimension `dim` of row-major `data` (`dims`).
void TransformAlong(std::vector<Complex>& data, const std::vector<int64_t>& dims, size_t dim,
                    double sign) {
  const int64_t length = dims[dim];
  const int64_t stride = RowMajorStrides(dims)[dim];
  const int64_t total = NumElements(dims);
  std::vector<Wide> line(static_cast<size_t>(length));
  for (int64_t start = 0; start < total; ++start) {
    if ((start / stride) % length != 0) continue;
    for (int64_t i = 0; i < length; ++i) line[i] = Wide(data[start + i * stride]);
    Transform1D(line, sign);
    for (int64_t i = 0; i < length; ++i) {
      data[start + i * stride] = Complex(static_cast<double>(line[i].real()),
                                         static_cast<double>(line[i].imag()));
    }
  }
}

// `data` (dims `from`) copied into dims `to` (same rank): truncated or
// zero-padded in every dim.
std::vector<Complex> Resize(const std::vector<Complex>& data, const std::vector<int64_t>& from,
                            const std::vector<int64_t>& to) {
  std::vector<Complex> out(static_cast<size_t>(NumElements(to)), Complex(0, 0));
  if (out.empty() || data.empty()) return out;
  std::vector<int64_t> fs = RowMajorStrides(from);
  std::vector<int64_t> index(to.size(), 0);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t src = 0;
    bool inside = true;
    for (size_t d = 0; d < to.size(); ++d) {
      if (index[d] >= from[d]) {
        inside = false;
        break;
      }
      src += index[d] * fs[d];
    }
    if (inside) out[i] = data[src];
    NextIndex(index, to);
  }
  return out;
}

}  // namespace

StatusOr<std::vector<int64_t>> FftResultDims(const std::vector<int64_t>& operand_dims,
                                             FftType type, const std::vector<int64_t>& fft_length) {
  const size_t l = fft_length.size();
  if (l < 1 || l > 3) return InvalidArgument("fft_length must have 1 to 3 entries");
  if (operand_dims.size() < l) {
    return InvalidArgument("operand rank ", operand_dims.size(), " is below fft_length size ", l);
  }
  for (int64_t n : fft_length) {
    if (n < 0) return InvalidArgument("fft_length entries must be non-negative");
  }
  std::vector<int64_t> dims = operand_dims;
  const size_t first = dims.size() - l;
  for (size_t i = 0; i < l; ++i) {
    int64_t expected = fft_length[i];
    if (type == FftType::kIrfft && i + 1 == l) expected = fft_length[i] / 2 + 1;
    if (dims[first + i] != expected) {
      return InvalidArgument("operand dimension ", first + i, " is ", dims[first + i],
                             ", expected ", expected, " for this fft_length");
    }
  }
  if (type == FftType::kRfft) dims.back() = fft_length.back() / 2 + 1;
  if (type == FftType::kIrfft) dims.back() = fft_length.back();
  return dims;
}

Tensor Fft(const Tensor& operand, FftType type, const std::vector<int64_t>& fft_length,
           ElementType result_type) {
  std::vector<int64_t> result_dims = FftResultDims(operand.dims(), type, fft_length).value();
  const size_t rank = operand.dims().size();
  const size_t first = rank - fft_length.size();
  std::vector<Complex> data = ToDomain<Complex>(operand);
  double scale = 1.0;
  switch (type) {
    case FftType::kFft:
      for (size_t d = first; d < rank; ++d) TransformAlong(data, operand.dims(), d, -1.0);
      break;
    case FftType::kIfft:
      for (size_t d = first; d < rank; ++d) {
        TransformAlong(data, operand.dims(), d, 1.0);
        scale *= static_cast<double>(operand.dims()[d]);
      }
      break;
    case FftType::kRfft:
      // A full complex transform of the real input, keeping the
      // non-redundant half of the last dim.
      for (size_t d = first; d < rank; ++d) TransformAlong(data, operand.dims(), d, -1.0);
      data = Resize(data, operand.dims(), result_dims);
      break;
    case FftType::kIrfft: {
      // Inverse over the leading fft dims, then rebuild the last dim's full
      // Hermitian spectrum and invert it, keeping the real part.
      for (size_t d = first; d + 1 < rank; ++d) {
        TransformAlong(data, operand.dims(), d, 1.0);
        scale *= static_cast<double>(operand.dims()[d]);
      }
      const int64_t n = fft_length.back();
      const int64_t half = operand.dims().back();
      std::vector<Complex> full = Resize(data, operand.dims(), result_dims);
      const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(full.size()) / n;
      for (int64_t r = 0; r < rows; ++r) {
        Complex* row = full.data() + r * n;
        for (int64_t k = half; k < n; ++k) row[k] = std::conj(row[n - k]);
      }
      TransformAlong(full, result_dims, rank - 1, 1.0);
      scale *= static_cast<double>(n);
      std::vector<double> real(full.size());
      for (size_t i = 0; i < full.size(); ++i) real[i] = full[i].real() / scale;
      return FromDomain<double>(result_type, result_dims, real);
    }
  }
  if (scale != 1.0) {
    for (Complex& v : data) v /= scale;
  }
  return FromDomain<Complex>(result_type, result_dims, data);
}

}  // namespace plugrt::cpu
