// while-loop-hoisting (compiler/passes/while_loop_hoisting.h): a scan's
// per-step product of an invariant operand's row t becomes one product
// before the loop; invariant ops (a weight transpose in the body) leave it;
// loops whose rows are not each read once (a bound that is not the leading
// size, a counter not from 0) keep their products; and programs compute
// what they compute without the pass, on random shapes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "client/client.h"
#include "compiler/importers/mlir/parser.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/while_loop_hoisting.h"
#include "stablehlo/printer.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

std::string Dims(const std::vector<int64_t>& dims) {
  std::string s;
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s;
}

std::string F32(const std::vector<int64_t>& dims) { return "tensor<" + Dims(dims) + "f32>"; }

struct Rnn {
  int64_t t = 5, b = 2, in = 3, h = 4;
  int64_t bound = -1;           // the loop's bound; -1: t
  int64_t start = 0;            // the counter's first value
  bool squeeze = true;          // reshape [1, b, in] -> [b, in] before the dot
  bool transposed_u = false;    // U given [h, h] as [out, in], transposed in the body
};

// An Elman RNN as lax.scan lowers it: xs [t, b, in], W [in, h], U [h, h]
// carried through unchanged, then the counter, h and the stacked outputs;
// h' = tanh(x_t W + h U), ys[i] = h'. Returns ys.
std::string RnnProgram(const Rnn& r) {
  const int64_t bound = r.bound < 0 ? r.t : r.bound;
  const std::string xs = F32({r.t, r.b, r.in}), w = F32({r.in, r.h}), u = F32({r.h, r.h}),
                    hb = F32({r.b, r.h}), ys = F32({r.t, r.b, r.h}), row = F32({1, r.b, r.in});
  const std::string types = xs + ", " + w + ", " + u + ", tensor<i32>, " + hb + ", " + ys;
  std::string p = "func.func @main(%xs: " + xs + ", %w: " + w + ", %u: " + u + ") -> " + ys + " {\n";
  p += "  %i0 = stablehlo.constant dense<" + std::to_string(r.start) + "> : tensor<i32>\n";
  p += "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n";
  p += "  %h0 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> " + hb + "\n";
  p += "  %y0 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> " + ys + "\n";
  p += "  %r:6 = stablehlo.while(%a = %xs, %aw = %w, %au = %u, %i = %i0, %hh = %h0, %y = %y0) : " +
       types + "\n";
  p += "   cond {\n";
  p += "    %n = stablehlo.constant dense<" + std::to_string(bound) + "> : tensor<i32>\n";
  p += "    %lt = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n";
  p += "    stablehlo.return %lt : tensor<i1>\n";
  p += "  } do {\n";
  p += "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n";
  p += "    %x1 = stablehlo.dynamic_slice %a, %i, %c0, %c0, sizes = [1, " + std::to_string(r.b) + ", " +
       std::to_string(r.in) + "] : (" + xs + ", tensor<i32>, tensor<i32>, tensor<i32>) -> " + row + "\n";
  if (r.squeeze) {
    p += "    %x = stablehlo.reshape %x1 : (" + row + ") -> " + F32({r.b, r.in}) + "\n";
    p += "    %gx = stablehlo.dot_general %x, %aw, contracting_dims = [1] x [0], precision = [DEFAULT, "
         "DEFAULT] : (" + F32({r.b, r.in}) + ", " + w + ") -> " + hb + "\n";
  } else {
    p += "    %gx3 = stablehlo.dot_general %x1, %aw, contracting_dims = [2] x [0] : (" + row + ", " + w +
         ") -> " + F32({1, r.b, r.h}) + "\n";
    p += "    %gx = stablehlo.reshape %gx3 : (" + F32({1, r.b, r.h}) + ") -> " + hb + "\n";
  }
  std::string uu = "%au";
  if (r.transposed_u) {
    p += "    %ut = stablehlo.transpose %au, dims = [1, 0] : (" + u + ") -> " + u + "\n";
    uu = "%ut";
  }
  p += "    %gh = stablehlo.dot_general %hh, " + uu + ", contracting_dims = [1] x [0] : (" + hb + ", " + u +
       ") -> " + hb + "\n";
  p += "    %s = stablehlo.add %gx, %gh : " + hb + "\n";
  p += "    %h1 = stablehlo.tanh %s : " + hb + "\n";
  p += "    %h3 = stablehlo.broadcast_in_dim %h1, dims = [1, 2] : (" + hb + ") -> " + F32({1, r.b, r.h}) + "\n";
  p += "    %y1 = stablehlo.dynamic_update_slice %y, %h3, %i, %c0, %c0 : (" + ys + ", " + F32({1, r.b, r.h}) +
       ", tensor<i32>, tensor<i32>, tensor<i32>) -> " + ys + "\n";
  p += "    %one = stablehlo.constant dense<1> : tensor<i32>\n";
  p += "    %i1 = stablehlo.add %i, %one : tensor<i32>\n";
  p += "    stablehlo.return %a, %aw, %au, %i1, %h1, %y1 : " + types + "\n";
  p += "  }\n";
  p += "  return %r#5 : " + ys + "\n}\n";
  return p;
}

struct Hoisted {
  bool changed = false;
  int dots_before_loop = 0;  // dot_generals in @main's own block
  int dots_in_body = 0;
  int transposes_in_body = 0;
  std::string printed;
};

Hoisted Hoist(const std::string& text) {
  Hoisted out;
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(text, "scan.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return out;
  out.changed = passes::HoistWhileLoopInvariants(**module);
  passes::EliminateDeadCode(**module);
  const shlo::Block& main = (*module)->functions[0]->body->front();
  for (const auto& op : main.operations) {
    out.dots_before_loop += op->code == shlo::OpCode::kDotGeneral;
    if (op->code != shlo::OpCode::kWhile) continue;
    for (const auto& inner : op->region(1).front().operations) {
      out.dots_in_body += inner->code == shlo::OpCode::kDotGeneral;
      out.transposes_in_body += inner->code == shlo::OpCode::kTranspose;
    }
  }
  out.printed = shlo::PrintModule(**module);
  return out;
}

TEST(WhileLoopHoistingTest, AScansInputProjectionBecomesOneProductBeforeTheLoop) {
  for (bool squeeze : {true, false}) {
    Rnn r;
    r.squeeze = squeeze;
    const Hoisted h = Hoist(RnnProgram(r));
    EXPECT_TRUE(h.changed);
    EXPECT_EQ(h.dots_before_loop, 1) << h.printed;
    EXPECT_EQ(h.dots_in_body, 1) << h.printed;  // h U stays: h changes
    // The product of all rows: [t, b, h].
    EXPECT_NE(h.printed.find("-> tensor<5x2x4xf32>"), std::string::npos) << h.printed;
  }
}

TEST(WhileLoopHoistingTest, AnInvariantTransposeLeavesTheLoop) {
  Rnn r;
  r.transposed_u = true;
  const Hoisted h = Hoist(RnnProgram(r));
  EXPECT_TRUE(h.changed);
  EXPECT_EQ(h.transposes_in_body, 0) << h.printed;
  EXPECT_EQ(h.dots_before_loop, 1) << h.printed;
}

TEST(WhileLoopHoistingTest, LoopsThatDoNotReadEachRowOnceKeepTheirProducts) {
  Rnn shorter;
  shorter.bound = 3;  // rows 3 and 4 never read
  Rnn late;
  late.start = 1;  // from row 1
  for (const Rnn& r : {shorter, late}) {
    const Hoisted h = Hoist(RnnProgram(r));
    EXPECT_FALSE(h.changed) << h.printed;
    EXPECT_EQ(h.dots_before_loop, 0) << h.printed;
    EXPECT_EQ(h.dots_in_body, 2) << h.printed;
  }
}

// Random shapes and every form: with and without the pass, the same ys to
// f32 rounding of the sums.
TEST(WhileLoopHoistingTest, HoistedLoopsComputeWhatTheLoopsDid) {
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  std::mt19937 rng(11);
  auto size = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto values = [&](int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    for (float& x : v) x = u(rng);
    return v;
  };
  for (int round = 0; round < 8; ++round) {
    Rnn r;
    r.t = size(1, 9);
    r.b = size(1, 5);
    r.in = size(1, 40);
    r.h = size(1, 40);
    r.squeeze = round % 2 == 0;
    r.transposed_u = round % 3 == 0;
    if (round == 5) r.bound = r.t + 2;  // the counter passes the rows: slices clamp
    const std::string program = RnnProgram(r);
    const std::vector<testing::F32Input> inputs = {{{r.t, r.b, r.in}, values(r.t * r.b * r.in)},
                                                   {{r.in, r.h}, values(r.in * r.h)},
                                                   {{r.h, r.h}, values(r.h * r.h)}};
    const auto hoisted = testing::RunF32Program(**client, program, inputs);
    const auto looped = testing::RunF32Program(**client, program, inputs, "while-loop-hoisting=off");
    ASSERT_EQ(hoisted.size(), 1u);
    ASSERT_EQ(looped.size(), 1u);
    ASSERT_EQ(hoisted[0].size(), looped[0].size());
    for (size_t i = 0; i < hoisted[0].size(); ++i) {
      ASSERT_NEAR(hoisted[0][i], looped[0][i], 1e-5 * static_cast<double>(r.in + r.h))
          << "round " << round << " (t=" << r.t << " b=" << r.b << " in=" << r.in << " h=" << r.h
          << ") element " << i;
    }
  }
}

}  // namespace
}  // namespace plugrt
