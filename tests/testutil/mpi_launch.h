// plugrt tests: processes that initialize MPI (jobs under Open MPI's mpirun,
// collectives=mpi). Under the sanitizer build, LeakSanitizer reports Open
// MPI's own allocations from MPI_Init and MPI_Finalize, many from components
// already unloaded when it looks, so no suppression by module can name them:
// leak checking is off in those processes (the other sanitizers stay on), and
// the same plugrt code is leak-checked by the Gloo and unit tests.
#ifndef PLUGRT_TESTS_TESTUTIL_MPI_LAUNCH_H_
#define PLUGRT_TESTS_TESTUTIL_MPI_LAUNCH_H_

#include <string>

namespace plugrt::testing {

// An `env` prefix for a shell command whose processes initialize MPI.
inline std::string MpiEnv() { return "env ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" "; }

// "mpirun" as root, oversubscribed, output tagged "[JOB,RANK]<stdout>:", the
// sanitizer's options forwarded to every rank; append the rest.
inline std::string Mpirun() {
  return MpiEnv() + "mpirun --allow-run-as-root --oversubscribe --tag-output -x ASAN_OPTIONS ";
}

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_MPI_LAUNCH_H_
