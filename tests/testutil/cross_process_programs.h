// plugrt tests: the programs the multi-process tests run (plugrt launch,
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

// A million all-reduces of f32[256] over 2 replicas in a loop: minutes of
// collectives, for tests that cut a process off, stop or kill it on the way.
inline constexpr const char* kAllReduceLoopProgram = R"(
module @long attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main() -> tensor<256xf32> {
    %x0 = stablehlo.constant dense<1.0> : tensor<256xf32>
    %i0 = stablehlo.constant dense<0> : tensor<i64>
    %n = stablehlo.constant dense<1000000> : tensor<i64>
    %half = stablehlo.constant dense<0.5> : tensor<256xf32>
    %one = stablehlo.constant dense<1> : tensor<i64>
    %r:2 = stablehlo.while(%i = %i0, %x = %x0) : tensor<i64>, tensor<256xf32>
    cond {
      %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %s = "stablehlo.all_reduce"(%x) ({
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %t = stablehlo.add %p, %q : tensor<f32>
          stablehlo.return %t : tensor<f32>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<256xf32>) -> tensor<256xf32>
      %y = stablehlo.multiply %s, %half : tensor<256xf32>
      %j = stablehlo.add %i, %one : tensor<i64>
      stablehlo.return %j, %y : tensor<i64>, tensor<256xf32>
    }
    return %r#1 : tensor<256xf32>
  }
}
)";

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_CROSS_PROCESS_PROGRAMS_H_
