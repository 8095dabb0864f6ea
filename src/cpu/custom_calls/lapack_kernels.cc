// jaxlib's LAPACK targets on LAPACKE's column-major *_work entry points (no
// argument or NaN checks of their own: info codes are LAPACK's), linked
// against OpenBLAS, whose bundled LAPACK replaces the reference routines
// with blocked, threaded ones (docs/architecture.md has the figures).
#include "cpu/custom_calls/lapack_kernels.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <mutex>
#include <string>

// LAPACKE's complex types as std::complex; first, so that OpenBLAS's
// cblas.h does not define them as C99 complex.
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#include <cblas.h>

#include "common/openblas_workers.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/strided_copy.h"

namespace plugrt::cpu {
namespace {

using kernels_abi::LapackFamily;
using kernels_abi::LapackTarget;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

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

constexpr int kCol = LAPACK_COL_MAJOR;

// --- LAPACKE entry points, one overload per type ------------------------------

#define PLUGRT_LAPACK_FOR_TYPES_(X) X(float, s) X(double, d) X(c64, c) X(c128, z)

#define PLUGRT_GETRF_(T, p)                                           \
  int Getrf(int m, int n, T* a, int lda, int* ipiv) {                 \
    return LAPACKE_##p##getrf_work(kCol, m, n, a, lda, ipiv);         \
  }
#define PLUGRT_GEQRF_(T, p)                                                   \
  int Geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork) {        \
    return LAPACKE_##p##geqrf_work(kCol, m, n, a, lda, tau, work, lwork);     \
  }
#define PLUGRT_POTRF_(T, p) \
  int Potrf(char uplo, int n, T* a, int lda) { return LAPACKE_##p##potrf_work(kCol, uplo, n, a, lda); }
#define PLUGRT_GEHRD_(T, p)                                                                \
  int Gehrd(int n, int ilo, int ihi, T* a, int lda, T* tau, T* work, int lwork) {          \
    return LAPACKE_##p##gehrd_work(kCol, n, ilo, ihi, a, lda, tau, work, lwork);           \
  }
#define PLUGRT_GTSV_(T, p)                                                      \
  int Gtsv(int n, int nrhs, T* dl, T* d, T* du, T* b, int ldb) {                \
    return LAPACKE_##p##gtsv_work(kCol, n, nrhs, dl, d, du, b, ldb);            \
  }
PLUGRT_LAPACK_FOR_TYPES_(PLUGRT_GETRF_)
PLUGRT_LAPACK_FOR_TYPES_(PLUGRT_GEQRF_)
PLUGRT_LAPACK_FOR_TYPES_(PLUGRT_POTRF_)
PLUGRT_LAPACK_FOR_TYPES_(PLUGRT_GEHRD_)
PLUGRT_LAPACK_FOR_TYPES_(PLUGRT_GTSV_)
#undef PLUGRT_GETRF_
#undef PLUGRT_GEQRF_
#undef PLUGRT_POTRF_
#undef PLUGRT_GEHRD_
#undef PLUGRT_GTSV_

int Orgqr(int m, int n, int k, float* a, int lda, float* tau, float* work, int lwork) {
  return LAPACKE_sorgqr_work(kCol, m, n, k, a, lda, tau, work, lwork);
}
int Orgqr(int m, int n, int k, double* a, int lda, double* tau, double* work, int lwork) {
  return LAPACKE_dorgqr_work(kCol, m, n, k, a, lda, tau, work, lwork);
}
int Orgqr(int m, int n, int k, c64* a, int lda, c64* tau, c64* work, int lwork) {
  return LAPACKE_cungqr_work(kCol, m, n, k, a, lda, tau, work, lwork);
}
int Orgqr(int m, int n, int k, c128* a, int lda, c128* tau, c128* work, int lwork) {
  return LAPACKE_zungqr_work(kCol, m, n, k, a, lda, tau, work, lwork);
}

// Complex routines take a real workspace (rwork) the real ones do not.
int Geqp3(int m, int n, float* a, int lda, int* jpvt, float* tau, float* work, int lwork, float*) {
  return LAPACKE_sgeqp3_work(kCol, m, n, a, lda, jpvt, tau, work, lwork);
}
int Geqp3(int m, int n, double* a, int lda, int* jpvt, double* tau, double* work, int lwork,
          double*) {
  return LAPACKE_dgeqp3_work(kCol, m, n, a, lda, jpvt, tau, work, lwork);
}
int Geqp3(int m, int n, c64* a, int lda, int* jpvt, c64* tau, c64* work, int lwork, float* rwork) {
  return LAPACKE_cgeqp3_work(kCol, m, n, a, lda, jpvt, tau, work, lwork, rwork);
}
int Geqp3(int m, int n, c128* a, int lda, int* jpvt, c128* tau, c128* work, int lwork,
          double* rwork) {
  return LAPACKE_zgeqp3_work(kCol, m, n, a, lda, jpvt, tau, work, lwork, rwork);
}

int Gesdd(char jobz, int m, int n, float* a, int lda, float* s, float* u, int ldu, float* vt,
          int ldvt, float* work, int lwork, float*, int* iwork) {
  return LAPACKE_sgesdd_work(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
int Gesdd(char jobz, int m, int n, double* a, int lda, double* s, double* u, int ldu, double* vt,
          int ldvt, double* work, int lwork, double*, int* iwork) {
  return LAPACKE_dgesdd_work(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
int Gesdd(char jobz, int m, int n, c64* a, int lda, float* s, c64* u, int ldu, c64* vt, int ldvt,
          c64* work, int lwork, float* rwork, int* iwork) {
  return LAPACKE_cgesdd_work(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork,
                             iwork);
}
int Gesdd(char jobz, int m, int n, c128* a, int lda, double* s, c128* u, int ldu, c128* vt,
          int ldvt, c128* work, int lwork, double* rwork, int* iwork) {
  return LAPACKE_zgesdd_work(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork,
                             iwork);
}

int Gesvd(char job, int m, int n, float* a, int lda, float* s, float* u, int ldu, float* vt,
          int ldvt, float* work, int lwork, float*) {
  return LAPACKE_sgesvd_work(kCol, job, job, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork);
}
int Gesvd(char job, int m, int n, double* a, int lda, double* s, double* u, int ldu, double* vt,
          int ldvt, double* work, int lwork, double*) {
  return LAPACKE_dgesvd_work(kCol, job, job, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork);
}
int Gesvd(char job, int m, int n, c64* a, int lda, float* s, c64* u, int ldu, c64* vt, int ldvt,
          c64* work, int lwork, float* rwork) {
  return LAPACKE_cgesvd_work(kCol, job, job, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,
                             rwork);
}
int Gesvd(char job, int m, int n, c128* a, int lda, double* s, c128* u, int ldu, c128* vt,
          int ldvt, c128* work, int lwork, double* rwork) {
  return LAPACKE_zgesvd_work(kCol, job, job, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,
                             rwork);
}

// syevd / heevd: lrwork and rwork only for complex types.
int Syevd(char jobz, char uplo, int n, float* a, int lda, float* w, float* work, int lwork,
          float*, int, int* iwork, int liwork) {
  return LAPACKE_ssyevd_work(kCol, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
}
int Syevd(char jobz, char uplo, int n, double* a, int lda, double* w, double* work, int lwork,
          double*, int, int* iwork, int liwork) {
  return LAPACKE_dsyevd_work(kCol, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
}
int Syevd(char jobz, char uplo, int n, c64* a, int lda, float* w, c64* work, int lwork,
          float* rwork, int lrwork, int* iwork, int liwork) {
  return LAPACKE_cheevd_work(kCol, jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork,
                             liwork);
}
int Syevd(char jobz, char uplo, int n, c128* a, int lda, double* w, c128* work, int lwork,
          double* rwork, int lrwork, int* iwork, int liwork) {
  return LAPACKE_zheevd_work(kCol, jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork,
                             liwork);
}

int Sytrd(char uplo, int n, float* a, int lda, float* d, float* e, float* tau, float* work,
          int lwork) {
  return LAPACKE_ssytrd_work(kCol, uplo, n, a, lda, d, e, tau, work, lwork);
}
int Sytrd(char uplo, int n, double* a, int lda, double* d, double* e, double* tau, double* work,
          int lwork) {
  return LAPACKE_dsytrd_work(kCol, uplo, n, a, lda, d, e, tau, work, lwork);
}
int Sytrd(char uplo, int n, c64* a, int lda, float* d, float* e, c64* tau, c64* work, int lwork) {
  return LAPACKE_chetrd_work(kCol, uplo, n, a, lda, d, e, tau, work, lwork);
}
int Sytrd(char uplo, int n, c128* a, int lda, double* d, double* e, c128* tau, c128* work,
          int lwork) {
  return LAPACKE_zhetrd_work(kCol, uplo, n, a, lda, d, e, tau, work, lwork);
}

// Real geev: eigenvalues as (wr, wi), eigenvectors packed real.
int GeevReal(char jl, char jr, int n, float* a, int lda, float* wr, float* wi, float* vl, int ldvl,
             float* vr, int ldvr, float* work, int lwork) {
  return LAPACKE_sgeev_work(kCol, jl, jr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr, work, lwork);
}
int GeevReal(char jl, char jr, int n, double* a, int lda, double* wr, double* wi, double* vl,
             int ldvl, double* vr, int ldvr, double* work, int lwork) {
  return LAPACKE_dgeev_work(kCol, jl, jr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr, work, lwork);
}
int GeevComplex(char jl, char jr, int n, c64* a, int lda, c64* w, c64* vl, int ldvl, c64* vr,
                int ldvr, c64* work, int lwork, float* rwork) {
  return LAPACKE_cgeev_work(kCol, jl, jr, n, a, lda, w, vl, ldvl, vr, ldvr, work, lwork, rwork);
}
int GeevComplex(char jl, char jr, int n, c128* a, int lda, c128* w, c128* vl, int ldvl, c128* vr,
                int ldvr, c128* work, int lwork, double* rwork) {
  return LAPACKE_zgeev_work(kCol, jl, jr, n, a, lda, w, vl, ldvl, vr, ldvr, work, lwork, rwork);
}

int GeesReal(char jobvs, int n, float* a, int lda, int* sdim, float* wr, float* wi, float* vs,
             int ldvs, float* work, int lwork) {
  return LAPACKE_sgees_work(kCol, jobvs, 'N', nullptr, n, a, lda, sdim, wr, wi, vs, ldvs, work,
                            lwork, nullptr);
}
int GeesReal(char jobvs, int n, double* a, int lda, int* sdim, double* wr, double* wi, double* vs,
             int ldvs, double* work, int lwork) {
  return LAPACKE_dgees_work(kCol, jobvs, 'N', nullptr, n, a, lda, sdim, wr, wi, vs, ldvs, work,
                            lwork, nullptr);
}
int GeesComplex(char jobvs, int n, c64* a, int lda, int* sdim, c64* w, c64* vs, int ldvs,
                c64* work, int lwork, float* rwork) {
  return LAPACKE_cgees_work(kCol, jobvs, 'N', nullptr, n, a, lda, sdim, w, vs, ldvs, work, lwork,
                            rwork, nullptr);
}
int GeesComplex(char jobvs, int n, c128* a, int lda, int* sdim, c128* w, c128* vs, int ldvs,
                c128* work, int lwork, double* rwork) {
  return LAPACKE_zgees_work(kCol, jobvs, 'N', nullptr, n, a, lda, sdim, w, vs, ldvs, work, lwork,
                            rwork, nullptr);
}

CBLAS_SIDE SideOf(char c) { return c == 'L' ? CblasLeft : CblasRight; }
CBLAS_UPLO UploOf(char c) { return c == 'L' ? CblasLower : CblasUpper; }
CBLAS_TRANSPOSE TransOf(char c) {
  return c == 'N' ? CblasNoTrans : c == 'T' ? CblasTrans : CblasConjTrans;
}
CBLAS_DIAG DiagOf(char c) { return c == 'U' ? CblasUnit : CblasNonUnit; }

void Trsm(char side, char uplo, char trans, char diag, int m, int n, float alpha, const float* a,
          int lda, float* b, int ldb) {
  cblas_strsm(CblasColMajor, SideOf(side), UploOf(uplo), TransOf(trans), DiagOf(diag),
              m, n, alpha, a, lda, b, ldb);
}
void Trsm(char side, char uplo, char trans, char diag, int m, int n, double alpha,
          const double* a, int lda, double* b, int ldb) {
  cblas_dtrsm(CblasColMajor, SideOf(side), UploOf(uplo), TransOf(trans), DiagOf(diag),
              m, n, alpha, a, lda, b, ldb);
}
void Trsm(char side, char uplo, char trans, char diag, int m, int n, c64 alpha, const c64* a,
          int lda, c64* b, int ldb) {
  cblas_ctrsm(CblasColMajor, SideOf(side), UploOf(uplo), TransOf(trans), DiagOf(diag),
              m, n, &alpha, a, lda, b, ldb);
}
void Trsm(char side, char uplo, char trans, char diag, int m, int n, c128 alpha, const c128* a,
          int lda, c128* b, int ldb) {
  cblas_ztrsm(CblasColMajor, SideOf(side), UploOf(uplo), TransOf(trans), DiagOf(diag),
              m, n, &alpha, a, lda, b, ldb);
}

// --- shapes -------------------------------------------------------------------

// A batch of matrices: dims (..., rows, cols), the leading ones the batch.
struct Batch {
  int64_t count = 1;
  int rows = 0;
  int cols = 0;
};

Batch MatricesOf(const std::vector<int64_t>& dims) {
  Batch b;
  const size_t r = dims.size();
  for (size_t i = 0; i + 2 < r; ++i) b.count *= dims[i];
  b.rows = static_cast<int>(dims[r - 2]);
  b.cols = static_cast<int>(dims[r - 1]);
  return b;
}

int Ld(int rows) { return std::max(1, rows); }

template <typename T>
int WorkSize(T query) {
  return std::max(1, static_cast<int>(std::real(query)));
}

template <typename T>
T* Of(Tensor& t) {
  return t.mutable_as<T>();
}
int32_t* Ints(Tensor& t) { return t.mutable_as<int32_t>(); }

// --- batches ------------------------------------------------------------------

// While alive, OpenBLAS runs each call on `threads` threads. OpenBLAS's
// thread count is process-wide, so concurrent users share one setting: the
// first sets it, the last restores what it found (the process's other
// OpenBLAS users keep theirs).
class OpenBlasThreads {
 public:
  explicit OpenBlasThreads(int threads) {
    std::lock_guard<std::mutex> lock(mu_);
    if (users_++ == 0) {
      saved_ = openblas_get_num_threads();
      set_ = threads;
      if (saved_ != set_) openblas_set_num_threads(set_);
    }
    if (threads > 1) workers_may_spin_ = true;
  }
  ~OpenBlasThreads() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--users_ > 0) return;
    if (saved_ != set_) openblas_set_num_threads(saved_);
    // The last user out ends the workers a threaded call (or the library's
    // loading) left spinning, so that they leave plugrt's cores alone.
    if (workers_may_spin_) StopIdleOpenBlasWorkers();
    workers_may_spin_ = false;
  }
  OpenBlasThreads(const OpenBlasThreads&) = delete;
  OpenBlasThreads& operator=(const OpenBlasThreads&) = delete;

 private:
  static inline std::mutex mu_;
  static inline int users_ = 0;
  static inline int saved_ = 1;
  static inline int set_ = 1;
  static inline bool workers_may_spin_ = true;  // from the library's loading
};

// From this order up a single matrix runs on OpenBLAS's own threads; below
// it on one thread, which measured as fast or faster on 2 cores (at 512:
// potrf 0.56 against 0.66 ms, geqrf + orgqr 7.8 against 10.4, syevd 16.4
// against 23; at 1024 two threads win: getrf 6.5 against 9.2 ms) and never
// wakes OpenBLAS's threads, which spin for a long time after each call on
// the cores plugrt's loops need (docs/performance.md, "One threading
// runtime").
constexpr int kThreadedOrder = 1024;

// Runs fn(begin, end) over the batch [0, count) of matrices of order
// `order`, within attrs.threads threads, all of them OpenMP's (plugrt's
// team) or, for a single matrix of kThreadedOrder or more, OpenBLAS's:
// - a batch with enough work (a thread per ~32^3 flops-worth of matrices,
//   as jaxlib splits its batches too) is split in contiguous chunks over
//   plugrt's threads, OpenBLAS on one thread in each;
// - a large matrix runs on OpenBLAS's threads while plugrt's sleep
//   (RunWithTeamAsleep);
// - anything else on the calling thread alone.
// Each chunk allocates its own LAPACK workspace inside fn.
template <typename Fn>
void ForBatch(const LapackAttrs& attrs, int64_t count, int order, Fn&& fn) {
  if (count <= 0) return;
  const int64_t per_matrix = static_cast<int64_t>(order) * order * order;
  const int threads = count < 2 ? 1 : ThreadsFor(count * per_matrix, 32 * 32 * 32, attrs.threads);
  if (threads > 1) {
    OpenBlasThreads single(1);
    ParallelFor(count, threads, fn);
  } else if (order >= kThreadedOrder && attrs.threads > 1) {
    OpenBlasThreads many(attrs.threads);
    RunWithTeamAsleep(attrs.threads, [&] { fn(int64_t{0}, count); });
  } else {
    OpenBlasThreads single(1);
    fn(int64_t{0}, count);
  }
}

// --- kernels ------------------------------------------------------------------

template <typename T>
Status GetrfKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  const int64_t k = std::min(b.rows, b.cols);
  T* a = Of<T>(res[0]);
  int32_t* ipiv = Ints(res[1]);
  int32_t* info = Ints(res[2]);
  ForBatch(attrs, b.count, std::max(b.rows, b.cols), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      info[i] = Getrf(b.rows, b.cols, a + i * b.rows * b.cols, Ld(b.rows), ipiv + i * k);
    }
  });
  return OkStatus();
}

template <typename T>
Status GeqrfKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  if (b.count == 0) return OkStatus();
  const int64_t k = std::min(b.rows, b.cols);
  T* a = Of<T>(res[0]);
  T* tau = Of<T>(res[1]);
  T query{};
  Geqrf(b.rows, b.cols, a, Ld(b.rows), tau, &query, -1);
  const size_t lwork = static_cast<size_t>(WorkSize(query));
  int32_t* infos = res.size() > 2 ? Ints(res[2]) : nullptr;
  ForBatch(attrs, b.count, std::max(b.rows, b.cols), [&](int64_t begin, int64_t end) {
    std::vector<T> work(lwork);
    for (int64_t i = begin; i < end; ++i) {
      const int info = Geqrf(b.rows, b.cols, a + i * b.rows * b.cols, Ld(b.rows), tau + i * k,
                             work.data(), static_cast<int>(work.size()));
      if (infos != nullptr) infos[i] = info;
    }
  });
  return OkStatus();
}

template <typename T>
Status Geqp3Kernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  res[1] = ops[1];
  if (b.count == 0) return OkStatus();
  const int64_t k = std::min(b.rows, b.cols);
  T* a = Of<T>(res[0]);
  int32_t* jpvt = Ints(res[1]);
  T* tau = Of<T>(res[2]);
  const size_t lrwork = static_cast<size_t>(2 * std::max(1, b.cols));
  std::vector<Real<T>> rwork(lrwork);
  T query{};
  Geqp3(b.rows, b.cols, a, Ld(b.rows), jpvt, tau, &query, -1, rwork.data());
  const size_t lwork = static_cast<size_t>(WorkSize(query));
  ForBatch(attrs, b.count, std::max(b.rows, b.cols), [&](int64_t begin, int64_t end) {
    std::vector<T> work(lwork);
    std::vector<Real<T>> chunk_rwork(lrwork);
    for (int64_t i = begin; i < end; ++i) {
      Geqp3(b.rows, b.cols, a + i * b.rows * b.cols, Ld(b.rows), jpvt + i * b.cols, tau + i * k,
            work.data(), static_cast<int>(work.size()), chunk_rwork.data());
    }
  });
  return OkStatus();
}

template <typename T>
Status OrgqrKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  const int k = static_cast<int>(ops[1].dims().back());
  res[0] = ops[0];
  if (b.count == 0) return OkStatus();
  T* a = Of<T>(res[0]);
  T* tau = Of<T>(ops[1]);
  T query{};
  Orgqr(b.rows, b.cols, k, a, Ld(b.rows), tau, &query, -1);
  const size_t lwork = static_cast<size_t>(WorkSize(query));
  int32_t* infos = res.size() > 1 ? Ints(res[1]) : nullptr;
  ForBatch(attrs, b.count, std::max(b.rows, b.cols), [&](int64_t begin, int64_t end) {
    std::vector<T> work(lwork);
    for (int64_t i = begin; i < end; ++i) {
      const int info = Orgqr(b.rows, b.cols, k, a + i * b.rows * b.cols, Ld(b.rows), tau + i * k,
                             work.data(), static_cast<int>(work.size()));
      if (infos != nullptr) infos[i] = info;
    }
  });
  return OkStatus();
}

template <typename T>
Status PotrfKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  T* a = Of<T>(res[0]);
  int32_t* info = Ints(res[1]);
  // A row-major matrix read column-major is its transpose: its upper
  // triangle is the lower one of the matrix meant, and the upper factor U
  // with U^H U = A^T, read back row-major, is the lower factor L of A (for
  // Hermitian A too), so flipping uplo factors the row-major matrix in place.
  // OpenBLAS's potrf is slower on the upper triangle than on the lower (0.62
  // against 0.50 ms at order 512, 0.31 against 0.21 ms for 64 matrices of
  // order 64, one thread), so a row-major matrix is not factored in place:
  // it is transposed into a column-major copy, factored in the triangle
  // meant, and transposed back whole (the other triangle, untouched by
  // potrf, is the input's, as LAPACK leaves it).
  if (attrs.row_major_triangle && b.rows == b.cols) {
    const int64_t n = b.cols;
    const std::vector<int64_t> row_major = {n, 1}, column_major = {1, n}, dims = {n, n};
    ForBatch(attrs, b.count, b.cols, [&](int64_t begin, int64_t end) {
      // The copy's memory stays with the thread up to kKeptScratchBytes:
      // no fresh pages on every call.
      constexpr size_t kKeptScratchBytes = size_t{16} << 20;
      thread_local std::vector<std::byte> kept;
      std::vector<std::byte> own;
      const size_t bytes = static_cast<size_t>(n * n) * sizeof(T);
      std::vector<std::byte>& scratch = bytes <= kKeptScratchBytes ? kept : own;
      if (scratch.size() < bytes) scratch.resize(bytes);
      std::byte* s = scratch.data();
      for (int64_t i = begin; i < end; ++i) {
        auto* m = reinterpret_cast<std::byte*>(a + i * n * n);
        StridedCopy(m, row_major, s, column_major, dims, sizeof(T));
        info[i] = Potrf(attrs.uplo, b.cols, reinterpret_cast<T*>(s), Ld(b.rows));
        StridedCopy(s, column_major, m, row_major, dims, sizeof(T));
      }
    });
    return OkStatus();
  }
  char uplo = attrs.uplo;
  if (attrs.row_major_triangle) uplo = uplo == 'L' ? 'U' : 'L';
  ForBatch(attrs, b.count, b.cols, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      info[i] = Potrf(uplo, b.cols, a + i * b.rows * b.cols, Ld(b.rows));
    }
  });
  return OkStatus();
}

// gesdd (divide and conquer) and gesvd (QR iteration): results x_out, s, u,
// vt, info; u has m rows, vt as many rows as its result says.
template <typename T, bool kDivideAndConquer>
Status SvdKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  if (b.count == 0) return OkStatus();
  const int m = b.rows, n = b.cols, mn = std::min(m, n), mx = std::max(m, n);
  const Batch ub = MatricesOf(res[2].dims());
  const Batch vb = MatricesOf(res[3].dims());
  const int ldu = Ld(m), ldvt = Ld(vb.rows);
  T* a = Of<T>(res[0]);
  Real<T>* s = Of<Real<T>>(res[1]);
  T* u = Of<T>(res[2]);
  T* vt = Of<T>(res[3]);
  // LAPACK 3.11's documented minimums for the real workspace of the complex
  // routines and the integer one of gesdd.
  int64_t lrwork = 5 * static_cast<int64_t>(mn);
  if constexpr (kDivideAndConquer) {
    lrwork = attrs.mode == 'N'
                 ? 7 * static_cast<int64_t>(mn)
                 : std::max<int64_t>(5 * static_cast<int64_t>(mn) * mn + 5 * mn,
                                     2 * static_cast<int64_t>(mx) * mn + 2 * mn * mn + mn);
  }
  std::vector<Real<T>> rwork(static_cast<size_t>(std::max<int64_t>(1, lrwork)));
  std::vector<int> iwork(static_cast<size_t>(std::max(1, 8 * mn)));
  T query{};
  int info;
  if constexpr (kDivideAndConquer) {
    info = Gesdd(attrs.mode, m, n, a, Ld(m), s, u, ldu, vt, ldvt, &query, -1, rwork.data(),
                 iwork.data());
  } else {
    info = Gesvd(attrs.mode, m, n, a, Ld(m), s, u, ldu, vt, ldvt, &query, -1, rwork.data());
  }
  if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
  const int lwork = WorkSize(query);
  const int64_t ustep = static_cast<int64_t>(ub.rows) * ub.cols;
  const int64_t vstep = static_cast<int64_t>(vb.rows) * vb.cols;
  int32_t* infos = Ints(res[4]);
  ForBatch(attrs, b.count, mx, [&](int64_t begin, int64_t end) {
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<Real<T>> chunk_rwork(rwork.size());
    std::vector<int> chunk_iwork(iwork.size());
    for (int64_t i = begin; i < end; ++i) {
      T* ai = a + i * m * n;
      if constexpr (kDivideAndConquer) {
        infos[i] = Gesdd(attrs.mode, m, n, ai, Ld(m), s + i * mn, u + i * ustep, ldu,
                         vt + i * vstep, ldvt, work.data(), lwork, chunk_rwork.data(),
                         chunk_iwork.data());
      } else {
        infos[i] = Gesvd(attrs.mode, m, n, ai, Ld(m), s + i * mn, u + i * ustep, ldu,
                         vt + i * vstep, ldvt, work.data(), lwork, chunk_rwork.data());
      }
    }
  });
  return OkStatus();
}

template <typename T>
Status SyevdKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  if (b.count == 0) return OkStatus();
  const int n = b.cols;
  T* a = Of<T>(res[0]);
  Real<T>* w = Of<Real<T>>(res[1]);
  T query{};
  Real<T> rquery{};
  int iquery = 0;
  int info = Syevd(attrs.mode, attrs.uplo, n, a, Ld(n), w, &query, -1, &rquery, -1, &iquery, -1);
  if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
  const int lwork = WorkSize(query), lrwork = WorkSize(rquery), liwork = std::max(1, iquery);
  int32_t* infos = Ints(res[2]);
  ForBatch(attrs, b.count, n, [&](int64_t begin, int64_t end) {
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<Real<T>> rwork(static_cast<size_t>(lrwork));
    std::vector<int> iwork(static_cast<size_t>(liwork));
    for (int64_t i = begin; i < end; ++i) {
      infos[i] = Syevd(attrs.mode, attrs.uplo, n, a + i * n * n, Ld(n), w + i * n, work.data(),
                       lwork, rwork.data(), lrwork, iwork.data(), liwork);
    }
  });
  return OkStatus();
}

// Real geev packs a complex pair's eigenvectors as two real columns (real and
// imaginary parts of the first); jaxlib returns them as complex columns.
template <typename R>
void UnpackEigenvectors(int n, const R* wi, const R* packed, std::complex<R>* out) {
  for (int j = 0; j < n; ++j) {
    const R* col = packed + static_cast<int64_t>(j) * n;
    std::complex<R>* dst = out + static_cast<int64_t>(j) * n;
    if (wi[j] == 0 || j + 1 == n) {
      for (int r = 0; r < n; ++r) dst[r] = std::complex<R>(col[r], 0);
      continue;
    }
    const R* next = col + n;
    for (int r = 0; r < n; ++r) {
      dst[r] = std::complex<R>(col[r], next[r]);
      dst[r + n] = std::complex<R>(col[r], -next[r]);
    }
    ++j;
  }
}

template <typename T>
Status GeevKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  if (b.count == 0) return OkStatus();
  const int n = b.cols;
  const int64_t nn = static_cast<int64_t>(n) * n;
  T* a = Of<T>(ops[0]);
  const char jl = attrs.compute_left, jr = attrs.compute_right;
  T query{};
  if constexpr (std::is_same_v<T, Real<T>>) {
    // Results: wr, wi, vl, vr (complex), info.
    T* wr = Of<T>(res[0]);
    T* wi = Of<T>(res[1]);
    std::vector<T> vl(static_cast<size_t>(std::max<int64_t>(1, nn)));
    std::vector<T> vr(static_cast<size_t>(std::max<int64_t>(1, nn)));
    int info = GeevReal(jl, jr, n, a, Ld(n), wr, wi, vl.data(), Ld(n), vr.data(), Ld(n), &query, -1);
    if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
    const int lwork = WorkSize(query);
    int32_t* infos = Ints(res[4]);
    std::complex<T>* left = Of<std::complex<T>>(res[2]);
    std::complex<T>* right = Of<std::complex<T>>(res[3]);
    ForBatch(attrs, b.count, n, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<T> packed_l(vl.size()), packed_r(vr.size());
      for (int64_t i = begin; i < end; ++i) {
        infos[i] = GeevReal(jl, jr, n, a + i * nn, Ld(n), wr + i * n, wi + i * n, packed_l.data(),
                            Ld(n), packed_r.data(), Ld(n), work.data(), lwork);
        if (infos[i] != 0) continue;
        if (jl == 'V') UnpackEigenvectors(n, wi + i * n, packed_l.data(), left + i * nn);
        if (jr == 'V') UnpackEigenvectors(n, wi + i * n, packed_r.data(), right + i * nn);
      }
    });
  } else {
    // Results: w, vl, vr, info.
    T* w = Of<T>(res[0]);
    T* vl = Of<T>(res[1]);
    T* vr = Of<T>(res[2]);
    std::vector<Real<T>> rwork(static_cast<size_t>(std::max(1, 2 * n)));
    int info = GeevComplex(jl, jr, n, a, Ld(n), w, vl, Ld(n), vr, Ld(n), &query, -1, rwork.data());
    if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
    const int lwork = WorkSize(query);
    int32_t* infos = Ints(res[3]);
    ForBatch(attrs, b.count, n, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<Real<T>> chunk_rwork(rwork.size());
      for (int64_t i = begin; i < end; ++i) {
        infos[i] = GeevComplex(jl, jr, n, a + i * nn, Ld(n), w + i * n, vl + i * nn, Ld(n),
                               vr + i * nn, Ld(n), work.data(), lwork, chunk_rwork.data());
      }
    });
  }
  return OkStatus();
}

template <typename T>
Status GeesKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  if (b.count == 0) return OkStatus();
  const int n = b.cols;
  const int64_t nn = static_cast<int64_t>(n) * n;
  T* a = Of<T>(res[0]);
  T* vs = Of<T>(res[1]);
  T query{};
  int sdim = 0;
  if constexpr (std::is_same_v<T, Real<T>>) {
    // Results: t, vs, wr, wi, sdim, info.
    T* wr = Of<T>(res[2]);
    T* wi = Of<T>(res[3]);
    int info = GeesReal(attrs.mode, n, a, Ld(n), &sdim, wr, wi, vs, Ld(n), &query, -1);
    if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
    const int lwork = WorkSize(query);
    int32_t* infos = Ints(res[5]);
    int32_t* sdims = Ints(res[4]);
    ForBatch(attrs, b.count, n, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(lwork));
      for (int64_t i = begin; i < end; ++i) {
        int chunk_sdim = 0;
        infos[i] = GeesReal(attrs.mode, n, a + i * nn, Ld(n), &chunk_sdim, wr + i * n, wi + i * n,
                            vs + i * nn, Ld(n), work.data(), lwork);
        sdims[i] = chunk_sdim;
      }
    });
  } else {
    // Results: t, vs, w, sdim, info.
    T* w = Of<T>(res[2]);
    std::vector<Real<T>> rwork(static_cast<size_t>(std::max(1, n)));
    int info = GeesComplex(attrs.mode, n, a, Ld(n), &sdim, w, vs, Ld(n), &query, -1, rwork.data());
    if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
    const int lwork = WorkSize(query);
    int32_t* infos = Ints(res[4]);
    int32_t* sdims = Ints(res[3]);
    ForBatch(attrs, b.count, n, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<Real<T>> chunk_rwork(rwork.size());
      for (int64_t i = begin; i < end; ++i) {
        int chunk_sdim = 0;
        infos[i] = GeesComplex(attrs.mode, n, a + i * nn, Ld(n), &chunk_sdim, w + i * n,
                               vs + i * nn, Ld(n), work.data(), lwork, chunk_rwork.data());
        sdims[i] = chunk_sdim;
      }
    });
  }
  return OkStatus();
}

template <typename T>
Status GehrdKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  if (b.count == 0) return OkStatus();
  const int n = b.cols;
  const int64_t nn = static_cast<int64_t>(n) * n;
  const int64_t tstep = std::max(0, n - 1);
  T* a = Of<T>(res[0]);
  T* tau = Of<T>(res[1]);
  // gehrd writes n-1 elements of tau; the result has exactly that many.
  std::vector<T> tau_tmp(static_cast<size_t>(std::max(1, n)));
  T query{};
  int info = Gehrd(n, attrs.low, attrs.high, a, Ld(n), tau_tmp.data(), &query, -1);
  if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
  const int lwork = WorkSize(query);
  int32_t* infos = Ints(res[2]);
  ForBatch(attrs, b.count, n, [&](int64_t begin, int64_t end) {
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<T> chunk_tau(tau_tmp.size());
    for (int64_t i = begin; i < end; ++i) {
      infos[i] = Gehrd(n, attrs.low, attrs.high, a + i * nn, Ld(n), chunk_tau.data(), work.data(),
                       lwork);
      std::copy_n(chunk_tau.data(), tstep, tau + i * tstep);
    }
  });
  return OkStatus();
}

template <typename T>
Status SytrdKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[0].dims());
  res[0] = ops[0];
  if (b.count == 0) return OkStatus();
  const int n = b.cols;
  const int64_t nn = static_cast<int64_t>(n) * n;
  const int64_t estep = std::max(0, n - 1);
  T* a = Of<T>(res[0]);
  Real<T>* d = Of<Real<T>>(res[1]);
  Real<T>* e = Of<Real<T>>(res[2]);
  T* tau = Of<T>(res[3]);
  T query{};
  std::vector<Real<T>> e_tmp(static_cast<size_t>(std::max(1, n)));
  std::vector<T> tau_tmp(static_cast<size_t>(std::max(1, n)));
  int info = Sytrd(attrs.uplo, n, a, Ld(n), d, e_tmp.data(), tau_tmp.data(), &query, -1);
  if (info != 0) return Internal("LAPACK's workspace query failed (info ", info, ")");
  const int lwork = WorkSize(query);
  int32_t* infos = Ints(res[4]);
  ForBatch(attrs, b.count, n, [&](int64_t begin, int64_t end) {
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<Real<T>> chunk_e(e_tmp.size());
    std::vector<T> chunk_tau(tau_tmp.size());
    for (int64_t i = begin; i < end; ++i) {
      infos[i] = Sytrd(attrs.uplo, n, a + i * nn, Ld(n), d + i * n, chunk_e.data(),
                       chunk_tau.data(), work.data(), lwork);
      std::copy_n(chunk_e.data(), estep, e + i * estep);
      std::copy_n(chunk_tau.data(), estep, tau + i * estep);
    }
  });
  return OkStatus();
}

template <typename T>
Status TrsmKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch bb = MatricesOf(ops[1].dims());
  const Batch ab = MatricesOf(ops[0].dims());
  res[0] = ops[1];
  const T alpha = ops.size() > 2 ? *Of<T>(ops[2]) : T(1);
  const int k = ab.rows;
  // A matrix of a without batch dimensions applies to every right-hand side.
  const int64_t astep = ab.count == 1 ? 0 : static_cast<int64_t>(k) * k;
  const T* a = Of<T>(ops[0]);
  T* y = Of<T>(res[0]);
  ForBatch(attrs, bb.count, std::max(bb.rows, bb.cols), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      Trsm(attrs.side, attrs.uplo, attrs.trans_x, attrs.diag, bb.rows, bb.cols, alpha,
           a + i * astep, Ld(k), y + i * static_cast<int64_t>(bb.rows) * bb.cols, Ld(bb.rows));
    }
  });
  return OkStatus();
}

template <typename T>
Status GtsvKernel(const LapackAttrs& attrs, std::span<Tensor> ops, std::span<Tensor> res) {
  const Batch b = MatricesOf(ops[3].dims());
  for (size_t i = 0; i < 4; ++i) res[i] = ops[i];
  const int n = b.rows, nrhs = b.cols;
  T* dl = Of<T>(res[0]);
  T* d = Of<T>(res[1]);
  T* du = Of<T>(res[2]);
  T* rhs = Of<T>(res[3]);
  int32_t* infos = Ints(res[4]);
  // Tridiagonal solves are O(n * nrhs): their work is what counts per matrix.
  const int order = static_cast<int>(std::cbrt(static_cast<double>(n) * std::max(1, nrhs))) + 1;
  ForBatch(attrs, b.count, order, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      // jaxlib's dl holds n elements, the first unused; du's last is unused.
      infos[i] = n == 0 ? 0
                        : Gtsv(n, nrhs, dl + i * n + 1, d + i * n, du + i * n,
                               rhs + i * static_cast<int64_t>(n) * nrhs, Ld(n));
    }
  });
  return OkStatus();
}

template <typename T>
LapackKernel KernelFor(LapackFamily family) {
  switch (family) {
    case LapackFamily::kGetrf: return &GetrfKernel<T>;
    case LapackFamily::kGeqrf: return &GeqrfKernel<T>;
    case LapackFamily::kGeqp3: return &Geqp3Kernel<T>;
    case LapackFamily::kOrgqr: return &OrgqrKernel<T>;
    case LapackFamily::kPotrf: return &PotrfKernel<T>;
    case LapackFamily::kGesdd: return &SvdKernel<T, true>;
    case LapackFamily::kGesvd: return &SvdKernel<T, false>;
    case LapackFamily::kSyevd: return &SyevdKernel<T>;
    case LapackFamily::kGeev: return &GeevKernel<T>;
    case LapackFamily::kGees: return &GeesKernel<T>;
    case LapackFamily::kGehrd: return &GehrdKernel<T>;
    case LapackFamily::kSytrd: return &SytrdKernel<T>;
    case LapackFamily::kTrsm: return &TrsmKernel<T>;
    case LapackFamily::kGtsv: return &GtsvKernel<T>;
  }
  return nullptr;
}

}  // namespace

LapackKernel GetLapackKernel(LapackTarget target) {
  switch (target.letter) {
    case 's': return KernelFor<float>(target.family);
    case 'd': return KernelFor<double>(target.family);
    case 'c': return KernelFor<c64>(target.family);
    case 'z': return KernelFor<c128>(target.family);
    default: return nullptr;
  }
}

}  // namespace plugrt::cpu
