#include "cpu/kernels/fused_loop.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#include "cpu/kernels/parallel.h"
#include "cpu/kernels/vector_math.h"
#include "stablehlo/float_format.h"


namespace plugrt::cpu::fused {
namespace {

using namespace vmath;  // NOLINT: the math the loops are written in

// Elements per tile of a loop without row reductions: 4 KiB per register, so
// a dozen live registers stay in L1.
constexpr int64_t kTile = 1024;
// Elements per thread below which a loop stays on one thread.
constexpr int64_t kElementsPerThread = 1 << 15;

// Calls fn(functor) with the unary functor of `op`.
template <typename Fn>
PLUGRT_INLINE void VisitUnary(Op op, Fn&& fn) {
  switch (op) {
    case Op::kNeg: return fn([](float a) { return -a; });
    case Op::kAbs: return fn([](float a) { return std::fabs(a); });
    case Op::kExp: return fn([](float a) { return Exp(a); });
    case Op::kLog: return fn([](float a) { return std::log(a); });
    case Op::kTanh: return fn([](float a) { return Tanh(a); });
    case Op::kLogistic: return fn([](float a) { return Logistic(a); });
    case Op::kSqrt: return fn([](float a) { return std::sqrt(a); });
    case Op::kRsqrt: return fn([](float a) { return 1.0f / std::sqrt(a); });
    case Op::kFloor: return fn([](float a) { return std::floor(a); });
    case Op::kCeil: return fn([](float a) { return std::ceil(a); });
    case Op::kSign: return fn([](float a) { return Sign(a); });
    case Op::kNot: return fn([](float a) { return Truth(a == 0); });
    default: return fn([](float a) { return a; });  // kCopy
  }
}

template <typename Fn>
PLUGRT_INLINE void VisitBinary(Op op, Fn&& fn) {
  switch (op) {
    case Op::kAdd: return fn([](float a, float b) { return a + b; });
    case Op::kSub: return fn([](float a, float b) { return a - b; });
    case Op::kMul: return fn([](float a, float b) { return a * b; });
    case Op::kDiv: return fn([](float a, float b) { return a / b; });
    case Op::kMax: return fn([](float a, float b) { return Max(a, b); });
    case Op::kMin: return fn([](float a, float b) { return Min(a, b); });
    case Op::kPow: return fn([](float a, float b) { return std::pow(a, b); });
    case Op::kCmpEq: return fn([](float a, float b) { return Truth(a == b); });
    case Op::kCmpNe: return fn([](float a, float b) { return Truth(a != b); });
    case Op::kCmpLt: return fn([](float a, float b) { return Truth(a < b); });
    case Op::kCmpLe: return fn([](float a, float b) { return Truth(a <= b); });
    case Op::kCmpGt: return fn([](float a, float b) { return Truth(a > b); });
    case Op::kCmpGe: return fn([](float a, float b) { return Truth(a >= b); });
    case Op::kAnd: return fn([](float a, float b) { return Truth(a != 0 && b != 0); });
    default: return fn([](float a, float b) { return Truth(a != 0 || b != 0); });  // kOr
  }
}

// --- The loops. --------------------------------------------------------------

// An operand of an instruction in one tile: a vector (pointer) or uniform.
struct Arg {
  const float* p = nullptr;  // null: uniform
  float v = 0;
};

// The lambdas take their pointers by value into __restrict locals: through
// a by-reference capture the compiler must assume each store may change the
// pointers themselves, and the loop stays scalar.
PLUGRT_VECTOR_CLONES void UnaryLoop(Op op, const float* a, float* out, int64_t n) {
  VisitUnary(op, [a, out, n](auto f) {
    const float* __restrict pa = a;
    float* __restrict po = out;
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i]);
  });
}

PLUGRT_VECTOR_CLONES void BinaryLoop(Op op, Arg a, Arg b, float* out, int64_t n) {
  VisitBinary(op, [a, b, out, n](auto f) {
    const float* __restrict pa = a.p;
    const float* __restrict pb = b.p;
    float* __restrict po = out;
    if (pa != nullptr && pb != nullptr) {
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    } else if (pa != nullptr) {
      const float vb = b.v;
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], vb);
    } else {
      const float va = a.v;
      for (int64_t i = 0; i < n; ++i) po[i] = f(va, pb[i]);
    }
  });
}

PLUGRT_VECTOR_CLONES void SelectLoop(Arg c, Arg a, Arg b, float* __restrict out, int64_t n) {
  // Uniform operands are read through a one-element stride-0 view.
  const int64_t sc = c.p ? 1 : 0, sa = a.p ? 1 : 0, sb = b.p ? 1 : 0;
  const float* pc = c.p ? c.p : &c.v;
  const float* pa = a.p ? a.p : &a.v;
  const float* pb = b.p ? b.p : &b.v;
  if (sc && sa && sb) {
    for (int64_t i = 0; i < n; ++i) out[i] = pc[i] != 0 ? pa[i] : pb[i];
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = pc[i * sc] != 0 ? pa[i * sa] : pb[i * sb];
  }
}

float ApplyScalar(const Instr& in, float a, float b, float c) {
  float result = 0;
  if (in.op == Op::kSelect) return a != 0 ? b : c;
  if (in.op >= Op::kAdd && in.op <= Op::kOr) {
    VisitBinary(in.op, [&](auto f) { result = f(a, b); });
  } else {
    VisitUnary(in.op, [&](auto f) { result = f(a); });
  }
  return result;
}

float LoadElement(const Tensor& t, int64_t i) {
  switch (t.type()) {
    case ElementType::kF32:
      return t.as<float>()[i];
    case ElementType::kBF16:
      return std::bit_cast<float>(static_cast<uint32_t>(t.as<uint16_t>()[i]) << 16);
    default:  // i1
      return t.as<uint8_t>()[i] != 0 ? 1.0f : 0.0f;
  }
}

void ConvertIn(const Tensor& t, int64_t offset, float* out, int64_t n) {
  if (t.type() == ElementType::kBF16) {
    const uint16_t* p = t.as<uint16_t>() + offset;
    for (int64_t i = 0; i < n; ++i) out[i] = std::bit_cast<float>(static_cast<uint32_t>(p[i]) << 16);
  } else {
    const uint8_t* p = t.as<uint8_t>() + offset;
    for (int64_t i = 0; i < n; ++i) out[i] = p[i] != 0 ? 1.0f : 0.0f;
  }
}

void StoreOut(Tensor& t, int64_t offset, const float* in, int64_t n) {
  switch (t.type()) {
    case ElementType::kF32:
      std::memcpy(t.mutable_as<float>() + offset, in, static_cast<size_t>(n) * sizeof(float));
      break;
    case ElementType::kBF16: {
      uint16_t* p = t.mutable_as<uint16_t>() + offset;
      for (int64_t i = 0; i < n; ++i) {
        p[i] = static_cast<uint16_t>(shlo::EncodeFloat(ElementType::kBF16, in[i]));
      }
      break;
    }
    default: {
      uint8_t* p = t.mutable_as<uint8_t>() + offset;
      for (int64_t i = 0; i < n; ++i) p[i] = in[i] != 0 ? 1 : 0;
    }
  }
}

// What Run works out once per kernel: register kinds, scratch buffers,
// registers written straight into an output.
struct Layout {
  std::vector<bool> uniform;
  std::vector<int> buffer;      // per register: scratch buffer, or -1
  std::vector<int> output_of;   // per register: output written in place, or -1
  int num_buffers = 0;
  bool row_tiles = false;       // tiles are (parts of) rows
  bool whole_rows = false;      // tiles are whole rows (row reductions)
};

Layout MakeLayout(const Kernel& k) {
  Layout l;
  const int n = k.num_registers;
  l.uniform.assign(n, false);
  l.buffer.assign(n, -1);
  l.output_of.assign(n, -1);
  std::vector<int> last_use(n, -1);
  const int end = static_cast<int>(k.code.size());
  for (int i = 0; i < end; ++i) {
    const Instr& in = k.code[i];
    for (int r : {in.a, in.b, in.c}) {
      if (r >= 0 && in.op != Op::kLoad) last_use[r] = i;
    }
  }
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    last_use[k.outputs[o].reg] = end;
  }
  for (const Input& input : k.inputs) {
    if (input.source == Source::kColumn || input.source == Source::kRowScalar) l.row_tiles = true;
  }
  std::vector<int> free_buffers;
  std::vector<bool> released(n, false);
  auto release = [&](int r) {
    if (l.buffer[r] >= 0 && !released[r]) {
      free_buffers.push_back(l.buffer[r]);
      released[r] = true;
    }
  };
  for (int i = 0; i < end; ++i) {
    const Instr& in = k.code[i];
    bool uniform = false;
    bool needs_buffer = true;
    if (in.op == Op::kLoad) {
      const Input& input = k.inputs[in.a];
      uniform = input.source == Source::kRowScalar || input.source == Source::kScalar;
      needs_buffer = !uniform && input.type != ElementType::kF32;
    } else if (in.op == Op::kConst) {
      uniform = true;
    } else if (IsRowReduction(in.op)) {
      uniform = true;
      l.row_tiles = l.whole_rows = true;
    } else {
      uniform = true;
      for (int r : {in.a, in.b, in.c}) {
        if (r >= 0 && !l.uniform[r]) uniform = false;
      }
    }
    l.uniform[in.out] = uniform;
    if (!uniform && needs_buffer && in.op != Op::kLoad) {
      // A computed f32 output is written straight into the output tensor.
      for (size_t o = 0; o < k.outputs.size(); ++o) {
        if (k.outputs[o].reg == in.out && k.outputs[o].type == ElementType::kF32 &&
            l.output_of[in.out] < 0) {
          l.output_of[in.out] = static_cast<int>(o);
          needs_buffer = false;
        }
      }
    }
    if (!uniform && needs_buffer) {
      if (free_buffers.empty()) {
        l.buffer[in.out] = l.num_buffers++;
      } else {
        l.buffer[in.out] = free_buffers.back();
        free_buffers.pop_back();
      }
    }
    // Operands whose last reader this is give their buffers back (after the
    // result took one, so results never alias operands).
    for (int r : {in.a, in.b, in.c}) {
      if (r >= 0 && in.op != Op::kLoad && last_use[r] == i) release(r);
    }
    if (last_use[in.out] < 0) release(in.out);  // never read
  }
  return l;
}

}  // namespace

std::string Kernel::ToString() const {
  std::string s = "fused[" + std::to_string(code.size()) + " instrs, " +
                  std::to_string(inputs.size()) + " inputs, " + std::to_string(outputs.size()) +
                  " outputs]";
  return s;
}

StatusOr<std::vector<Tensor>> Run(const Kernel& k, int64_t rows, int64_t cols,
                                  const std::vector<Tensor>& inputs, int threads) {
  if (inputs.size() != k.inputs.size()) {
    return InvalidArgument("fused kernel expects ", k.inputs.size(), " inputs, got ",
                           inputs.size());
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int64_t want = k.inputs[i].source == Source::kFull     ? rows * cols
                         : k.inputs[i].source == Source::kColumn ? cols
                         : k.inputs[i].source == Source::kRowScalar ? rows
                                                                    : 1;
    if (inputs[i].num_elements() != want || inputs[i].type() != k.inputs[i].type) {
      return InvalidArgument("fused kernel input ", i, " has ", inputs[i].num_elements(),
                             " elements of ", shlo::ElementTypeName(inputs[i].type()),
                             ", expected ", want, " of ", shlo::ElementTypeName(k.inputs[i].type));
    }
  }
  const Layout layout = MakeLayout(k);
  std::vector<Tensor> outputs;
  for (const Output& o : k.outputs) outputs.push_back(Tensor::Uninitialized(o.type, o.dims));
  // Where each output register lands: a row scalar or a full element.
  std::vector<bool> output_is_row(k.outputs.size());
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    output_is_row[o] = outputs[o].num_elements() == rows && layout.uniform[k.outputs[o].reg];
  }

  // Tiles: whole rows, parts of rows, or (no row structure) parts of the
  // flattened space.
  const int64_t total = rows * cols;
  int64_t tile = kTile, tiles_per_row = 1, num_tiles = 0;
  if (layout.whole_rows) {
    tile = cols;
    num_tiles = rows;
  } else if (layout.row_tiles) {
    tiles_per_row = (cols + kTile - 1) / kTile;
    num_tiles = rows * tiles_per_row;
  } else {
    num_tiles = (total + kTile - 1) / kTile;
  }
  if (total == 0) return outputs;
  const int team = std::min<int64_t>(threads, std::max<int64_t>(1, total / kElementsPerThread));

  ParallelFor(num_tiles, team, [&](int64_t first, int64_t last) {
    const size_t buffer_floats = static_cast<size_t>(std::max<int64_t>(tile, 16));
    // One buffer more than the registers need, for spreading uniform outputs.
    std::unique_ptr<float[]> scratch(new float[buffer_floats * (layout.num_buffers + 1)]);
    float* splat = scratch.get() + buffer_floats * layout.num_buffers;
    std::vector<const float*> ptr(k.num_registers, nullptr);
    std::vector<float> val(k.num_registers, 0.0f);
    for (int64_t t = first; t < last; ++t) {
      int64_t r = 0, c0 = 0, len = 0;
      if (layout.row_tiles) {
        r = t / tiles_per_row;
        c0 = (t % tiles_per_row) * tile;
        len = std::min(tile, cols - c0);
      } else {
        c0 = t * tile;
        len = std::min(tile, total - c0);
      }
      // Offset of the tile's first element in full-size tensors.
      const int64_t base = layout.row_tiles ? r * cols + c0 : c0;
      for (const Instr& in : k.code) {
        const int o = in.out;
        if (layout.uniform[o]) {
          float result = 0;
          if (in.op == Op::kLoad) {
            const Tensor& src = inputs[in.a];
            result = LoadElement(src, k.inputs[in.a].source == Source::kRowScalar ? r : 0);
          } else if (in.op == Op::kConst) {
            result = in.imm;
          } else if (IsRowReduction(in.op) && layout.uniform[in.a]) {
            // A reduction of a value the same across the row.
            const float v = val[in.a];
            result = in.op == Op::kRowSum   ? in.imm + v * static_cast<float>(len)
                     : in.op == Op::kRowMax ? Max(in.imm, v)
                                            : Min(in.imm, v);
          } else if (in.op == Op::kRowSum) {
            result = in.imm + RowSum(ptr[in.a], len);
          } else if (in.op == Op::kRowMax) {
            result = RowMax(ptr[in.a], len, in.imm);
          } else if (in.op == Op::kRowMin) {
            result = RowMin(ptr[in.a], len, in.imm);
          } else {
            result = ApplyScalar(in, val[in.a], in.b >= 0 ? val[in.b] : 0,
                                 in.c >= 0 ? val[in.c] : 0);
          }
          val[o] = result;
          continue;
        }
        float* dst = nullptr;
        if (layout.output_of[o] >= 0) {
          dst = outputs[layout.output_of[o]].mutable_as<float>() + base;
        } else if (layout.buffer[o] >= 0) {
          dst = scratch.get() + static_cast<size_t>(layout.buffer[o]) * buffer_floats;
        }
        auto arg = [&](int reg) {
          Arg a;
          if (layout.uniform[reg]) {
            a.v = val[reg];
          } else {
            a.p = ptr[reg];
          }
          return a;
        };
        if (in.op == Op::kLoad) {
          const Tensor& src = inputs[in.a];
          const int64_t offset = k.inputs[in.a].source == Source::kColumn ? c0 : base;
          if (src.type() == ElementType::kF32) {
            ptr[o] = src.as<float>() + offset;
            continue;
          }
          ConvertIn(src, offset, dst, len);
        } else if (in.op == Op::kSelect) {
          SelectLoop(arg(in.a), arg(in.b), arg(in.c), dst, len);
        } else if (in.b >= 0) {
          BinaryLoop(in.op, arg(in.a), arg(in.b), dst, len);
        } else {
          UnaryLoop(in.op, ptr[in.a], dst, len);
        }
        ptr[o] = dst;
      }
      for (size_t oi = 0; oi < k.outputs.size(); ++oi) {
        const int reg = k.outputs[oi].reg;
        if (output_is_row[oi]) {
          // Row scalars: written by the row's (first) tile.
          if (c0 == 0) {
            const float v = val[reg];
            StoreOut(outputs[oi], r, &v, 1);
          }
          continue;
        }
        if (layout.output_of[reg] == static_cast<int>(oi)) continue;
        if (layout.uniform[reg]) {
          std::fill(splat, splat + len, val[reg]);  // a uniform value spread over the tile
          StoreOut(outputs[oi], base, splat, len);
        } else {
          StoreOut(outputs[oi], base, ptr[reg], len);
        }
      }
    }
  });
  return outputs;
}

}  // namespace plugrt::cpu::fused
