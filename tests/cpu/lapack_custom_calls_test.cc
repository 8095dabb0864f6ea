// JAX's CPU linear-algebra custom calls (lapack_?<routine>_ffi) through the
// CPU plugin, written as JAX exports them (column-major operand and result
// layouts, leading batch dimensions, attributes in mhlo.backend_config),
// against LAPACKE called directly, in row-major, on each batch element: every
// type, random inputs and ill-conditioned ones (singular, not positive
// definite), info codes included.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#include <cblas.h>

#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

template <typename T>
struct Info;
template <>
struct Info<float> {
  static constexpr const char* kName = "f32";
  static constexpr char kLetter = 's';
  static constexpr PJRT_Buffer_Type kPjrt = PJRT_Buffer_Type_F32;
  static constexpr double kTol = 1e-5;
};
template <>
struct Info<double> {
  static constexpr const char* kName = "f64";
  static constexpr char kLetter = 'd';
  static constexpr PJRT_Buffer_Type kPjrt = PJRT_Buffer_Type_F64;
  static constexpr double kTol = 1e-12;
};
template <>
struct Info<c64> {
  static constexpr const char* kName = "complex<f32>";
  static constexpr char kLetter = 'c';
  static constexpr PJRT_Buffer_Type kPjrt = PJRT_Buffer_Type_C64;
  static constexpr double kTol = 1e-5;
};
template <>
struct Info<c128> {
  static constexpr const char* kName = "complex<f64>";
  static constexpr char kLetter = 'z';
  static constexpr PJRT_Buffer_Type kPjrt = PJRT_Buffer_Type_C128;
  static constexpr double kTol = 1e-12;
};
template <typename T>
struct RealOf {
  using type = T;
};
template <typename T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <typename T>
using Real = typename RealOf<T>::type;
template <typename T>
constexpr bool kComplex = !std::is_same_v<T, Real<T>>;

// One value of the call: element type name, dims, row-major bytes, and
// whether JAX declares it a column-major batch of matrices.
struct Value {
  std::string type;
  std::vector<int64_t> dims;
  bool matrix = true;
  std::vector<std::byte> bytes;
  PJRT_Buffer_Type pjrt = PJRT_Buffer_Type_INVALID;
};

std::string TensorType(const Value& v) {
  std::string s = "tensor<";
  for (int64_t d : v.dims) s += std::to_string(d) + "x";
  return s + v.type + ">";
}

// JAX's layouts: matrices minor-to-major [r-2, r-1, r-3, ..., 0], other
// values row-major.
std::string LayoutOf(const Value& v) {
  const int r = static_cast<int>(v.dims.size());
  std::vector<int> order;
  if (v.matrix && r >= 2) {
    order = {r - 2, r - 1};
    for (int i = r - 3; i >= 0; --i) order.push_back(i);
  } else {
    for (int i = r - 1; i >= 0; --i) order.push_back(i);
  }
  std::string s = "dense<";
  if (r > 0) {
    s += "[";
    for (size_t i = 0; i < order.size(); ++i) s += (i ? ", " : "") + std::to_string(order[i]);
    s += "]";
  }
  return s + "> : tensor<" + std::to_string(r) + "xindex>";
}

std::string Program(const std::string& target, const std::string& config,
                    const std::vector<Value>& operands, const std::vector<Value>& results) {
  auto list = [](const std::vector<Value>& vs, auto fn) {
    std::string s;
    for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + fn(vs[i], i);
    return s;
  };
  const std::string args =
      list(operands, [](const Value& v, size_t i) { return "%arg" + std::to_string(i) + ": " + TensorType(v); });
  const std::string arg_names = list(operands, [](const Value&, size_t i) { return "%arg" + std::to_string(i); });
  const std::string operand_types = list(operands, [](const Value& v, size_t) { return TensorType(v); });
  const std::string result_types = list(results, [](const Value& v, size_t) { return TensorType(v); });
  const std::string operand_layouts = list(operands, [](const Value& v, size_t) { return LayoutOf(v); });
  const std::string result_layouts = list(results, [](const Value& v, size_t) { return LayoutOf(v); });
  const std::string outs = list(results, [&](const Value&, size_t i) {
    return results.size() == 1 ? std::string("%0") : "%0#" + std::to_string(i);
  });
  const std::string lhs = results.size() == 1 ? "%0" : "%0:" + std::to_string(results.size());
  return "func.func public @main(" + args + ") -> (" + result_types + ") {\n  " + lhs +
         " = stablehlo.custom_call @" + target + "(" + arg_names +
         ") {api_version = 4 : i32, mhlo.backend_config = {" + config + "}, operand_layouts = [" +
         operand_layouts + "], result_layouts = [" + result_layouts + "]} : (" + operand_types +
         ") -> (" + result_types + ")\n  return " + outs + " : " + result_types + "\n}\n";
}

template <typename T>
Value Make(const std::vector<int64_t>& dims, const std::vector<T>& data, bool matrix = true) {
  Value v;
  if constexpr (std::is_same_v<T, int32_t>) {
    v.type = "i32";
    v.pjrt = PJRT_Buffer_Type_S32;
  } else {
    v.type = Info<T>::kName;
    v.pjrt = Info<T>::kPjrt;
  }
  v.dims = dims;
  v.matrix = matrix;
  v.bytes.resize(data.size() * sizeof(T));
  if (!data.empty()) std::memcpy(v.bytes.data(), data.data(), v.bytes.size());
  return v;
}
template <typename T>
Value Shape(const std::vector<int64_t>& dims, bool matrix = true) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return Make<T>(dims, std::vector<T>(static_cast<size_t>(n)), matrix);
}

template <typename T>
std::vector<T> As(const std::vector<std::byte>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

class Runner {
 public:
  Runner() {
    auto client = testing::CreateCpuClient();
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
  }

  // Runs the call; the results' row-major bytes, or a failure.
  StatusOr<std::vector<std::vector<std::byte>>> Run(const std::string& target,
                                                    const std::string& config,
                                                    const std::vector<Value>& operands,
                                                    const std::vector<Value>& results) {
    const std::string text = Program(target, config, operands, results);
    PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable exe, client_->Compile(text));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client_->addressable_devices());
    std::vector<Buffer> buffers;
    for (const Value& v : operands) {
      buffers.push_back(testing::Upload(*client_, devices.front(), v.pjrt, v.dims, v.bytes));
    }
    std::vector<Buffer*> args;
    for (Buffer& b : buffers) args.push_back(&b);
    PLUGRT_ASSIGN_OR_RETURN(auto out, exe.Execute({args}));
    std::vector<std::vector<std::byte>> bytes;
    for (size_t i = 0; i < results.size(); ++i) {
      std::vector<std::byte> host(results[i].bytes.size());
      if (!host.empty()) PLUGRT_RETURN_IF_ERROR(out.at(0).at(i).ToHost(host.data(), host.size()));
      bytes.push_back(std::move(host));
    }
    return bytes;
  }

  Client& client() { return *client_; }

 private:
  std::unique_ptr<Client> client_;
};

template <typename T>
T Random(std::mt19937& gen) {
  std::uniform_real_distribution<double> u(-1, 1);
  if constexpr (kComplex<T>) {
    return T(static_cast<Real<T>>(u(gen)), static_cast<Real<T>>(u(gen)));
  } else {
    return static_cast<T>(u(gen));
  }
}

template <typename T>
std::vector<T> RandomMatrices(int64_t count, std::mt19937& gen) {
  std::vector<T> v(static_cast<size_t>(count));
  for (T& x : v) x = Random<T>(gen);
  return v;
}

// Hermitian positive definite n x n (row-major): A A^H + n I.
template <typename T>
std::vector<T> Spd(int n, std::mt19937& gen) {
  std::vector<T> a = RandomMatrices<T>(n * n, gen), s(static_cast<size_t>(n * n));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      T acc{};
      for (int k = 0; k < n; ++k) {
        if constexpr (kComplex<T>) {
          acc += a[i * n + k] * std::conj(a[j * n + k]);
        } else {
          acc += a[i * n + k] * a[j * n + k];
        }
      }
      s[i * n + j] = acc + (i == j ? T(static_cast<Real<T>>(n)) : T(0));
    }
  }
  return s;
}

template <typename T>
void ExpectNear(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 1;
  for (const T& w : want) scale = std::max(scale, static_cast<double>(std::abs(w)));
  for (size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      ASSERT_EQ(got[i], want[i]) << what << " [" << i << "]";
    } else {
      ASSERT_LE(std::abs(got[i] - want[i]), Info<T>::kTol * 10 * scale)
          << what << " [" << i << "]: " << got[i] << " vs " << want[i];
    }
  }
}
template <typename T>
void ExpectNear(const std::vector<std::byte>& got, const std::vector<T>& want,
                const std::string& what) {
  ExpectNear(As<T>(got), want, what);
}

// --- LAPACKE in row-major, one name per routine over the four types ---------

constexpr int kRow = LAPACK_ROW_MAJOR;

#define PLUGRT_PICK_(T, fn, ...)                                                      \
  [&] {                                                                               \
    if constexpr (std::is_same_v<T, float>) return LAPACKE_s##fn(__VA_ARGS__);        \
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_d##fn(__VA_ARGS__);  \
    else if constexpr (std::is_same_v<T, c64>) return LAPACKE_c##fn(__VA_ARGS__);     \
    else return LAPACKE_z##fn(__VA_ARGS__);                                           \
  }()

template <typename T>
class LapackCustomCallTest : public ::testing::Test {
 protected:
  std::string Target(const std::string& real, const std::string& complex) {
    return std::string("lapack_") + Info<T>::kLetter + (kComplex<T> ? complex : real) + "_ffi";
  }
  Runner runner_;
  std::mt19937 gen_{42};
};

using Types = ::testing::Types<float, double, c64, c128>;
TYPED_TEST_SUITE(LapackCustomCallTest, Types);

TYPED_TEST(LapackCustomCallTest, GetrfMatchesLapackWithSingularInputs) {
  using T = TypeParam;
  const int b = 3, m = 5, n = 4, k = 4;
  std::vector<T> x = RandomMatrices<T>(b * m * n, this->gen_);
  // Batch element 1 is singular: its third column is zero.
  for (int i = 0; i < m; ++i) x[m * n + i * n + 2] = T(0);
  auto out = this->runner_.Run(this->Target("getrf", "getrf"), "",
                               {Make<T>({b, m, n}, x)},
                               {Shape<T>({b, m, n}), Shape<int32_t>({b, k}, false),
                                Shape<int32_t>({b}, false)});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<T> lu = x;
  std::vector<int32_t> ipiv(b * k), info(b);
  for (int i = 0; i < b; ++i) {
    info[i] = PLUGRT_PICK_(T, getrf, kRow, m, n, lu.data() + i * m * n, n, ipiv.data() + i * k);
  }
  EXPECT_GT(info[1], 0);
  ExpectNear((*out)[0], lu, "lu");
  ExpectNear((*out)[1], ipiv, "ipiv");
  ExpectNear((*out)[2], info, "info");
}

// A batch large enough to be split over the client's threads (16 matrices
// of order 40): every element's results and info land at its own index, each
// chunk with its own workspace.
TYPED_TEST(LapackCustomCallTest, LargeBatchesMatchLapackElementByElement) {
  using T = TypeParam;
  using R = Real<T>;
  const int b = 16, n = 40;
  std::vector<T> x;
  for (int i = 0; i < b; ++i) {
    std::vector<T> spd = Spd<T>(n, this->gen_);
    x.insert(x.end(), spd.begin(), spd.end());
  }
  // Element 11 is not positive definite (potrf info 7) and singular (getrf).
  for (int j = 0; j < n * n; ++j) x[11 * n * n + j] = T(0);
  for (int j = 0; j < n; ++j) x[11 * n * n + j * n + j] = T(j == 6 ? -1 : 1);
  for (int j = 0; j < n; ++j) x[11 * n * n + j * n + 9] = T(0);
  auto lu = this->runner_.Run(this->Target("getrf", "getrf"), "", {Make<T>({b, n, n}, x)},
                              {Shape<T>({b, n, n}), Shape<int32_t>({b, n}, false),
                               Shape<int32_t>({b}, false)});
  ASSERT_TRUE(lu.ok()) << lu.status().ToString();
  std::vector<T> a = x;
  std::vector<int32_t> ipiv(b * n), info(b);
  for (int i = 0; i < b; ++i) {
    info[i] = PLUGRT_PICK_(T, getrf, kRow, n, n, a.data() + i * n * n, n, ipiv.data() + i * n);
  }
  EXPECT_GT(info[11], 0);
  ExpectNear((*lu)[0], a, "lu");
  ExpectNear((*lu)[1], ipiv, "ipiv");
  ExpectNear((*lu)[2], info, "info");

  auto chol = this->runner_.Run(this->Target("potrf", "potrf"), "uplo = 76 : ui8",
                                {Make<T>({b, n, n}, x)},
                                {Shape<T>({b, n, n}), Shape<int32_t>({b}, false)});
  ASSERT_TRUE(chol.ok()) << chol.status().ToString();
  a = x;
  for (int i = 0; i < b; ++i) info[i] = PLUGRT_PICK_(T, potrf, kRow, 'L', n, a.data() + i * n * n, n);
  EXPECT_EQ(info[11], 7);
  ExpectNear((*chol)[0], a, "factor");
  ExpectNear((*chol)[1], info, "info");

  auto eig = this->runner_.Run(this->Target("syevd", "heevd"), "mode = 78 : ui8, uplo = 76 : ui8",
                               {Make<T>({b, n, n}, x)},
                               {Shape<T>({b, n, n}), Shape<R>({b, n}, false),
                                Shape<int32_t>({b}, false)});
  ASSERT_TRUE(eig.ok()) << eig.status().ToString();
  a = x;
  std::vector<R> w(b * n);
  for (int i = 0; i < b; ++i) {
    if constexpr (kComplex<T>) {
      info[i] = PLUGRT_PICK_(T, heevd, kRow, 'N', 'L', n, a.data() + i * n * n, n, w.data() + i * n);
    } else {
      info[i] = PLUGRT_PICK_(T, syevd, kRow, 'N', 'L', n, a.data() + i * n * n, n, w.data() + i * n);
    }
  }
  ExpectNear((*eig)[1], w, "eigenvalues");
  ExpectNear((*eig)[2], info, "info");
}

TYPED_TEST(LapackCustomCallTest, GeqrfAndOrgqrMatchLapack) {
  using T = TypeParam;
  const int b = 2, m = 6, n = 4;
  std::vector<T> x = RandomMatrices<T>(b * m * n, this->gen_);
  auto qr = this->runner_.Run(this->Target("geqrf", "geqrf"), "", {Make<T>({b, m, n}, x)},
                              {Shape<T>({b, m, n}), Shape<T>({b, n}, false)});
  ASSERT_TRUE(qr.ok()) << qr.status().ToString();
  std::vector<T> a = x, tau(b * n);
  for (int i = 0; i < b; ++i) {
    ASSERT_EQ(PLUGRT_PICK_(T, geqrf, kRow, m, n, a.data() + i * m * n, n, tau.data() + i * n), 0);
  }
  ExpectNear((*qr)[0], a, "qr");
  ExpectNear((*qr)[1], tau, "tau");

  auto q = this->runner_.Run(this->Target("orgqr", "ungqr"), "",
                             {Make<T>({b, m, n}, a), Make<T>({b, n}, tau, false)},
                             {Shape<T>({b, m, n})});
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  for (int i = 0; i < b; ++i) {
    if constexpr (kComplex<T>) {
      ASSERT_EQ(PLUGRT_PICK_(T, ungqr, kRow, m, n, n, a.data() + i * m * n, n, tau.data() + i * n), 0);
    } else {
      ASSERT_EQ(PLUGRT_PICK_(T, orgqr, kRow, m, n, n, a.data() + i * m * n, n, tau.data() + i * n), 0);
    }
  }
  ExpectNear((*q)[0], a, "q");
}

TYPED_TEST(LapackCustomCallTest, Geqp3MatchesLapack) {
  using T = TypeParam;
  const int b = 2, m = 5, n = 4, k = 4;
  std::vector<T> x = RandomMatrices<T>(b * m * n, this->gen_);
  // Element 1 pins its last column first (a nonzero jpvt entry).
  std::vector<int32_t> jpvt(b * n, 0);
  jpvt[n + 3] = 1;
  auto out = this->runner_.Run(this->Target("geqp3", "geqp3"), "",
                               {Make<T>({b, m, n}, x), Make<int32_t>({b, n}, jpvt, false)},
                               {Shape<T>({b, m, n}), Shape<int32_t>({b, n}, false), Shape<T>({b, k}, false)});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<T> a = x, tau(b * k);
  std::vector<int32_t> p = jpvt;
  for (int i = 0; i < b; ++i) {
    ASSERT_EQ(PLUGRT_PICK_(T, geqp3, kRow, m, n, a.data() + i * m * n, n, p.data() + i * n, tau.data() + i * k), 0);
  }
  EXPECT_EQ(p[n], 4);
  ExpectNear((*out)[0], a, "qr");
  ExpectNear((*out)[1], p, "jpvt");
  ExpectNear((*out)[2], tau, "tau");
}

TYPED_TEST(LapackCustomCallTest, PotrfMatchesLapackAndReportsIndefiniteInputs) {
  using T = TypeParam;
  const int b = 2, n = 5;
  std::vector<T> x = Spd<T>(n, this->gen_);
  std::vector<T> bad(n * n, T(0));
  for (int i = 0; i < n; ++i) bad[i * n + i] = T(i == 2 ? -1 : 1);  // info 3
  x.insert(x.end(), bad.begin(), bad.end());
  for (char uplo : {'L', 'U'}) {
    // The triangle potrf does not read holds other values, which the result
    // keeps as LAPACK leaves them.
    std::vector<T> y = x;
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        if (uplo == 'L' ? c > r : c < r) y[r * n + c] = T(100 + r * n + c);
      }
    }
    auto out = this->runner_.Run(this->Target("potrf", "potrf"),
                                 "uplo = " + std::to_string(int(uplo)) + " : ui8",
                                 {Make<T>({b, n, n}, y)},
                                 {Shape<T>({b, n, n}), Shape<int32_t>({b}, false)});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    std::vector<T> a = y;
    std::vector<int32_t> info(b);
    for (int i = 0; i < b; ++i) info[i] = PLUGRT_PICK_(T, potrf, kRow, uplo, n, a.data() + i * n * n, n);
    EXPECT_EQ(info[1], 3);
    ExpectNear((*out)[0], a, std::string("factor ") + uplo);
    ExpectNear((*out)[1], info, "info");
  }
}

// A single matrix of order 1024 runs on OpenBLAS's own threads while
// plugrt's team sleeps (smaller ones run on one thread): same factors as
// LAPACK. f32 only, to keep the suite quick; the matrix is diagonally
// dominant, so getrf needs no pivoting and both factorizations are stable.
TYPED_TEST(LapackCustomCallTest, SingleLargeMatricesMatchLapack) {
  using T = TypeParam;
  if constexpr (!std::is_same_v<T, float>) {
    GTEST_SKIP() << "f32 only";
  } else {
    const int n = 1024;
    std::vector<T> x(static_cast<size_t>(n) * n);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (int i = 0; i < n; ++i) {
      x[static_cast<size_t>(i) * n + i] = static_cast<float>(n);
      for (int j = 0; j < i; ++j) {
        x[static_cast<size_t>(i) * n + j] = x[static_cast<size_t>(j) * n + i] = uniform(this->gen_);
      }
    }
    auto chol = this->runner_.Run(this->Target("potrf", "potrf"), "uplo = 76 : ui8",
                                  {Make<T>({n, n}, x)}, {Shape<T>({n, n}), Shape<int32_t>({}, false)});
    ASSERT_TRUE(chol.ok()) << chol.status().ToString();
    std::vector<T> a = x;
    std::vector<int32_t> info = {PLUGRT_PICK_(T, potrf, kRow, 'L', n, a.data(), n)};
    ExpectNear((*chol)[0], a, "factor");
    ExpectNear((*chol)[1], info, "info");

    auto lu = this->runner_.Run(this->Target("getrf", "getrf"), "", {Make<T>({n, n}, x)},
                                {Shape<T>({n, n}), Shape<int32_t>({n}, false), Shape<int32_t>({}, false)});
    ASSERT_TRUE(lu.ok()) << lu.status().ToString();
    a = x;
    std::vector<int32_t> ipiv(n);
    info = {PLUGRT_PICK_(T, getrf, kRow, n, n, a.data(), n, ipiv.data())};
    ExpectNear((*lu)[0], a, "lu");
    ExpectNear((*lu)[1], ipiv, "ipiv");
    ExpectNear((*lu)[2], info, "info");
  }
}

TYPED_TEST(LapackCustomCallTest, SyevdHeevdMatchLapack) {
  using T = TypeParam;
  using R = Real<T>;
  const int n = 6;
  std::vector<T> x = Spd<T>(n, this->gen_);
  std::vector<T> y = RandomMatrices<T>(n * n, this->gen_);  // only one triangle read
  x.insert(x.end(), y.begin(), y.end());
  const int b = 2;
  for (char mode : {'V', 'N'}) {
    auto out = this->runner_.Run(
        this->Target("syevd", "heevd"),
        "mode = " + std::to_string(int(mode)) + " : ui8, uplo = 76 : ui8",
        {Make<T>({b, n, n}, x)},
        {Shape<T>({b, n, n}), Shape<R>({b, n}, false), Shape<int32_t>({b}, false)});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    std::vector<T> a = x;
    std::vector<R> w(b * n);
    std::vector<int32_t> info(b);
    for (int i = 0; i < b; ++i) {
      if constexpr (kComplex<T>) {
        info[i] = PLUGRT_PICK_(T, heevd, kRow, mode, 'L', n, a.data() + i * n * n, n, w.data() + i * n);
      } else {
        info[i] = PLUGRT_PICK_(T, syevd, kRow, mode, 'L', n, a.data() + i * n * n, n, w.data() + i * n);
      }
    }
    ExpectNear((*out)[1], w, "eigenvalues");
    ExpectNear((*out)[2], info, "info");
    if (mode == 'V') ExpectNear((*out)[0], a, "eigenvectors");
  }
}

TYPED_TEST(LapackCustomCallTest, GesddAndGesvdMatchLapack) {
  using T = TypeParam;
  using R = Real<T>;
  const int b = 2, m = 5, n = 3, k = 3;
  std::vector<T> x = RandomMatrices<T>(b * m * n, this->gen_);
  // Rank-deficient second element: two equal columns.
  for (int i = 0; i < m; ++i) x[m * n + i * n + 1] = x[m * n + i * n + 0];
  for (const char* routine : {"gesdd", "gesvd"}) {
    for (char mode : {'A', 'S', 'N'}) {
      // Mode 'N' (compute_uv=False): JAX still passes u and vt of the 'S' shapes.
      const int ucols = mode == 'A' ? m : k, vrows = mode == 'A' ? n : k;
      auto out = this->runner_.Run(
          this->Target(routine, routine), "mode = " + std::to_string(int(mode)) + " : ui8",
          {Make<T>({b, m, n}, x)},
          {Shape<T>({b, m, n}), Shape<R>({b, k}, false), Shape<T>({b, m, ucols}),
           Shape<T>({b, vrows, n}), Shape<int32_t>({b}, false)});
      ASSERT_TRUE(out.ok()) << out.status().ToString();
      std::vector<T> a = x, u(b * m * ucols), vt(b * vrows * n);
      std::vector<R> s(b * k), superb(k);
      std::vector<int32_t> info(b);
      for (int i = 0; i < b; ++i) {
        T* ai = a.data() + i * m * n;
        T* ui = u.data() + i * m * ucols;
        T* vi = vt.data() + i * vrows * n;
        info[i] = std::string(routine) == "gesdd"
                      ? PLUGRT_PICK_(T, gesdd, kRow, mode, m, n, ai, n, s.data() + i * k, ui, ucols, vi, n)
                      : PLUGRT_PICK_(T, gesvd, kRow, mode, mode, m, n, ai, n, s.data() + i * k, ui, ucols,
                                     vi, n, superb.data());
      }
      const std::string what = std::string(routine) + " " + mode;
      ExpectNear((*out)[1], s, what + " s");
      if (mode != 'N') {
        ExpectNear((*out)[2], u, what + " u");
        ExpectNear((*out)[3], vt, what + " vt");
      }
      ExpectNear((*out)[4], info, what + " info");
    }
  }
}

TYPED_TEST(LapackCustomCallTest, TrsmMatchesBlas) {
  using T = TypeParam;
  const int b = 2, m = 4, n = 3;
  std::vector<T> a = RandomMatrices<T>(b * m * m, this->gen_);
  for (int i = 0; i < b; ++i) {
    for (int j = 0; j < m; ++j) a[i * m * m + j * m + j] += T(4);  // well conditioned
  }
  std::vector<T> y = RandomMatrices<T>(b * m * n, this->gen_);
  for (char trans : {'N', 'T', 'C'}) {
    auto out = this->runner_.Run(
        this->Target("trsm", "trsm"),
        "diag = 78 : ui8, side = 76 : ui8, trans_x = " + std::to_string(int(trans)) +
            " : ui8, uplo = 76 : ui8",
        {Make<T>({b, m, m}, a), Make<T>({b, m, n}, y)}, {Shape<T>({b, m, n})});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    std::vector<T> want = y;
    const CBLAS_TRANSPOSE t = trans == 'N' ? CblasNoTrans : trans == 'T' ? CblasTrans : CblasConjTrans;
    for (int i = 0; i < b; ++i) {
      const T one(1);
      T* bi = want.data() + i * m * n;
      const T* ai = a.data() + i * m * m;
      if constexpr (std::is_same_v<T, float>) {
        cblas_strsm(CblasRowMajor, CblasLeft, CblasLower, t, CblasNonUnit, m, n, one, ai, m, bi, n);
      } else if constexpr (std::is_same_v<T, double>) {
        cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, t, CblasNonUnit, m, n, one, ai, m, bi, n);
      } else if constexpr (std::is_same_v<T, c64>) {
        cblas_ctrsm(CblasRowMajor, CblasLeft, CblasLower, t, CblasNonUnit, m, n, &one, ai, m, bi, n);
      } else {
        cblas_ztrsm(CblasRowMajor, CblasLeft, CblasLower, t, CblasNonUnit, m, n, &one, ai, m, bi, n);
      }
    }
    ExpectNear((*out)[0], want, std::string("trsm ") + trans);
  }
}

TYPED_TEST(LapackCustomCallTest, GtsvMatchesLapackWithSingularSystems) {
  using T = TypeParam;
  const int b = 2, n = 5, nrhs = 2;
  std::vector<T> dl = RandomMatrices<T>(b * n, this->gen_), d = RandomMatrices<T>(b * n, this->gen_),
                 du = RandomMatrices<T>(b * n, this->gen_), rhs = RandomMatrices<T>(b * n * nrhs, this->gen_);
  for (int i = 0; i < n; ++i) d[i] += T(4);
  for (int i = 0; i < n; ++i) dl[n + i] = d[n + i] = du[n + i] = T(0);  // singular: info 1
  dl[0] = dl[n] = du[n - 1] = du[2 * n - 1] = T(0);
  auto out = this->runner_.Run(
      this->Target("gtsv", "gtsv"), "",
      {Make<T>({b, n}, dl, false), Make<T>({b, n}, d, false), Make<T>({b, n}, du, false),
       Make<T>({b, n, nrhs}, rhs)},
      {Shape<T>({b, n}, false), Shape<T>({b, n}, false), Shape<T>({b, n}, false),
       Shape<T>({b, n, nrhs}), Shape<int32_t>({b}, false)});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<T> x = rhs, dl2 = dl, d2 = d, du2 = du;
  std::vector<int32_t> info(b);
  for (int i = 0; i < b; ++i) {
    info[i] = PLUGRT_PICK_(T, gtsv, kRow, n, nrhs, dl2.data() + i * n + 1, d2.data() + i * n,
                           du2.data() + i * n, x.data() + i * n * nrhs, nrhs);
  }
  EXPECT_GT(info[1], 0);
  ExpectNear((*out)[4], info, "info");
  // The solution of the solvable system; the singular one's is partial.
  const std::vector<T> solution = As<T>((*out)[3]);
  ExpectNear(std::vector<T>(solution.begin(), solution.begin() + n * nrhs),
             std::vector<T>(x.begin(), x.begin() + n * nrhs), "solution");
  ExpectNear((*out)[1], d2, "factored diagonal");
}

TYPED_TEST(LapackCustomCallTest, GehrdAndSytrdMatchLapack) {
  using T = TypeParam;
  using R = Real<T>;
  const int b = 2, n = 5;
  std::vector<T> x = RandomMatrices<T>(b * n * n, this->gen_);
  auto h = this->runner_.Run(this->Target("gehrd", "gehrd"), "high = 5 : i32, low = 1 : i32",
                             {Make<T>({b, n, n}, x)},
                             {Shape<T>({b, n, n}), Shape<T>({b, n - 1}, false), Shape<int32_t>({b}, false)});
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  std::vector<T> a = x, tau(b * (n - 1));
  for (int i = 0; i < b; ++i) {
    ASSERT_EQ(PLUGRT_PICK_(T, gehrd, kRow, n, 1, n, a.data() + i * n * n, n, tau.data() + i * (n - 1)), 0);
  }
  ExpectNear((*h)[0], a, "hessenberg");
  ExpectNear((*h)[1], tau, "tau");

  auto t = this->runner_.Run(this->Target("sytrd", "hetrd"), "uplo = 76 : ui8", {Make<T>({b, n, n}, x)},
                             {Shape<T>({b, n, n}), Shape<R>({b, n}, false), Shape<R>({b, n - 1}, false),
                              Shape<T>({b, n - 1}, false), Shape<int32_t>({b}, false)});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  std::vector<T> s = x;
  std::vector<R> dd(b * n), e(b * (n - 1));
  for (int i = 0; i < b; ++i) {
    T* si = s.data() + i * n * n;
    if constexpr (kComplex<T>) {
      ASSERT_EQ(PLUGRT_PICK_(T, hetrd, kRow, 'L', n, si, n, dd.data() + i * n, e.data() + i * (n - 1),
                             tau.data() + i * (n - 1)), 0);
    } else {
      ASSERT_EQ(PLUGRT_PICK_(T, sytrd, kRow, 'L', n, si, n, dd.data() + i * n, e.data() + i * (n - 1),
                             tau.data() + i * (n - 1)), 0);
    }
  }
  ExpectNear((*t)[0], s, "tridiagonal form");
  ExpectNear((*t)[1], dd, "diagonal");
  ExpectNear((*t)[2], e, "off-diagonal");
  ExpectNear((*t)[3], tau, "tau");
}

TYPED_TEST(LapackCustomCallTest, GeevAndGeesEigenvaluesMatchLapack) {
  using T = TypeParam;
  using C = std::complex<Real<T>>;
  const int b = 2, n = 4;
  std::vector<T> x = RandomMatrices<T>(b * n * n, this->gen_);
  std::vector<C> want(b * n);
  for (int i = 0; i < b; ++i) {
    std::vector<T> a(x.begin() + i * n * n, x.begin() + (i + 1) * n * n);
    if constexpr (kComplex<T>) {
      std::vector<T> w(n);
      ASSERT_EQ(PLUGRT_PICK_(T, geev, kRow, 'N', 'N', n, a.data(), n, w.data(), nullptr, 1, nullptr, 1), 0);
      for (int j = 0; j < n; ++j) want[i * n + j] = w[j];
    } else {
      std::vector<T> wr(n), wi(n);
      ASSERT_EQ(PLUGRT_PICK_(T, geev, kRow, 'N', 'N', n, a.data(), n, wr.data(), wi.data(), nullptr, 1, nullptr, 1), 0);
      for (int j = 0; j < n; ++j) want[i * n + j] = C(wr[j], wi[j]);
    }
  }
  const std::string config = "compute_left = 86 : ui8, compute_right = 86 : ui8";
  StatusOr<std::vector<std::vector<std::byte>>> out = Status(StatusCode::kInternal, "unset");
  std::vector<C> got(b * n);
  if constexpr (kComplex<T>) {
    out = this->runner_.Run(this->Target("geev", "geev"), config, {Make<T>({b, n, n}, x)},
                            {Shape<T>({b, n}, false), Shape<T>({b, n, n}), Shape<T>({b, n, n}),
                             Shape<int32_t>({b}, false)});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    got = As<C>((*out)[0]);
  } else {
    out = this->runner_.Run(this->Target("geev", "geev"), config, {Make<T>({b, n, n}, x)},
                            {Shape<T>({b, n}, false), Shape<T>({b, n}, false), Shape<C>({b, n, n}),
                             Shape<C>({b, n, n}), Shape<int32_t>({b}, false)});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    std::vector<T> wr = As<T>((*out)[0]), wi = As<T>((*out)[1]);
    for (int j = 0; j < b * n; ++j) got[j] = C(wr[j], wi[j]);
    // Right eigenvectors: A v = lambda v for each column v (column-major in
    // the result's declared layout, row-major here).
    std::vector<C> vr = As<C>((*out)[3]);
    for (int i = 0; i < b; ++i) {
      for (int j = 0; j < n; ++j) {
        for (int r = 0; r < n; ++r) {
          C av{};
          for (int c = 0; c < n; ++c) av += C(x[i * n * n + r * n + c]) * vr[i * n * n + c * n + j];
          EXPECT_LE(std::abs(av - got[i * n + j] * vr[i * n * n + r * n + j]), 1e-3);
        }
      }
    }
  }
  ExpectNear(got, want, "eigenvalues");
  ExpectNear((*out)[kComplex<T> ? 3 : 4], std::vector<int32_t>(b, 0), "info");

  // The Schur form's eigenvalues are geev's (in LAPACK's order for both).
  std::vector<Value> schur_results = {Shape<T>({b, n, n}), Shape<T>({b, n, n}), Shape<T>({b, n}, false)};
  if (!kComplex<T>) schur_results.push_back(Shape<T>({b, n}, false));
  schur_results.push_back(Shape<int32_t>({b}, false));
  schur_results.push_back(Shape<int32_t>({b}, false));
  auto schur = this->runner_.Run(this->Target("gees", "gees"), "mode = 86 : ui8, sort = 78 : ui8",
                                 {Make<T>({b, n, n}, x)}, schur_results);
  ASSERT_TRUE(schur.ok()) << schur.status().ToString();
  std::vector<T> t = x, vs(b * n * n);
  std::vector<C> schur_want(b * n);
  for (int i = 0; i < b; ++i) {
    lapack_int sdim = 0;
    T* ti = t.data() + i * n * n;
    if constexpr (kComplex<T>) {
      std::vector<T> w(n);
      ASSERT_EQ(PLUGRT_PICK_(T, gees, kRow, 'V', 'N', nullptr, n, ti, n, &sdim, w.data(), vs.data() + i * n * n, n), 0);
      for (int j = 0; j < n; ++j) schur_want[i * n + j] = w[j];
    } else {
      std::vector<T> wr(n), wi(n);
      ASSERT_EQ(PLUGRT_PICK_(T, gees, kRow, 'V', 'N', nullptr, n, ti, n, &sdim, wr.data(), wi.data(),
                             vs.data() + i * n * n, n), 0);
      for (int j = 0; j < n; ++j) schur_want[i * n + j] = C(wr[j], wi[j]);
    }
  }
  ExpectNear((*schur)[0], t, "schur form");
  ExpectNear((*schur)[1], vs, "schur vectors");
}

// Empty matrices and empty batches run (LAPACK returns at once) and give
// empty results and zero info codes.
TEST(LapackCustomCallEdges, EmptyMatricesAndBatches) {
  Runner runner;
  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{2, 0, 0}, std::vector<int64_t>{0, 3, 3}}) {
    const int64_t b = dims[0], n = dims[1];
    auto lu = runner.Run("lapack_dgetrf_ffi", "", {Shape<double>(dims)},
                         {Shape<double>(dims), Shape<int32_t>({b, n}, false), Shape<int32_t>({b}, false)});
    ASSERT_TRUE(lu.ok()) << lu.status().ToString();
    ExpectNear((*lu)[2], std::vector<int32_t>(static_cast<size_t>(b), 0), "getrf info");
    auto chol = runner.Run("lapack_zpotrf_ffi", "uplo = 85 : ui8", {Shape<c128>(dims)},
                           {Shape<c128>(dims), Shape<int32_t>({b}, false)});
    ASSERT_TRUE(chol.ok()) << chol.status().ToString();
    auto eig = runner.Run("lapack_ssyevd_ffi", "mode = 86 : ui8, uplo = 76 : ui8", {Shape<float>(dims)},
                          {Shape<float>(dims), Shape<float>({b, n}, false), Shape<int32_t>({b}, false)});
    ASSERT_TRUE(eig.ok()) << eig.status().ToString();
    auto qr = runner.Run("lapack_cgeqrf_ffi", "", {Shape<c64>(dims)},
                         {Shape<c64>(dims), Shape<c64>({b, n}, false)});
    ASSERT_TRUE(qr.ok()) << qr.status().ToString();
    auto schur = runner.Run("lapack_dgees_ffi", "mode = 86 : ui8, sort = 78 : ui8", {Shape<double>(dims)},
                            {Shape<double>(dims), Shape<double>(dims), Shape<double>({b, n}, false),
                             Shape<double>({b, n}, false), Shape<int32_t>({b}, false), Shape<int32_t>({b}, false)});
    ASSERT_TRUE(schur.ok()) << schur.status().ToString();
  }
}

TEST(LapackCustomCallErrors, WrongShapesAndAttributesAreRefusedAtCompileTime) {
  Runner runner;
  // A result of the wrong shape.
  std::string text = Program("lapack_sgetrf_ffi", "", {Shape<float>({3, 3})},
                             {Shape<float>({3, 3}), Shape<int32_t>({2}, false), Shape<int32_t>({}, false)});
  auto exe = runner.client().Compile(text);
  ASSERT_FALSE(exe.ok());
  EXPECT_EQ(exe.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(exe.status().message().find("lapack_sgetrf_ffi"), std::string::npos) << exe.status().ToString();
  // A missing attribute, and a bad one.
  text = Program("lapack_dpotrf_ffi", "", {Shape<double>({3, 3})},
                 {Shape<double>({3, 3}), Shape<int32_t>({}, false)});
  exe = runner.client().Compile(text);
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("'uplo'"), std::string::npos) << exe.status().ToString();
  text = Program("lapack_dpotrf_ffi", "uplo = 88 : ui8", {Shape<double>({3, 3})},
                 {Shape<double>({3, 3}), Shape<int32_t>({}, false)});
  exe = runner.client().Compile(text);
  ASSERT_FALSE(exe.ok());
  EXPECT_EQ(exe.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(exe.status().message().find("uplo"), std::string::npos) << exe.status().ToString();
}

// The spellings before the FFI move, as JAX exported them: sizes and flags as
// leading scalar operands, LAPACK workspaces as extra (here tupled) results.
TEST(LapackLegacyCustomCalls, RunAsTheirFfiForms) {
  Runner runner;
  const std::string text = R"(
func.func public @main(%a: tensor<3x3xf64>, %t: tensor<3x3xf64>, %b: tensor<3x2xf64>)
    -> (tensor<3x3xf64>, tensor<3xi32>, tensor<i32>, tensor<3x3xf64>, tensor<3xf64>, tensor<i32>, tensor<3x2xf64>) {
  %one64 = stablehlo.constant dense<1> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %lwork = stablehlo.constant dense<96> : tensor<i32>
  %lu:3 = stablehlo.custom_call @lapack_dgetrf(%one64, %three, %three, %a) {api_version = 2 : i32, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<i64>, tensor<i32>, tensor<i32>, tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xi32>, tensor<i32>)
  %qr = stablehlo.custom_call @lapack_dgeqrf(%one, %three, %three, %lwork, %a) {api_version = 2 : i32, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<3x3xf64>) -> tuple<tensor<3x3xf64>, tensor<3xf64>, tensor<i32>, tensor<96xf64>>
  %q0 = stablehlo.get_tuple_element %qr[0] : (tuple<tensor<3x3xf64>, tensor<3xf64>, tensor<i32>, tensor<96xf64>>) -> tensor<3x3xf64>
  %q1 = stablehlo.get_tuple_element %qr[1] : (tuple<tensor<3x3xf64>, tensor<3xf64>, tensor<i32>, tensor<96xf64>>) -> tensor<3xf64>
  %q2 = stablehlo.get_tuple_element %qr[2] : (tuple<tensor<3x3xf64>, tensor<3xf64>, tensor<i32>, tensor<96xf64>>) -> tensor<i32>
  %alpha = stablehlo.constant dense<1.0> : tensor<f64>
  %x = stablehlo.custom_call @blas_dtrsm(%one, %one, %zero, %zero, %three, %two, %one, %alpha, %t, %b) {api_version = 2 : i32, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<f64>, tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  return %lu#0, %lu#1, %lu#2, %q0, %q1, %q2, %x : tensor<3x3xf64>, tensor<3xi32>, tensor<i32>, tensor<3x3xf64>, tensor<3xf64>, tensor<i32>, tensor<3x2xf64>
})";
  std::mt19937 gen(7);
  const std::vector<double> a = RandomMatrices<double>(9, gen);
  std::vector<double> t = RandomMatrices<double>(9, gen);
  for (int i = 0; i < 3; ++i) t[i * 3 + i] += 4;
  const std::vector<double> b = RandomMatrices<double>(6, gen);
  auto exe = runner.client().Compile(text);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto devices = runner.client().addressable_devices();
  ASSERT_TRUE(devices.ok());
  Buffer ba = testing::Upload(runner.client(), devices->front(), PJRT_Buffer_Type_F64, {3, 3}, a);
  Buffer bt = testing::Upload(runner.client(), devices->front(), PJRT_Buffer_Type_F64, {3, 3}, t);
  Buffer bb = testing::Upload(runner.client(), devices->front(), PJRT_Buffer_Type_F64, {3, 2}, b);
  auto out = exe->Execute({{&ba, &bt, &bb}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto host = [&](size_t i, size_t bytes) {
    std::vector<std::byte> v(bytes);
    EXPECT_TRUE(out->at(0).at(i).ToHost(v.data(), bytes).ok());
    return v;
  };
  std::vector<double> lu = a, qr = a, tau(3), x = b;
  std::vector<int32_t> ipiv(3);
  const int32_t lu_info = LAPACKE_dgetrf(kRow, 3, 3, lu.data(), 3, ipiv.data());
  const int32_t qr_info = LAPACKE_dgeqrf(kRow, 3, 3, qr.data(), 3, tau.data());
  cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 3, 2, 1.0, t.data(), 3,
              x.data(), 2);
  ExpectNear(host(0, 72), lu, "lu");
  ExpectNear(host(1, 12), ipiv, "ipiv");
  ExpectNear(host(2, 4), std::vector<int32_t>{lu_info}, "getrf info");
  ExpectNear(host(3, 72), qr, "qr");
  ExpectNear(host(4, 24), tau, "tau");
  ExpectNear(host(5, 4), std::vector<int32_t>{qr_info}, "geqrf info");
  ExpectNear(host(6, 48), x, "trsm");
}

TEST(LapackLegacyCustomCalls, SizeOperandsThatDisagreeAreAnError) {
  Runner runner;
  const std::string text = R"(
func.func public @main(%a: tensor<3x3xf32>) -> tensor<i32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %four = stablehlo.constant dense<4> : tensor<i32>
  %r:2 = stablehlo.custom_call @lapack_spotrf(%one, %one, %four, %a) {api_version = 2 : i32, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  return %r#1 : tensor<i32>
})";
  auto exe = runner.client().Compile(text);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto devices = runner.client().addressable_devices();
  ASSERT_TRUE(devices.ok());
  Buffer ba = testing::Upload(runner.client(), devices->front(), PJRT_Buffer_Type_F32, {3, 3},
                              std::vector<float>(9, 1.0f));
  auto out = exe->Execute({{&ba}});
  int32_t info = 0;
  Status status = out.ok() ? out->at(0).at(0).ToHost(&info, sizeof(info)) : out.status();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("size operands say 4"), std::string::npos) << status.ToString();
}

// --- JAX's older CPU FFT custom calls (ducc_fft, dynamic_ducc_fft) --------

// Little-endian flatbuffer bytes, laid out by hand: the root offset, a
// vtable of field offsets, the table, then its vectors.
class FlatBuilder {
 public:
  // `fields` slots; fields lie at offsets 4 to 4 + table_size of the table
  // (the first 4 bytes link it to its vtable).
  FlatBuilder(int fields, size_t table_size)
      : vtable_size_(4 + 2 * fields), table_(4 + ((vtable_size_ + 3) / 4) * 4) {
    bytes_.resize(table_ + 4 + table_size);
    Put<uint32_t>(0, static_cast<uint32_t>(table_));
    Put<uint16_t>(4, static_cast<uint16_t>(vtable_size_));
    Put<uint16_t>(6, static_cast<uint16_t>(4 + table_size));
    Put<int32_t>(table_, static_cast<int32_t>(table_ - 4));
  }
  template <typename T>
  void Scalar(int id, size_t at, T value) {
    Slot(id, at);
    Put<T>(table_ + at, value);
  }
  template <typename T>
  void Vector(int id, size_t at, const std::vector<T>& values) {
    Slot(id, at);
    const size_t start = bytes_.size();
    bytes_.resize(start + 4 + values.size() * sizeof(T));
    Put<uint32_t>(start, static_cast<uint32_t>(values.size()));
    if (!values.empty()) std::memcpy(&bytes_[start + 4], values.data(), values.size() * sizeof(T));
    Put<uint32_t>(table_ + at, static_cast<uint32_t>(start - (table_ + at)));
  }
  // The bytes as a dense<...> : tensor<Nxui8> literal.
  std::string Constant() const {
    std::string s = "dense<[";
    for (size_t i = 0; i < bytes_.size(); ++i) s += (i ? ", " : "") + std::to_string(bytes_[i]);
    return s + "]> : tensor<" + std::to_string(bytes_.size()) + "xui8>";
  }
  size_t size() const { return bytes_.size(); }

 private:
  template <typename T>
  void Put(size_t at, T value) {
    std::memcpy(&bytes_[at], &value, sizeof(T));
  }
  void Slot(int id, size_t at) { Put<uint16_t>(8 + 2 * id, static_cast<uint16_t>(at)); }

  size_t vtable_size_;
  size_t table_;
  std::vector<uint8_t> bytes_;
};

struct DuccCase {
  int8_t dtype;     // 0 complex64, 1 complex128
  int8_t fft_type;  // 0 C2C, 1 C2R, 2 R2C
  std::vector<uint64_t> shape;  // the real-domain shape for C2R
  std::vector<int64_t> in_dims, out_dims;
  std::vector<uint32_t> axes;
  bool forward;
  double scale;
};

std::vector<uint64_t> RowMajor(const std::vector<int64_t>& dims) {
  std::vector<uint64_t> strides(dims.size());
  uint64_t stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= static_cast<uint64_t>(dims[i]);
  }
  return strides;
}

FlatBuilder StaticDescriptor(const DuccCase& c) {
  FlatBuilder b(8, 28);  // fields at table offsets: bytes 4, 5, 6; scale 8; vectors 16..28
  b.Scalar<int8_t>(0, 4, c.dtype);
  b.Scalar<int8_t>(1, 5, c.fft_type);
  b.Scalar<uint8_t>(6, 6, c.forward ? 1 : 0);
  b.Scalar<double>(7, 8, c.scale);
  b.Vector<uint64_t>(2, 16, c.shape);
  b.Vector<uint64_t>(3, 20, RowMajor(c.in_dims));
  b.Vector<uint64_t>(4, 24, RowMajor(c.out_dims));
  b.Vector<uint32_t>(5, 28, c.axes);
  return b;
}

std::string TypeText(const std::vector<int64_t>& dims, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + element + ">";
}

class DuccFftTest : public ::testing::Test {
 public:
  void SetUp() override {
    PLUGRT_ASSERT_OK_AND_ASSIGN(client_, testing::CreateCpuClient());
  }
  // Runs `program` on `x` (row-major values of `pjrt` and `dims`); the bytes
  // of its one result.
  template <typename T>
  StatusOr<std::vector<std::byte>> Run(const std::string& program, PJRT_Buffer_Type pjrt,
                                       const std::vector<int64_t>& dims, const std::vector<T>& x) {
    PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable exe, client_->Compile(program));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client_->addressable_devices());
    Buffer in = testing::Upload(*client_, devices.front(), pjrt, dims, x);
    PLUGRT_ASSIGN_OR_RETURN(auto out, exe.Execute({{&in}}));
    return out.at(0).at(0).ToHostVector();
  }
  std::unique_ptr<Client> client_;
};

// ducc_fft and stablehlo.fft on the same input agree; `extra` multiplies the
// reference (the descriptor's scale beyond the usual one).
template <typename In>
void ExpectMatchesBuiltIn(DuccFftTest* test, const DuccCase& c, const std::string& in_type,
                          const std::string& out_type, PJRT_Buffer_Type pjrt,
                          const std::string& fft_type, const std::string& length, double extra) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  int64_t n = 1;
  for (int64_t d : c.in_dims) n *= d;
  std::vector<In> x(static_cast<size_t>(n));
  for (In& v : x) {
    if constexpr (kComplex<In>) {
      v = In(static_cast<Real<In>>(dist(rng)), static_cast<Real<In>>(dist(rng)));
    } else {
      v = static_cast<In>(dist(rng));
    }
  }
  const std::string in_t = TypeText(c.in_dims, in_type), out_t = TypeText(c.out_dims, out_type);
  const FlatBuilder descriptor = StaticDescriptor(c);
  const std::string d_t = "tensor<" + std::to_string(descriptor.size()) + "xui8>";
  const std::string ducc = "func.func @main(%x: " + in_t + ") -> " + out_t + " {\n  %d = stablehlo.constant " +
                           descriptor.Constant() + "\n  %0 = stablehlo.custom_call @ducc_fft(%d, %x) {api_version = 2 : i32} : (" +
                           d_t + ", " + in_t + ") -> " + out_t + "\n  return %0 : " + out_t + "\n}\n";
  const std::string scaled = extra == 1 ? "%0" : "%1";
  std::string reference = "func.func @main(%x: " + in_t + ") -> " + out_t + " {\n  %0 = stablehlo.fft %x, type = " +
                          fft_type + ", length = " + length + " : (" + in_t + ") -> " + out_t + "\n";
  if (extra != 1) {
    reference += "  %s = stablehlo.constant dense<(" + std::to_string(extra) + ", 0.0)> : " + out_t +
                 "\n  %1 = stablehlo.multiply %0, %s : " + out_t + "\n";
  }
  reference += "  return " + scaled + " : " + out_t + "\n}\n";
  StatusOr<std::vector<std::byte>> got = test->Run<In>(ducc, pjrt, c.in_dims, x);
  ASSERT_TRUE(got.ok()) << got.status().ToString() << "\n" << ducc;
  StatusOr<std::vector<std::byte>> want = test->Run<In>(reference, pjrt, c.in_dims, x);
  ASSERT_TRUE(want.ok()) << want.status().ToString() << "\n" << reference;
  ASSERT_EQ(got->size(), want->size());
  const bool f64 = c.dtype == 1;
  const size_t count = got->size() / (f64 ? 8 : 4);
  for (size_t i = 0; i < count; ++i) {
    double a, b;
    if (f64) {
      std::memcpy(&a, got->data() + 8 * i, 8);
      std::memcpy(&b, want->data() + 8 * i, 8);
    } else {
      float fa, fb;
      std::memcpy(&fa, got->data() + 4 * i, 4);
      std::memcpy(&fb, want->data() + 4 * i, 4);
      a = fa, b = fb;
    }
    ASSERT_NEAR(a, b, (f64 ? 1e-12 : 1e-5) * (1 + std::abs(b))) << fft_type << " component " << i;
  }
}

TEST_F(DuccFftTest, StaticDescriptorsMatchStablehloFft) {
  // C2C forward (complex64), one axis.
  ExpectMatchesBuiltIn<c64>(this, {0, 0, {2, 8}, {2, 8}, {2, 8}, {1}, true, 1.0}, "complex<f32>",
                            "complex<f32>", PJRT_Buffer_Type_C64, "FFT", "[8]", 1);
  // C2C backward (complex128), two axes, scale 1/N as JAX writes it.
  ExpectMatchesBuiltIn<c128>(this, {1, 0, {3, 4, 6}, {3, 4, 6}, {3, 4, 6}, {1, 2}, false, 1.0 / 24},
                             "complex<f64>", "complex<f64>", PJRT_Buffer_Type_C128, "IFFT",
                             "[4, 6]", 1);
  // R2C (f32 in), odd length.
  ExpectMatchesBuiltIn<float>(this, {0, 2, {4, 7}, {4, 7}, {4, 4}, {1}, true, 1.0}, "f32",
                              "complex<f32>", PJRT_Buffer_Type_F32, "RFFT", "[7]", 1);
  // C2R (complex128 in, f64 out): the descriptor's shape is the result's.
  ExpectMatchesBuiltIn<c128>(this, {1, 1, {3, 8}, {3, 5}, {3, 8}, {1}, false, 1.0 / 8},
                             "complex<f64>", "f64", PJRT_Buffer_Type_C128, "IRFFT", "[8]", 1);
  // A scale of its own (norm="forward"-style): the reference scaled by 1/8.
  ExpectMatchesBuiltIn<c64>(this, {0, 0, {2, 8}, {2, 8}, {2, 8}, {1}, true, 0.125}, "complex<f32>",
                            "complex<f32>", PJRT_Buffer_Type_C64, "FFT", "[8]", 0.125);
}

TEST_F(DuccFftTest, DynamicDescriptorMatchesStablehloFft) {
  // DynamicDuccFftDescriptor: ndims (u32), dtype, fft_type, axes, forward.
  FlatBuilder b(5, 12);
  b.Scalar<uint32_t>(0, 4, 2);
  b.Scalar<int8_t>(1, 8, 0);
  b.Scalar<int8_t>(2, 9, 0);
  b.Scalar<uint8_t>(4, 10, 1);
  b.Vector<uint32_t>(3, 12, {1});
  const std::string d_t = "tensor<" + std::to_string(b.size()) + "xui8>";
  const std::string t = "tensor<2x8xcomplex<f32>>";
  // JAX's shape-polymorphic export (2023) appends the result's shape as a
  // seventh operand named by indices_of_shape_operands.
  auto program_with = [&](bool result_shape) {
    return "func.func @main(%x: " + t + ") -> " + t + " {\n  %d = stablehlo.constant " +
           b.Constant() +
           "\n  %shape = stablehlo.constant dense<[2, 8]> : tensor<2xui32>\n"
           "  %strides = stablehlo.constant dense<[8, 1]> : tensor<2xui32>\n"
           "  %scale = stablehlo.constant dense<1.0> : tensor<f64>\n"
           "  %0 = stablehlo.custom_call @dynamic_ducc_fft(%d, %x, %shape, %strides, %strides, "
           "%scale" + std::string(result_shape ? ", %shape) {api_version = 2 : i32, "
                                                 "indices_of_shape_operands = dense<6> : "
                                                 "tensor<1xi64>}"
                                               : ") {api_version = 2 : i32}") +
           " : (" + d_t + ", " + t + ", tensor<2xui32>, tensor<2xui32>, tensor<2xui32>, "
           "tensor<f64>" + (result_shape ? ", tensor<2xui32>" : "") + ") -> " + t +
           "\n  return %0 : " + t + "\n}\n";
  };
  const std::string program = program_with(false);
  const std::string reference = "func.func @main(%x: " + t + ") -> " + t +
                                " {\n  %0 = stablehlo.fft %x, type = FFT, length = [8] : (" + t +
                                ") -> " + t + "\n  return %0 : " + t + "\n}\n";
  std::vector<c64> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = c64(static_cast<float>(i % 5) - 2, static_cast<float>(i % 3));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> got, Run(program, PJRT_Buffer_Type_C64, {2, 8}, x));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> want, Run(reference, PJRT_Buffer_Type_C64, {2, 8}, x));
  EXPECT_EQ(got, want);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> with_shape,
                              Run(program_with(true), PJRT_Buffer_Type_C64, {2, 8}, x));
  EXPECT_EQ(with_shape, want);
}

TEST_F(DuccFftTest, BadDescriptorsFailClearly) {
  const std::string t = "tensor<2x8xcomplex<f32>>";
  auto program = [&](const std::string& constant, size_t size) {
    const std::string d_t = "tensor<" + std::to_string(size) + "xui8>";
    return "func.func @main(%x: " + t + ") -> " + t + " {\n  %d = stablehlo.constant " + constant +
           "\n  %0 = stablehlo.custom_call @ducc_fft(%d, %x) : (" + d_t + ", " + t + ") -> " + t +
           "\n  return %0 : " + t + "\n}\n";
  };
  std::vector<c64> x(16, c64(1, 0));
  // Truncated bytes: INVALID_ARGUMENT naming the target, no crash.
  StatusOr<std::vector<std::byte>> truncated =
      Run(program("dense<[200, 0]> : tensor<2xui8>", 2), PJRT_Buffer_Type_C64, {2, 8}, x);
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kInvalidArgument) << truncated.status().ToString();
  EXPECT_NE(truncated.status().message().find("ducc_fft"), std::string::npos);
  // A transform over a leading axis: UNIMPLEMENTED, saying so.
  const FlatBuilder leading = StaticDescriptor({0, 0, {2, 8}, {2, 8}, {2, 8}, {0}, true, 1.0});
  StatusOr<std::vector<std::byte>> axis0 =
      Run(program(leading.Constant(), leading.size()), PJRT_Buffer_Type_C64, {2, 8}, x);
  ASSERT_FALSE(axis0.ok());
  EXPECT_EQ(axis0.status().code(), StatusCode::kUnimplemented) << axis0.status().ToString();
  EXPECT_NE(axis0.status().message().find("trailing"), std::string::npos);
  // A descriptor whose shape is not the operand's.
  const FlatBuilder wrong = StaticDescriptor({0, 0, {2, 4}, {2, 4}, {2, 4}, {1}, true, 1.0});
  StatusOr<std::vector<std::byte>> mismatch =
      Run(program(wrong.Constant(), wrong.size()), PJRT_Buffer_Type_C64, {2, 8}, x);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.status().code(), StatusCode::kInvalidArgument) << mismatch.status().ToString();
  // Wrong operand count fails the compile.
  StatusOr<LoadedExecutable> one = client_->Compile(
      "func.func @main(%x: " + t + ") -> " + t + " {\n  %0 = stablehlo.custom_call @ducc_fft(%x) : (" + t +
      ") -> " + t + "\n  return %0 : " + t + "\n}\n");
  EXPECT_FALSE(one.ok());
}

}  // namespace
}  // namespace plugrt
