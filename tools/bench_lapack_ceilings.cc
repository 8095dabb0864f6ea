// plugrt bench: the LAPACK ceilings of the linalg_* workloads. Each runs the
// routines its workload's custom calls run, on LAPACKE (column-major, its
// *_work entry points with workspace allocated once, outside the clock) over
// the OpenBLAS the CPU plugin links, plus the preparation the workload's
// program computes (A + n I for Cholesky): what the custom calls would take
// with no dispatch and no layout copies.
#include <cblas.h>  // openblas_set_num_threads
#include <lapacke.h>

#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "common/openblas_workers.h"
#include "tools/bench_ceilings.h"

namespace plugrt::tools {
namespace {

struct LapackWorkload {
  const char* name;  // the workload's name without "linalg_"
  int batch;
  int n;
};

constexpr LapackWorkload kWorkloads[] = {{"lu_512", 1, 512},       {"lu_64x64x64", 64, 64},
                                         {"qr_512", 1, 512},       {"qr_64x64x64", 64, 64},
                                         {"cholesky_512", 1, 512}, {"cholesky_64x64x64", 64, 64},
                                         {"eigh_512", 1, 512},     {"eigh_64x64x64", 64, 64}};

StatusOr<CeilingResult> Measure(const LapackWorkload& w, const RepeatPolicy& policy) {
  const int n = w.n;
  const size_t nn = static_cast<size_t>(n) * n;
  const size_t total = nn * static_cast<size_t>(w.batch);
  std::vector<float> a(total), work_a(total), q(total), tau(static_cast<size_t>(n) * w.batch),
      eig(static_cast<size_t>(n) * w.batch);
  std::vector<lapack_int> ipiv(static_cast<size_t>(n) * w.batch), iwork;
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float& x : a) x = uniform(generator);
  const std::string_view name = w.name;
  const bool lu = name.starts_with("lu"), qr = name.starts_with("qr"),
             chol = name.starts_with("cholesky");
  // Workspaces, queried once.
  std::vector<float> work(1);
  float query = 0;
  lapack_int iquery = 0;
  if (qr) {
    LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, n, n, work_a.data(), n, tau.data(), &query, -1);
    float orgqr_query = 0;
    LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, n, n, n, q.data(), n, tau.data(), &orgqr_query, -1);
    work.resize(static_cast<size_t>(std::max(query, orgqr_query)) + 1);
  } else if (!lu && !chol) {
    LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, work_a.data(), n, eig.data(), &query, -1,
                        &iquery, -1);
    work.resize(static_cast<size_t>(query) + 1);
    iwork.resize(static_cast<size_t>(iquery) + 1);
  }
  auto once = [&]() -> StatusOr<double> {
    const long long start = NowNanoseconds();
    for (int b = 0; b < w.batch; ++b) {
      const float* ab = a.data() + nn * b;
      float* x = work_a.data() + nn * b;
      lapack_int info = 0;
      if (lu) {
        std::memcpy(x, ab, nn * sizeof(float));
        info = LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, n, n, x, n, ipiv.data() + n * b);
      } else if (qr) {
        std::memcpy(x, ab, nn * sizeof(float));
        float* t = tau.data() + n * b;
        info = LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, n, n, x, n, t, work.data(),
                                   static_cast<lapack_int>(work.size()));
        float* qb = q.data() + nn * b;
        std::memcpy(qb, x, nn * sizeof(float));
        if (info == 0) {
          info = LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, n, n, n, qb, n, t, work.data(),
                                     static_cast<lapack_int>(work.size()));
        }
      } else if (chol) {
        std::memcpy(x, ab, nn * sizeof(float));
        for (int i = 0; i < n; ++i) x[static_cast<size_t>(i) * n + i] += static_cast<float>(n);
        info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', n, x, n);
      } else {
        std::memcpy(x, ab, nn * sizeof(float));
        info = LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, x, n, eig.data() + n * b,
                                   work.data(), static_cast<lapack_int>(work.size()),
                                   iwork.data(), static_cast<lapack_int>(iwork.size()));
      }
      if (info != 0) return Internal("LAPACK ceiling ", name, ": info ", info);
    }
    return MillisecondsSince(start);
  };
  PLUGRT_ASSIGN_OR_RETURN(std::vector<double> times, TimeRepeated(policy, once));
  CeilingResult result;
  result.name = StrCat("lapack_", name);
  result.kind = CeilingKind::kLapack;
  result.time = Summarize(std::move(times));
  return result;
}

}  // namespace

StatusOr<std::vector<CeilingResult>> MeasureLapackCeilings(int threads, const RepeatPolicy& policy) {
  // Each routine at its best: on one OpenBLAS thread and on `threads`, the
  // faster median kept and its thread count named (on 2 cores one thread
  // won at every size here). The CPU plugin's custom calls run on the same
  // libopenblas in this process, so the setting found is put back.
  const int found = openblas_get_num_threads();
  std::vector<int> candidates = {1};
  if (threads > 1) candidates.push_back(threads);
  std::vector<CeilingResult> results;
  for (const LapackWorkload& w : kWorkloads) {
    std::optional<CeilingResult> best;
    for (int t : candidates) {
      openblas_set_num_threads(t);
      StatusOr<CeilingResult> result = Measure(w, policy);
      if (!result.ok()) {
        openblas_set_num_threads(found);
        StopIdleOpenBlasWorkers();
        return result.status();
      }
      result->impl = StrCat("LAPACKE over OpenBLAS, ", t, t == 1 ? " thread" : " threads");
      if (!best || result->time.median < best->time.median) best = std::move(*result);
    }
    results.push_back(std::move(*best));
  }
  openblas_set_num_threads(found);
  // The threaded runs left OpenBLAS's workers spinning on the cores the
  // workloads measured next need.
  StopIdleOpenBlasWorkers();
  return results;
}

}  // namespace plugrt::tools
