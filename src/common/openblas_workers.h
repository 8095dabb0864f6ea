// plugrt: OpenBLAS's idle worker threads.
//
// OpenBLAS's pthreads build (Debian's libopenblas0-pthread) keeps the
// workers of a call on more than one thread spinning on sched_yield for about
// 0.1 s afterwards (and for as long after the library loads), a whole core
// each. plugrt's own loops and oneDNN want those cores at once: a batch of
// 64 Cholesky factorizations split over plugrt's two threads took 0.75 ms
// with a worker spinning against 0.37 ms without. StopIdleOpenBlasWorkers
// ends the workers; OpenBLAS starts them again on its next threaded call
// (about 0.2 ms at order 1024, 2 threads, on a 10 ms product).
#ifndef PLUGRT_COMMON_OPENBLAS_WORKERS_H_
#define PLUGRT_COMMON_OPENBLAS_WORKERS_H_

namespace plugrt {

// Ends OpenBLAS's idle workers where the process runs OpenBLAS's pthreads
// build; nothing otherwise (its OpenMP or serial builds, no OpenBLAS). Not
// while another thread is inside an OpenBLAS call.
void StopIdleOpenBlasWorkers();

}  // namespace plugrt

#endif  // PLUGRT_COMMON_OPENBLAS_WORKERS_H_
