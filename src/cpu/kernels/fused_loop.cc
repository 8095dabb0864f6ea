#include "cpu/kernels/fused_loop.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#include "cpu/kernels/fused_jit.h"
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

// sin and cos of any float: the polynomial within kTrigReduceLimit, double
// precision beyond it (and for infinities and NaN).
float SinAnywhere(float x) {
  return std::fabs(x) <= kTrigReduceLimit ? Sin(x) : static_cast<float>(std::sin(double{x}));
}
float CosAnywhere(float x) {
  return std::fabs(x) <= kTrigReduceLimit ? Cos(x) : static_cast<float>(std::cos(double{x}));
}

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
    case Op::kRoundEven: return fn([](float a) { return RoundEven(a); });
    case Op::kSin: return fn([](float a) { return SinAnywhere(a); });
    case Op::kCos: return fn([](float a) { return CosAnywhere(a); });
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
// sin or cos over n floats: one vectorized loop when every |x| is within
// kTrigReduceLimit (checked first, in a loop that vectorizes too), else
// element by element with the double-precision path for the others.
PLUGRT_VECTOR_CLONES void SinCosLoop(bool cosine, const float* a, float* out, int64_t n) {
  const float* __restrict pa = a;
  float* __restrict po = out;
  int outside = 0;
  for (int64_t i = 0; i < n; ++i) outside |= !(std::fabs(pa[i]) <= kTrigReduceLimit);
  if (outside != 0) {
    for (int64_t i = 0; i < n; ++i) po[i] = cosine ? CosAnywhere(pa[i]) : SinAnywhere(pa[i]);
  } else if (cosine) {
    for (int64_t i = 0; i < n; ++i) po[i] = Cos(pa[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) po[i] = Sin(pa[i]);
  }
}

PLUGRT_VECTOR_CLONES void UnaryLoop(Op op, const float* a, float* out, int64_t n) {
  if (op == Op::kSin || op == Op::kCos) return SinCosLoop(op == Op::kCos, a, out, n);
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
    case ElementType::kSI32:
      return static_cast<float>(t.as<int32_t>()[i]);
    case ElementType::kBF16:
      return std::bit_cast<float>(static_cast<uint32_t>(t.as<uint16_t>()[i]) << 16);
    default:  // i1
      return t.as<uint8_t>()[i] != 0 ? 1.0f : 0.0f;
  }
}

void ConvertIn(const Tensor& t, int64_t offset, float* out, int64_t n) {
  if (t.type() == ElementType::kSI32) {
    const int32_t* p = t.as<int32_t>() + offset;
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(p[i]);
  } else if (t.type() == ElementType::kBF16) {
    const uint16_t* p = t.as<uint16_t>() + offset;
    for (int64_t i = 0; i < n; ++i) out[i] = std::bit_cast<float>(static_cast<uint32_t>(p[i]) << 16);
  } else {
    const uint8_t* p = t.as<uint8_t>() + offset;
    for (int64_t i = 0; i < n; ++i) out[i] = p[i] != 0 ? 1.0f : 0.0f;
  }
}

// f32 to an integer in [lo, hi] as stablehlo.convert does (convert.cc):
// toward zero, NaN as 0, out-of-range values saturated. No branches, so
// that the loops storing it vectorize.
PLUGRT_INLINE int32_t ToInt(float v, float lo, float hi) {
  const float clamped = std::min(std::max(v, lo), hi);  // NaN stays NaN
  return static_cast<int32_t>(v == v ? clamped : 0.0f);
}

PLUGRT_VECTOR_CLONES void StoreOut(Tensor& t, int64_t offset, const float* in, int64_t n) {
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
    case ElementType::kSI8: {
      int8_t* p = t.mutable_as<int8_t>() + offset;
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<int8_t>(ToInt(in[i], -128.0f, 127.0f));
      break;
    }
    case ElementType::kUI8: {
      uint8_t* p = t.mutable_as<uint8_t>() + offset;
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(ToInt(in[i], 0.0f, 255.0f));
      break;
    }
    default: {
      uint8_t* p = t.mutable_as<uint8_t>() + offset;
      for (int64_t i = 0; i < n; ++i) p[i] = in[i] != 0 ? 1 : 0;
    }
  }
}

}  // namespace

// What Prepare works out once per kernel: register kinds, the order the
// instructions run in (runs of vector instructions become generated
// segments), scratch buffers, registers written straight into an output.
struct Plan {
  struct Step {
    int instr = -1;    // an interpreted instruction, or
    int segment = -1;  // a generated segment
  };
  struct Segment {
    std::vector<int> instrs;  // kernel instructions, in order
    std::vector<int> stored;  // registers it writes to memory
    std::unique_ptr<JitSegment> code;
    // The same loop writing the outputs it computes in place with streaming
    // (non-temporal) stores, for outputs too large to stay in the caches;
    // null when it writes no output in place.
    std::unique_ptr<JitSegment> streaming;
    std::vector<int> streamed;  // the registers streaming stores
    int reduction = -1;  // its row reduction instruction, or -1
  };
  std::vector<bool> uniform;
  std::vector<Step> steps;
  std::vector<Segment> segments;
  std::vector<int> buffer;      // per register: scratch buffer, or -1
  std::vector<int> output_of;   // per register: output written in place, or -1
  // Per output: the inputs it may be computed into when the caller gives
  // their memory up (see Run).
  std::vector<std::vector<int>> may_overwrite;
  int num_buffers = 0;
  bool row_tiles = false;       // tiles are (parts of) rows
  bool whole_rows = false;      // tiles are whole rows (row reductions)
  std::vector<bool> prefetch;   // per register: segments prefetch the next row of it
  int vector_cost = 0;          // VectorCost summed over the vector instructions
};

namespace {

// Iteration spaces of at least this many f32 bytes write their outputs with
// streaming stores (larger than the last-level caches of common CPUs).
constexpr int64_t kStreamBytes = int64_t{32} << 20;

// ... and only when their arithmetic is light enough (vector_cost, about
// cycles per 16 elements) for memory to set the speed: a compute-bound loop
// gains nothing from bypassing the caches, and measured slightly slower.
constexpr int kStreamMaxCost = 32;

// Rough cost of one vector of `op`, in cycles of a core with two 512-bit
// FMA pipes (the transcendentals are polynomial evaluations).
int VectorCost(Op op) {
  switch (op) {
    case Op::kExp: case Op::kLogistic: return 16;
    case Op::kTanh: return 22;
    case Op::kSin: case Op::kCos: return 20;
    case Op::kLog: case Op::kPow: return 40;
    case Op::kDiv: case Op::kSqrt: case Op::kRsqrt: return 5;
    case Op::kLoad: case Op::kConst: return 0;
    default: return 1;
  }
}

// Longest run of instructions in one generated segment.
constexpr size_t kMaxSegment = 256;

void MarkUniform(const Kernel& k, Plan& l) {
  l.uniform.assign(k.num_registers, false);
  for (const Input& input : k.inputs) {
    if (input.source == Source::kColumn || input.source == Source::kRowScalar) l.row_tiles = true;
  }
  for (const Instr& in : k.code) {
    bool uniform = false;
    if (in.op == Op::kLoad) {
      const Input& input = k.inputs[in.a];
      uniform = input.source == Source::kRowScalar || input.source == Source::kScalar;
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
  }
}

// Orders the instructions into steps: runs of vector instructions the JIT
// supports become segments; an instruction that does not need the open
// run's values moves ahead of it, so loads, constants and uniform
// arithmetic do not cut runs short.
// True when kernel input `i` is f32 over the whole iteration space: the
// kind the loop reads in place (no conversion into scratch), so the kind a
// prefetch can run ahead of and an output can be written into.
bool IsFullF32Input(const Kernel& k, int i) {
  return k.inputs[i].source == Source::kFull && k.inputs[i].type == ElementType::kF32;
}

void PlanSteps(const Kernel& k, Plan& l, bool generate_code) {
  const bool jit = generate_code && JitAvailable();
  const int n = k.num_registers;
  std::vector<std::vector<int>> readers(n);
  for (int i = 0; i < static_cast<int>(k.code.size()); ++i) {
    const Instr& in = k.code[i];
    if (in.op == Op::kLoad) continue;
    for (int r : {in.a, in.b, in.c}) {
      if (r >= 0) readers[r].push_back(i);
    }
  }
  std::vector<bool> is_output(n, false);
  for (const Output& o : k.outputs) is_output[o.reg] = true;
  std::vector<int> segment_of_instr(k.code.size(), -1);
  // Tiles of whole rows read each row in several passes (the reductions
  // first): the first pass waits on memory, the others hit the caches and
  // leave memory idle. Segments reading an f32 input from memory prefetch
  // the next row's part meanwhile, so later rows start in the caches.
  l.prefetch.assign(n, false);
  if (l.whole_rows) {
    for (const Instr& in : k.code) {
      if (in.op == Op::kLoad && IsFullF32Input(k, in.a)) l.prefetch[in.out] = true;
    }
  }

  // Generates `instrs` as one segment, or (too many live values) as two
  // halves, down to interpreted single instructions.
  auto emit = [&](auto& self, const std::vector<int>& instrs) -> void {
    const int id = static_cast<int>(l.segments.size());
    for (int i : instrs) segment_of_instr[i] = id;
    std::vector<bool> store(n, false);
    std::vector<int> stored;
    for (int i : instrs) {
      if (IsRowReduction(k.code[i].op)) continue;  // a uniform result (Run combines it)
      const int r = k.code[i].out;
      bool outside = is_output[r];
      for (int reader : readers[r]) outside = outside || segment_of_instr[reader] != id;
      if (outside) {
        store[r] = true;
        stored.push_back(r);
      }
    }
    std::unique_ptr<JitSegment> code =
        GenerateSegment(k, instrs, l.uniform, store, std::vector<bool>(n, false), l.prefetch);
    if (code != nullptr) {
      l.segments.push_back({instrs, std::move(stored), std::move(code), nullptr, {}});
      for (int i : instrs) {
        if (IsRowReduction(k.code[i].op)) l.segments.back().reduction = i;
      }
      l.steps.push_back({-1, id});
      return;
    }
    for (int i : instrs) segment_of_instr[i] = -1;
    if (instrs.size() == 1) {
      l.steps.push_back({instrs[0], -1});
      return;
    }
    const auto mid = instrs.begin() + static_cast<std::ptrdiff_t>(instrs.size() / 2);
    self(self, std::vector<int>(instrs.begin(), mid));
    self(self, std::vector<int>(mid, instrs.end()));
  };

  std::vector<int> open;
  std::vector<bool> in_open(n, false);
  bool open_reduces = false;  // the open segment has its (one) row reduction
  auto close = [&] {
    if (open.empty()) return;
    emit(emit, open);
    for (int i : open) in_open[k.code[i].out] = false;
    open.clear();
    open_reduces = false;
  };
  for (int i = 0; i < static_cast<int>(k.code.size()); ++i) {
    const Instr& in = k.code[i];
    // A row reduction of a vector value joins the segment computing (or
    // reading) it: the value is reduced while in registers instead of in
    // a pass of its own. What reads its result comes after the segment.
    if (jit && IsRowReduction(in.op) && !l.uniform[in.a]) {
      if (open_reduces || open.size() >= kMaxSegment) close();
      open.push_back(i);
      in_open[in.out] = true;
      open_reduces = true;
      continue;
    }
    if (jit && in.op != Op::kLoad && !l.uniform[in.out] && JitSupports(in.op)) {
      bool reads_reduction = false;
      for (int r : {in.a, in.b, in.c}) {
        reads_reduction = reads_reduction || (r >= 0 && in_open[r] && l.uniform[r]);
      }
      if (reads_reduction || open.size() >= kMaxSegment) close();
      open.push_back(i);
      in_open[in.out] = true;
      continue;
    }
    bool depends = false;
    for (int r : {in.a, in.b, in.c}) {
      if (in.op != Op::kLoad && r >= 0 && in_open[r]) depends = true;
    }
    if (depends) close();
    l.steps.push_back({i, -1});
  }
  close();
}

// Scratch buffers and in-place outputs for the values that live in memory,
// by liveness over the steps.
void AssignBuffers(const Kernel& k, Plan& l) {
  const int n = k.num_registers;
  const int end = static_cast<int>(l.steps.size());
  l.buffer.assign(n, -1);
  l.output_of.assign(n, -1);
  // Per step: the registers it reads and those it leaves in memory. A
  // segment reads what its instructions use but did not compute.
  std::vector<std::vector<int>> reads(end), writes(end);
  for (int p = 0; p < end; ++p) {
    const Plan::Step& step = l.steps[p];
    if (step.instr >= 0) {
      const Instr& in = k.code[step.instr];
      bool in_memory = !l.uniform[in.out];
      if (in.op == Op::kLoad) {
        in_memory = in_memory && k.inputs[in.a].type != ElementType::kF32;  // read in place
      } else {
        for (int r : {in.a, in.b, in.c}) {
          if (r >= 0) reads[p].push_back(r);
        }
      }
      if (in_memory) writes[p].push_back(in.out);
    } else {
      const Plan::Segment& seg = l.segments[step.segment];
      std::vector<bool> own(n, false);
      for (int i : seg.instrs) {
        const Instr& in = k.code[i];
        for (int r : {in.a, in.b, in.c}) {
          if (r >= 0 && !own[r]) reads[p].push_back(r);
        }
        own[in.out] = true;
      }
      writes[p] = seg.stored;
    }
  }
  std::vector<int> last_use(n, -1);
  for (int p = 0; p < end; ++p) {
    for (int r : reads[p]) last_use[r] = p;
  }
  for (const Output& o : k.outputs) last_use[o.reg] = end;

  std::vector<int> free_buffers;
  std::vector<bool> released(n, false);
  auto release = [&](int r) {
    if (l.buffer[r] >= 0 && !released[r]) {
      free_buffers.push_back(l.buffer[r]);
      released[r] = true;
    }
  };
  for (int p = 0; p < end; ++p) {
    for (int r : writes[p]) {
      // A computed f32 output is written straight into the output tensor.
      bool placed = false;
      const bool loaded = l.steps[p].instr >= 0 && k.code[l.steps[p].instr].op == Op::kLoad;
      for (size_t o = 0; o < k.outputs.size() && !placed && !loaded; ++o) {
        if (k.outputs[o].reg == r && k.outputs[o].type == ElementType::kF32) {
          l.output_of[r] = static_cast<int>(o);
          placed = true;
        }
      }
      if (placed) continue;
      if (free_buffers.empty()) {
        l.buffer[r] = l.num_buffers++;
      } else {
        l.buffer[r] = free_buffers.back();
        free_buffers.pop_back();
      }
    }
    // Operands whose last reader this is give their buffers back (after the
    // results took theirs, so results never alias operands).
    for (int r : reads[p]) {
      if (last_use[r] == p) release(r);
    }
    for (int r : writes[p]) {
      if (last_use[r] < 0) release(r);  // never read
    }
  }
}

}  // namespace

std::string Kernel::ToString() const {
  std::string s = "fused[" + std::to_string(code.size()) + " instrs, " +
                  std::to_string(inputs.size()) + " inputs, " + std::to_string(outputs.size()) +
                  " outputs]";
  return s;
}

// Which f32 outputs may be written into which f32 full-size inputs. Within a
// tile, an f32 input is read in place by the instructions that use its load
// register; an output placed in memory (output_of) is written when its
// producer runs, any other output at the tile's end. Writing output o into
// input i is safe when no instruction after o's producer (in run order)
// reads i: an instruction reads its operands before it writes its result,
// and tiles touch only their own elements of full-size tensors.
void PlanOverwrites(const Kernel& k, Plan& l) {
  const int n = k.num_registers;
  std::vector<int> position(k.code.size(), -1);
  int next = 0;
  for (const Plan::Step& step : l.steps) {
    if (step.instr >= 0) {
      position[step.instr] = next++;
    } else {
      for (int i : l.segments[step.segment].instrs) position[i] = next++;
    }
  }
  std::vector<int> input_of(n, -1);  // register -> the f32 full input it loads
  std::vector<int> producer(n, -1);
  for (size_t i = 0; i < k.code.size(); ++i) {
    const Instr& in = k.code[i];
    producer[in.out] = static_cast<int>(i);
    if (in.op == Op::kLoad && IsFullF32Input(k, in.a)) input_of[in.out] = in.a;
  }
  std::vector<int> last_read(k.inputs.size(), -1);
  for (size_t i = 0; i < k.code.size(); ++i) {
    const Instr& in = k.code[i];
    for (int r : {in.a, in.b, in.c}) {
      if (in.op != Op::kLoad && r >= 0 && input_of[r] >= 0) {
        last_read[input_of[r]] = std::max(last_read[input_of[r]], position[i]);
      }
    }
  }
  // An output that is a loaded input is copied out at the tile's end.
  for (const Output& out : k.outputs) {
    if (input_of[out.reg] >= 0) last_read[input_of[out.reg]] = std::numeric_limits<int>::max();
  }
  l.may_overwrite.assign(k.outputs.size(), {});
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    const Output& out = k.outputs[o];
    // A loaded value as an output is a copy of an input: never in place.
    if (out.type != ElementType::kF32 || input_of[out.reg] >= 0 ||
        k.code[producer[out.reg]].op == Op::kLoad) {
      continue;
    }
    const int written = l.output_of[out.reg] >= 0 ? position[producer[out.reg]]
                                                  : std::numeric_limits<int>::max() - 1;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
      if (IsFullF32Input(k, static_cast<int>(i)) && last_read[i] <= written) {
        l.may_overwrite[o].push_back(static_cast<int>(i));
      }
    }
  }
}

std::shared_ptr<const Plan> Prepare(const Kernel& k, bool generate_code) {
  auto plan = std::make_shared<Plan>();
  MarkUniform(k, *plan);
  for (const Instr& in : k.code) {
    if (!plan->uniform[in.out] || IsRowReduction(in.op)) plan->vector_cost += VectorCost(in.op);
  }
  PlanSteps(k, *plan, generate_code);
  AssignBuffers(k, *plan);
  PlanOverwrites(k, *plan);
  // Streaming versions of the segments that write outputs in place (only
  // kernels light enough to stream ever run them).
  if (plan->vector_cost > kStreamMaxCost) return plan;
  for (Plan::Segment& seg : plan->segments) {
    std::vector<bool> store(k.num_registers, false), stream(k.num_registers, false);
    for (int r : seg.stored) {
      store[r] = true;
      if (plan->output_of[r] >= 0) {
        stream[r] = true;
        seg.streamed.push_back(r);
      }
    }
    if (!seg.streamed.empty()) {
      seg.streaming = GenerateSegment(k, seg.instrs, plan->uniform, store, stream, plan->prefetch);
    }
  }
  return plan;
}

int GeneratedSegments(const Plan& plan) { return static_cast<int>(plan.segments.size()); }

StatusOr<std::vector<Tensor>> Run(const Kernel& k, const Plan& layout, int64_t rows,
                                  int64_t cols, const std::vector<Tensor>& inputs, int threads,
                                  const std::vector<bool>& overwritable, int* in_place) {
  if (inputs.size() != k.inputs.size()) {
    return InvalidArgument("fused kernel expects ", k.inputs.size(), " inputs, got ",
                           inputs.size());
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (k.inputs[i].row_divisor < 1 || k.inputs[i].row_period < 0) {
      return InvalidArgument("fused kernel input ", i, " has row divisor ",
                             k.inputs[i].row_divisor, " and period ", k.inputs[i].row_period);
    }
    const int64_t want = k.inputs[i].source == Source::kFull     ? rows * cols
                         : k.inputs[i].source == Source::kColumn ? cols
                         : k.inputs[i].source == Source::kRowScalar
                             ? (k.inputs[i].row_period > 0 ? k.inputs[i].row_period
                                                           : rows / k.inputs[i].row_divisor)
                                                                    : 1;
    if (inputs[i].num_elements() != want || inputs[i].type() != k.inputs[i].type) {
      return InvalidArgument("fused kernel input ", i, " has ", inputs[i].num_elements(),
                             " elements of ", shlo::ElementTypeName(inputs[i].type()),
                             ", expected ", want, " of ", shlo::ElementTypeName(k.inputs[i].type));
    }
  }
  std::vector<Tensor> outputs;
  std::vector<bool> taken(inputs.size(), false);
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    const Output& out = k.outputs[o];
    int into = -1;
    int64_t count = 1;
    for (int64_t d : out.dims) count *= d;
    if (!overwritable.empty() && count == rows * cols) {
      for (int i : layout.may_overwrite[o]) {
        if (overwritable[i] && !taken[i]) {
          into = i;
          break;
        }
      }
    }
    if (into < 0) {
      outputs.push_back(Tensor::Uninitialized(out.type, out.dims));
      continue;
    }
    // The input's memory, under the output's dims (same element count).
    taken[into] = true;
    outputs.push_back(inputs[into].Reshaped(out.dims));
    if (in_place != nullptr) ++*in_place;
  }
  // Where each output register lands: a row scalar or a full element.
  std::vector<bool> output_is_row(k.outputs.size());
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    output_is_row[o] = outputs[o].num_elements() == rows && layout.uniform[k.outputs[o].reg];
  }

  // Tiles: whole rows, parts of rows, several whole rows, or (no row
  // structure) parts of the flattened space. Rows shorter than a tile whose
  // only row structure is column inputs go several to a tile, each column
  // input then read from a copy repeated once per row of the tile (a
  // tile of one short row costs more in its setup than in its arithmetic).
  const int64_t total = rows * cols;
  int64_t tile = kTile, tiles_per_row = 1, num_tiles = 0, rows_per_tile = 1;
  bool row_structure = false;  // a tile needs its row (row scalars)
  for (const Input& input : k.inputs) row_structure |= input.source == Source::kRowScalar;
  for (size_t o = 0; o < k.outputs.size(); ++o) row_structure |= output_is_row[o];
  if (layout.whole_rows) {
    tile = cols;
    num_tiles = rows;
  } else if (layout.row_tiles && !row_structure && cols > 0 && cols <= kTile / 2) {
    rows_per_tile = kTile / cols;
    tile = rows_per_tile * cols;
    num_tiles = (rows + rows_per_tile - 1) / rows_per_tile;
  } else if (layout.row_tiles) {
    tiles_per_row = (cols + kTile - 1) / kTile;
    num_tiles = rows * tiles_per_row;
  } else {
    num_tiles = (total + kTile - 1) / kTile;
  }
  const bool multi_row = rows_per_tile > 1;
  if (total == 0) return outputs;
  const int team = std::min<int64_t>(threads, std::max<int64_t>(1, total / kElementsPerThread));
  // Outputs this large are written past the caches (they would only evict
  // the inputs still to be read); smaller ones stay cached for their readers.
  const bool stream_outputs = total * static_cast<int64_t>(sizeof(float)) >= kStreamBytes &&
                              layout.vector_cost <= kStreamMaxCost;

  // Prefetch distance: the next row, or the next tile of several rows.
  const int64_t next_row = (multi_row ? tile : cols) * static_cast<int64_t>(sizeof(float));
  // Per input, its place among the repeated column copies, or -1.
  std::vector<int> repeated(k.inputs.size(), -1);
  int num_repeated = 0;
  if (multi_row) {
    for (size_t i = 0; i < k.inputs.size(); ++i) {
      if (k.inputs[i].source == Source::kColumn) repeated[i] = num_repeated++;
    }
  }
  ParallelFor(num_tiles, team, [&](int64_t first, int64_t last) {
    const size_t buffer_floats = static_cast<size_t>(std::max<int64_t>(tile, 16));
    // One buffer more than the registers need, for spreading uniform
    // outputs; then the repeated column copies.
    std::unique_ptr<float[]> scratch(
        new float[buffer_floats * (layout.num_buffers + 1 + num_repeated)]);
    float* splat = scratch.get() + buffer_floats * layout.num_buffers;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
      if (repeated[i] < 0) continue;
      float* copy = splat + buffer_floats * static_cast<size_t>(1 + repeated[i]);
      for (int64_t row = 0; row < rows_per_tile; ++row) {
        if (inputs[i].type() == ElementType::kF32) {
          std::memcpy(copy + row * cols, inputs[i].as<float>(),
                      static_cast<size_t>(cols) * sizeof(float));
        } else {
          ConvertIn(inputs[i], 0, copy + row * cols, cols);
        }
      }
    }
    std::vector<const float*> ptr(k.num_registers, nullptr);
    std::vector<float> val(k.num_registers, 0.0f);
    alignas(64) float partials[16];  // a generated row reduction's lane results
    for (int64_t t = first; t < last; ++t) {
      int64_t r = 0, c0 = 0, len = 0;
      if (multi_row) {
        r = t * rows_per_tile;
        len = std::min(rows - r, rows_per_tile) * cols;
      } else if (layout.row_tiles) {
        r = t / tiles_per_row;
        c0 = (t % tiles_per_row) * tile;
        len = std::min(tile, cols - c0);
      } else {
        c0 = t * tile;
        len = std::min(tile, total - c0);
      }
      // Offset of the tile's first element in full-size tensors.
      const int64_t base = layout.row_tiles ? r * cols + c0 : c0;
      // Where register o's tile data goes when a step computes it.
      auto destination = [&](int o) -> float* {
        if (layout.output_of[o] >= 0) {
          return outputs[layout.output_of[o]].mutable_as<float>() + base;
        }
        if (layout.buffer[o] >= 0) {
          return scratch.get() + static_cast<size_t>(layout.buffer[o]) * buffer_floats;
        }
        return nullptr;
      };
      for (const Plan::Step& step : layout.steps) {
        if (step.segment >= 0) {
          const Plan::Segment& seg = layout.segments[step.segment];
          for (int o : seg.stored) ptr[o] = destination(o);
          bool stream = stream_outputs && seg.streaming != nullptr;
          for (int o : seg.streamed) {
            stream = stream && (reinterpret_cast<uintptr_t>(ptr[o]) & 63) == 0;
          }
          if (seg.reduction >= 0) ptr[k.code[seg.reduction].out] = partials;
          (stream ? seg.streaming : seg.code)->fn()(ptr.data(), val.data(), len, next_row);
          if (seg.reduction >= 0) {
            // The segment left 16 lane results; combine them as the
            // interpreted reductions combine theirs.
            const Instr& red = k.code[seg.reduction];
            val[red.out] = red.op == Op::kRowSum   ? red.imm + RowSum(partials, 16)
                           : red.op == Op::kRowMax ? RowMax(partials, 16, red.imm)
                                                   : RowMin(partials, 16, red.imm);
          }
          continue;
        }
        const Instr& in = k.code[step.instr];
        const int o = in.out;
        if (layout.uniform[o]) {
          float result = 0;
          if (in.op == Op::kLoad) {
            const Tensor& src = inputs[in.a];
            const Input& input = k.inputs[in.a];
            int64_t at = 0;
            if (input.source == Source::kRowScalar) {
              at = r / input.row_divisor;
              if (input.row_period > 0) at %= input.row_period;
            }
            result = LoadElement(src, at);
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
        float* dst = destination(o);
        auto arg = [&](int reg) {
          Arg a;
          if (layout.uniform[reg]) {
            a.v = val[reg];
          } else {
            a.p = ptr[reg];
          }
          return a;
        };
        if (in.op == Op::kLoad && repeated[in.a] >= 0) {
          ptr[o] = splat + buffer_floats * static_cast<size_t>(1 + repeated[in.a]);
          continue;
        }
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
    if (stream_outputs) StreamFence();
  });
  return outputs;
}

}  // namespace plugrt::cpu::fused
