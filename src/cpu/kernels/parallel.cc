#include "cpu/kernels/parallel.h"


#include <thread>

namespace plugrt::cpu {

int HardwareThreads() {
  static const int cores = [] {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
  }();
  return cores;
}

}  // namespace plugrt::cpu
