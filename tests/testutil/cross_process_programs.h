// plugrt tests: the program the multi-process tests run (plugrt launch,
// mpirun, Slurm and torchrun environments, simulated hosts). Header-only.
#ifndef PLUGRT_TESTS_TESTUTIL_CROSS_PROCESS_PROGRAMS_H_
#define PLUGRT_TESTS_TESTUTIL_CROSS_PROCESS_PROGRAMS_H_

namespace plugrt::testing {

// Two replicas, one per process of a 2-process job: each brings
// [r+1, 10(r+1)], all_reduce sums them to [3, 30] on both ("array([ 3.,
// 30.], dtype=float32)" in `plugrt run`'s output).
inline constexpr const char* kTwoProcessSumProgram = R"(
module @sum attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main() -> tensor<2xf32> {
    %r = stablehlo.replica_id : tensor<ui32>
    %rf = stablehlo.convert %r : (tensor<ui32>) -> tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %rp1 = stablehlo.add %rf, %one : tensor<f32>
    %b = stablehlo.broadcast_in_dim %rp1, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %scale = stablehlo.constant dense<[1.0, 10.0]> : tensor<2xf32>
    %x = stablehlo.multiply %b, %scale : tensor<2xf32>
    %sum = "stablehlo.all_reduce"(%x) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    return %sum : tensor<2xf32>
  }
}
)";

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_CROSS_PROCESS_PROGRAMS_H_
