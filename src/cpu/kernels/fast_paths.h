// plugrt CPU kernels: whether the fast paths (oneDNN dot_general and
// convolution, elementwise fusion, vectorized reductions) are used.
//
// They are, unless PLUGRT_CPU_FAST_PATHS=0 is set in the environment when a
// program is compiled: then every op runs on its reference kernel. Tests use
// this to check that both compute the same results; users can use it to rule
// the fast paths out when a result looks wrong.
#ifndef PLUGRT_CPU_KERNELS_FAST_PATHS_H_
#define PLUGRT_CPU_KERNELS_FAST_PATHS_H_

#include <cstdlib>
#include <cstring>

namespace plugrt::cpu {

inline bool FastPathsEnabled() {
  const char* v = std::getenv("PLUGRT_CPU_FAST_PATHS");
  return v == nullptr || std::strcmp(v, "0") != 0;
}

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_FAST_PATHS_H_
