#include "common/openblas_workers.h"

// OpenBLAS's own entry points, weak: resolved where the process has
// libopenblas, null elsewhere (nothing here links it).
extern "C" {
int openblas_get_parallel(void) __attribute__((weak));
int blas_thread_shutdown_(void) __attribute__((weak));
}

namespace plugrt {

void StopIdleOpenBlasWorkers() {
  constexpr int kPthreadsBuild = 1;  // openblas_get_parallel(): 0 serial, 1 pthreads, 2 OpenMP
  if (openblas_get_parallel == nullptr || blas_thread_shutdown_ == nullptr) return;
  if (openblas_get_parallel() != kPthreadsBuild) return;
  blas_thread_shutdown_();
}

}  // namespace plugrt
