#include "cpu/kernels/fused_jit.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_map>

#include "cpu/kernels/vector_math.h"

#if PLUGRT_HAVE_XBYAK
#include <xbyak/xbyak.h>
#endif

namespace plugrt::cpu::fused {

#if PLUGRT_HAVE_XBYAK
namespace {

using Xbyak::Zmm;

// Constants the generated code reads (broadcast from memory).
enum Const : int {
  kOne, kTwo, kZero, kMinusOne, kSignBit, kAbsMask,
  kLog2e, kLn2Hi, kLn2Lo, kTwoLog2e, kHalfLn2,
  kExpHigh, kExpLow, kTanhLow,
  kQuietNaN,
  kExpPoly,                                          // exp(r), lowest degree first
  kTanhPoly = kExpPoly + std::size(vmath::kExpPoly),  // expm1(2h) / h, lowest degree first
  kNumConsts = kTanhPoly + std::size(vmath::kExpm1OverRPoly),
};

constexpr uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

constexpr std::array<uint32_t, kNumConsts> MakePool() {
  std::array<uint32_t, kNumConsts> pool{};
  pool[kOne] = Bits(1.0f);
  pool[kTwo] = Bits(2.0f);
  pool[kZero] = Bits(0.0f);
  pool[kMinusOne] = Bits(-1.0f);
  pool[kSignBit] = 0x80000000u;
  pool[kAbsMask] = 0x7fffffffu;
  // ln 2 in two parts (the first times any n here is exact).
  constexpr float log2e = 1.44269504088896341f, ln2_hi = 0.693145751953125f,
                  ln2_lo = 1.428606765330187045e-06f;
  pool[kLog2e] = Bits(log2e);
  pool[kLn2Hi] = Bits(ln2_hi);
  pool[kLn2Lo] = Bits(ln2_lo);
  pool[kTwoLog2e] = Bits(2 * log2e);
  pool[kHalfLn2] = Bits(0.693147180559945309f / 2);
  // exp's argument is clamped to [-150, 150] (scalef turns the ends into 0
  // and inf), tanh's -|x| to -10 (beyond, tanh is 1 in float).
  pool[kExpHigh] = Bits(150.0f);
  pool[kExpLow] = Bits(-150.0f);
  pool[kTanhLow] = Bits(-10.0f);
  pool[kQuietNaN] = 0x7fc00000u;
  for (size_t i = 0; i < std::size(vmath::kExpPoly); ++i) {
    pool[kExpPoly + i] = Bits(vmath::kExpPoly[i]);
  }
  // expm1(r) = r P(r) with r = 2h is h Q(h), Q_i = P_i 2^(i+1) (exact scalings).
  for (size_t i = 0; i < std::size(vmath::kExpm1OverRPoly); ++i) {
    pool[kTanhPoly + i] = Bits(vmath::kExpm1OverRPoly[i] * static_cast<float>(2 << i));
  }
  return pool;
}
alignas(64) constexpr std::array<uint32_t, kNumConsts> kPool = MakePool();

// vcmpps predicates.
constexpr uint8_t kEqOq = 0x00, kNeqUq = 0x04, kLtOq = 0x11, kLeOq = 0x12, kGeOq = 0x1d,
                  kGtOq = 0x1e, kUnordQ = 0x03;
// vrndscaleps: round to nearest even / down / up, no precision exception.
constexpr uint8_t kRoundNearest = 0x08, kRoundDown = 0x09, kRoundUp = 0x0a;

// Register use: values in zmm0..21, math temporaries zmm22..27, uniform
// operands broadcast into zmm28..30, a row reduction's accumulators in
// zmm31 (and, unrolled, zmm21, zmm20 taken from the values). k1 is the tile
// mask (all ones but in the last, partial vector), k2, k3 and k5 are
// scratch, k4 gathers where a max/min reduction met NaNs.
constexpr int kFirstTemp = 22;
constexpr int kFirstOperandTemp = 28;
constexpr int kMaxLanes = 3;
static_assert(kJitMaxLive <= kFirstTemp);

class Generator final : public Xbyak::CodeGenerator, public JitSegment {
 public:
  Generator(const Kernel& k, const std::vector<int>& instrs, const std::vector<bool>& uniform,
            const std::vector<bool>& store, const std::vector<bool>& stream,
            const std::vector<bool>& prefetch)
      : Xbyak::CodeGenerator(16384, Xbyak::AutoGrow),
        k_(k),
        instrs_(instrs),
        uniform_(uniform),
        store_(store),
        stream_(stream),
        prefetch_(prefetch) {}

  SegmentFn fn() const override { return getCode<SegmentFn>(); }

  // Emits the function; false when the values do not fit the registers.
  bool Build() {
    // A row reduction keeps one accumulator per unrolled vector: the
    // extra ones come out of the value registers.
    const Instr* reduction = Reduction();
    if (reduction != nullptr) value_regs_ = kJitMaxLive - (kMaxLanes - 1);
    const int peak = PeakLive();
    if (peak > value_regs_) return false;
    // Arguments (System V): rdi = ptr, rsi = val, rdx = n, rcx = ahead.
    // r8: byte offset of the current vector, r9: elements left, r10: the
    // constant pool, r11: ahead (rcx is needed for the tail mask shift).
    Xbyak::Label loop2, loop1, tail, done;
    mov(r10, reinterpret_cast<size_t>(kPool.data()));
    mov(r11, rcx);
    xor_(r8, r8);
    mov(r9, rdx);
    // A row reduction accumulates across the whole loop, per unrolled
    // vector: from 0 for a sum (the caller adds its init), from the init
    // value for max and min, whose NaNs are gathered in k4.
    if (reduction != nullptr) {
      for (int lane = 0; lane < kMaxLanes; ++lane) {
        if (reduction->op == Op::kRowSum) {
          vxorps(Accumulator(lane), Accumulator(lane), Accumulator(lane));
        } else {
          mov(eax, std::bit_cast<uint32_t>(reduction->imm));
          vpbroadcastd(Accumulator(lane), eax);
        }
      }
      kxorw(k4, k4, k4);
    }
    // Several vectors per step where the values fit several times: their
    // independent chains interleave, so the core overlaps the long latencies
    // of exp, tanh and division instead of waiting them out.
    const int lanes = std::min(kMaxLanes, value_regs_ / peak);
    if (lanes > 1) {
      L(loop2);
      cmp(r9, 16 * lanes);
      jl(loop1, T_NEAR);
      Body(false, lanes);
      add(r8, 64 * lanes);
      sub(r9, 16 * lanes);
      jmp(loop2, T_NEAR);
    }
    L(loop1);
    cmp(r9, 16);
    jl(tail, T_NEAR);
    Body(false, 1);
    add(r8, 64);
    sub(r9, 16);
    jmp(loop1, T_NEAR);
    L(tail);
    test(r9, r9);
    jz(done, T_NEAR);
    mov(ecx, r9d);
    mov(eax, 1);
    shl(eax, cl);
    dec(eax);
    kmovw(k1, eax);
    Body(true, 1);
    L(done);
    if (reduction != nullptr) {
      // Lanes' accumulators into the first, NaNs back in, and the 16
      // partial results out for the caller to combine.
      const Zmm acc = Accumulator(0);
      for (int lane = 1; lane < kMaxLanes; ++lane) {
        if (reduction->op == Op::kRowSum) {
          vaddps(acc, acc, Accumulator(lane));
        } else if (reduction->op == Op::kRowMax) {
          vmaxps(acc, acc, Accumulator(lane));
        } else {
          vminps(acc, acc, Accumulator(lane));
        }
      }
      if (reduction->op != Op::kRowSum) {
        vbroadcastss(Temp(0), Const(kQuietNaN));
        vmovaps(acc | k4, Temp(0));
      }
      mov(rax, ptr[rdi + 8 * static_cast<int64_t>(reduction->out)]);
      vmovups(ptr[rax], acc);
    }
    vzeroupper();
    ret();
    ready(Xbyak::CodeArray::PROTECT_RE);
    return true;
  }

 private:
  // The segment's row reduction, if any (at most one, PlanSteps sees to it).
  const Instr* Reduction() const {
    for (int i : instrs_) {
      if (IsRowReduction(k_.code[i].op)) return &k_.code[i];
    }
    return nullptr;
  }

  // The accumulator of unrolled vector `lane`: zmm31, then the value
  // registers given up for it (value_regs_ and up).
  static Zmm Accumulator(int lane) { return lane == 0 ? Zmm(31) : Zmm(kJitMaxLive - lane); }

  // acc = reduce(acc, v) element by element, one short dependency chain per
  // lane; in the tail, elements outside k1 leave acc as it is. max/min drop
  // NaNs as they go (vmaxps takes the second operand then), so k4 gathers
  // where a NaN was and puts it back at the end: NaN propagates, as in
  // vmath::MaxStep / MinStep.
  void EmitReduce(Op op, const Zmm& v, int lane) {
    const Zmm acc = Accumulator(lane);
    if (op == Op::kRowSum) {
      if (masked_) {
        vaddps(acc | k1, acc, v);
      } else {
        vaddps(acc, acc, v);
      }
      return;
    }
    if (masked_) {
      op == Op::kRowMax ? vmaxps(acc | k1, acc, v) : vminps(acc | k1, acc, v);
      vcmpps(k5 | k1, v, v, kUnordQ);
    } else {
      op == Op::kRowMax ? vmaxps(acc, acc, v) : vminps(acc, acc, v);
      vcmpps(k5, v, v, kUnordQ);
    }
    korw(k4, k4, k5);
  }

  Xbyak::Address Const(int c) { return ptr[r10 + 4 * c]; }
  Xbyak::Address Bcst(int c) { return ptr_b[r10 + 4 * c]; }
  static Zmm Temp(int i) { return Zmm(kFirstTemp + i); }

  // Last position in the segment where each register is read.
  std::unordered_map<int, size_t> LastUses() const {
    std::unordered_map<int, size_t> last_use;
    for (size_t i = 0; i < instrs_.size(); ++i) {
      const Instr& in = k_.code[instrs_[i]];
      for (int r : {in.a, in.b, in.c}) {
        if (r >= 0) last_use[r] = i;
      }
    }
    return last_use;
  }

  // The most vector registers one vector's values need at once (what Body
  // allocates, counted without emitting).
  int PeakLive() const {
    const std::unordered_map<int, size_t> last_use = LastUses();
    std::unordered_map<int, bool> live;
    int count = 0, peak = 0;
    for (size_t i = 0; i < instrs_.size(); ++i) {
      const Instr& in = k_.code[instrs_[i]];
      for (int r : {in.a, in.b, in.c}) {
        if (r >= 0 && !uniform_[r] && !live[r]) {
          live[r] = true;
          ++count;
        }
      }
      ++count;  // the result
      live[in.out] = true;
      peak = std::max(peak, count);
      for (int r : {in.a, in.b, in.c, in.out}) {
        auto lu = last_use.find(r);
        const bool dead = lu == last_use.end() ? r == in.out : lu->second <= i;
        if (r >= 0 && live[r] && dead) {
          live[r] = false;
          --count;
        }
      }
    }
    return peak;
  }

  // Lane `lane` of an unrolled step owns registers [lane * per, (lane + 1) * per).
  int Alloc(int lane) {
    for (int z = lane * per_lane_; z < (lane + 1) * per_lane_; ++z) {
      if (!busy_[z]) {
        busy_[z] = true;
        return z;
      }
    }
    std::abort();  // PeakLive said it fits
  }

  // The register holding operand `reg` of instruction `operand_index` in
  // lane `lane`. Values from before the segment are loaded at their first use.
  Zmm Source(int reg, int operand_index, int lane) {
    if (uniform_[reg]) {
      const Zmm z(kFirstOperandTemp + operand_index);
      vbroadcastss(z, ptr[rsi + 4 * static_cast<int64_t>(reg)]);
      return z;
    }
    auto it = zmm_of_[lane].find(reg);
    if (it != zmm_of_[lane].end()) return Zmm(it->second);
    const int z = Alloc(lane);
    zmm_of_[lane][reg] = z;
    mov(rax, ptr[rdi + 8 * static_cast<int64_t>(reg)]);
    if (masked_) {
      vmovups(Zmm(z) | k1 | T_z, ptr[rax + r8]);
    } else {
      vmovups(Zmm(z), ptr[rax + r8 + 64 * lane]);
    }
    if (prefetch_[reg]) {
      // Into L2 (the next row is read after this one is done with); a
      // prefetch never faults, so past the end of the input is harmless.
      lea(rdx, ptr[rax + r11]);
      prefetcht1(ptr[rdx + r8 + (masked_ ? 0 : 64 * lane)]);
    }
    return Zmm(z);
  }

  void Release(int reg, int lane) {
    auto it = zmm_of_[lane].find(reg);
    if (it == zmm_of_[lane].end()) return;
    busy_[it->second] = false;
    zmm_of_[lane].erase(it);
  }

  // One step of the loop over `lanes` vectors (instruction by instruction,
  // lane after lane); `masked`: the last, partial vector (mask k1).
  void Body(bool masked, int lanes) {
    masked_ = masked;
    per_lane_ = value_regs_ / lanes;
    std::fill(std::begin(busy_), std::end(busy_), false);
    for (auto& m : zmm_of_) m.clear();
    const std::unordered_map<int, size_t> last_use = LastUses();
    for (size_t i = 0; i < instrs_.size(); ++i) {
      const Instr& in = k_.code[instrs_[i]];
      if (IsRowReduction(in.op)) {
        for (int lane = 0; lane < lanes; ++lane) {
          EmitReduce(in.op, Source(in.a, 0, lane), lane);
          if (last_use.at(in.a) == i) Release(in.a, lane);
        }
        continue;
      }
      for (int lane = 0; lane < lanes; ++lane) {
        Zmm a, b, c;
        if (in.a >= 0) a = Source(in.a, 0, lane);
        if (in.b >= 0) b = Source(in.b, 1, lane);
        if (in.c >= 0) c = Source(in.c, 2, lane);
        const int dz = Alloc(lane);
        zmm_of_[lane][in.out] = dz;
        Emit(in.op, Zmm(dz), a, b, c);
        if (store_[in.out]) {
          mov(rax, ptr[rdi + 8 * static_cast<int64_t>(in.out)]);
          if (masked_) {
            vmovups(ptr[rax + r8] | k1, Zmm(dz));
          } else if (stream_[in.out]) {
            vmovntps(ptr[rax + r8 + 64 * lane], Zmm(dz));  // past the caches; 64-byte aligned
          } else {
            vmovups(ptr[rax + r8 + 64 * lane], Zmm(dz));
          }
        }
        for (int r : {in.a, in.b, in.c}) {
          if (r >= 0 && last_use.at(r) == i) Release(r, lane);
        }
        auto lu = last_use.find(in.out);
        if (lu == last_use.end() || lu->second <= i) Release(in.out, lane);
      }
    }
  }

  // t = p(r) for the polynomial with coefficients at pool[c..c+n), lowest
  // degree first.
  void EmitHorner(const Zmm& t, const Zmm& r, int c, int n) {
    vbroadcastss(t, Const(c + n - 1));
    for (int i = n - 2; i >= 0; --i) vfmadd213ps(t, r, Bcst(c + i));
  }

  // d = exp(x); d may be x. Uses temps 0..2.
  void EmitExp(const Zmm& d, const Zmm& x) {
    const Zmm t0 = Temp(0), t1 = Temp(1), t2 = Temp(2);
    // Clamp to [-150, 150]. vminps/vmaxps return their second operand when
    // either is NaN, so x's NaN goes through.
    vbroadcastss(t2, Const(kExpHigh));
    vminps(t0, t2, x);
    vbroadcastss(t2, Const(kExpLow));
    vmaxps(t0, t2, t0);
    vmulps(t1, t0, Bcst(kLog2e));
    vrndscaleps(t1, t1, kRoundNearest);  // n
    vfnmadd231ps(t0, t1, Bcst(kLn2Hi));  // r = x - n ln2, in two steps
    vfnmadd231ps(t0, t1, Bcst(kLn2Lo));
    EmitHorner(t2, t0, kExpPoly, static_cast<int>(std::size(vmath::kExpPoly)));
    vscalefps(d, t2, t1);  // p * 2^n, overflow to inf and underflow to 0 rounded once
  }

  // d = tanh(x) as -m / (m + 2), m = expm1(-2|x|) (see vmath::Tanh), with the
  // reduction done on -|x| = n ln2 / 2 + h (r = 2h).
  void EmitTanh(const Zmm& d, const Zmm& x) {
    const Zmm t0 = Temp(0), t1 = Temp(1), t2 = Temp(2), t3 = Temp(3);
    vpord(t0, x, Bcst(kSignBit));  // -|x|
    vbroadcastss(t2, Const(kTanhLow));
    vmaxps(t0, t2, t0);  // at least -10; NaN stays (second operand)
    vmulps(t1, t0, Bcst(kTwoLog2e));
    vrndscaleps(t1, t1, kRoundNearest);  // n
    // h = -|x| - n ln2 / 2 in one step: ln 2 rounded to float is off by
    // 2e-9, which with n <= 29 moves e^-2|x| by under 6e-8 relative, and
    // tanh = (1 - e) / (1 + e) by a quarter of that (exp keeps two steps:
    // its n reaches 216).
    vfnmadd231ps(t0, t1, Bcst(kHalfLn2));  // h
    EmitHorner(t2, t0, kTanhPoly, static_cast<int>(std::size(vmath::kExpm1OverRPoly)));
    vmulps(t2, t2, t0);  // expm1(r)
    vbroadcastss(t3, Const(kOne));
    vscalefps(t3, t3, t1);               // s = 2^n
    vsubps(t0, t3, Bcst(kOne));          // s - 1
    vfmadd231ps(t0, t3, t2);             // m = s expm1(r) + (s - 1)
    vaddps(t1, t0, Bcst(kTwo));
    vdivps(t0, t0, t1);                  // -tanh|x|
    vbroadcastss(d, Const(kSignBit));
    vpternlogd(d, x, t0, 0xca);          // sign of x, magnitude of t0
  }

  // d = 1 / (1 + e^-x), as e^x / (1 + e^x) for negative x.
  void EmitLogistic(const Zmm& d, const Zmm& x) {
    const Zmm e = Temp(3), den = Temp(4);
    vpord(e, x, Bcst(kSignBit));  // -|x|
    EmitExp(e, e);
    vaddps(den, e, Bcst(kOne));
    vbroadcastss(d, Const(kOne));
    vcmpps(k2, x, Bcst(kZero), kLtOq);
    vmovaps(d | k2, e);
    vdivps(d, d, den);
  }

  // d = predicate k2 as 1.0 / 0.0.
  void Truth(const Zmm& d) { vbroadcastss(d | k2 | T_z, Const(kOne)); }

  void Emit(Op op, const Zmm& d, const Zmm& a, const Zmm& b, const Zmm& c) {
    switch (op) {
      case Op::kNeg: vpxord(d, a, Bcst(kSignBit)); return;
      case Op::kAbs: vpandd(d, a, Bcst(kAbsMask)); return;
      case Op::kExp: EmitExp(d, a); return;
      case Op::kTanh: EmitTanh(d, a); return;
      case Op::kLogistic: EmitLogistic(d, a); return;
      case Op::kSqrt: vsqrtps(d, a); return;
      case Op::kRsqrt:
        vsqrtps(Temp(0), a);
        vbroadcastss(d, Const(kOne));
        vdivps(d, d, Temp(0));
        return;
      case Op::kFloor: vrndscaleps(d, a, kRoundDown); return;
      case Op::kCeil: vrndscaleps(d, a, kRoundUp); return;
      case Op::kSign:
        vmovaps(d, a);  // 0, -0 and NaN stay
        vcmpps(k2, a, Bcst(kZero), kGtOq);
        vbroadcastss(d | k2, Const(kOne));
        vcmpps(k2, a, Bcst(kZero), kLtOq);
        vbroadcastss(d | k2, Const(kMinusOne));
        return;
      case Op::kCopy: vmovaps(d, a); return;
      case Op::kNot:
        vcmpps(k2, a, Bcst(kZero), kEqOq);
        Truth(d);
        return;
      case Op::kAdd: vaddps(d, a, b); return;
      case Op::kSub: vsubps(d, a, b); return;
      case Op::kMul: vmulps(d, a, b); return;
      case Op::kDiv: vdivps(d, a, b); return;
      case Op::kMax:
      case Op::kMin:
        // vmaxps/vminps give b when either is NaN or both are zeros: equal
        // values take the AND (max: +0 wins) or OR (min: -0 wins) of their
        // bits, a NaN a is taken from a.
        if (op == Op::kMax) {
          vmaxps(d, a, b);
        } else {
          vminps(d, a, b);
        }
        vcmpps(k2, a, b, kEqOq);
        if (op == Op::kMax) {
          vpandd(d | k2, a, b);
        } else {
          vpord(d | k2, a, b);
        }
        vcmpps(k2, a, a, kUnordQ);
        vmovaps(d | k2, a);
        return;
      case Op::kCmpEq: vcmpps(k2, a, b, kEqOq); Truth(d); return;
      case Op::kCmpNe: vcmpps(k2, a, b, kNeqUq); Truth(d); return;
      case Op::kCmpLt: vcmpps(k2, a, b, kLtOq); Truth(d); return;
      case Op::kCmpLe: vcmpps(k2, a, b, kLeOq); Truth(d); return;
      case Op::kCmpGt: vcmpps(k2, a, b, kGtOq); Truth(d); return;
      case Op::kCmpGe: vcmpps(k2, a, b, kGeOq); Truth(d); return;
      case Op::kAnd:
      case Op::kOr:
        vcmpps(k2, a, Bcst(kZero), kNeqUq);
        vcmpps(k3, b, Bcst(kZero), kNeqUq);
        if (op == Op::kAnd) {
          kandw(k2, k2, k3);
        } else {
          korw(k2, k2, k3);
        }
        Truth(d);
        return;
      case Op::kSelect:
        vcmpps(k2, a, Bcst(kZero), kNeqUq);
        vblendmps(d | k2, c, b);  // k2 ? b : c
        return;
      default:
        // JitSupports keeps other ops out of segments.
        std::abort();
    }
  }

  const Kernel& k_;
  const std::vector<int> instrs_;
  const std::vector<bool> uniform_;
  const std::vector<bool> store_;
  const std::vector<bool> stream_;
  const std::vector<bool> prefetch_;
  bool busy_[kJitMaxLive] = {};
  bool masked_ = false;
  int value_regs_ = kJitMaxLive;  // zmm0.. available for values
  int per_lane_ = kJitMaxLive;
  std::unordered_map<int, int> zmm_of_[kMaxLanes];  // per lane: register -> zmm index
};

}  // namespace

bool JitAvailable() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512dq") != 0;
  }();
  return available;
}

void StreamFence() { __builtin_ia32_sfence(); }

bool JitSupports(Op op) {
  switch (op) {
    case Op::kRowSum: case Op::kRowMax: case Op::kRowMin:
    case Op::kNeg: case Op::kAbs: case Op::kExp: case Op::kTanh: case Op::kLogistic:
    case Op::kSqrt: case Op::kRsqrt: case Op::kFloor: case Op::kCeil: case Op::kSign:
    case Op::kCopy: case Op::kNot: case Op::kAdd: case Op::kSub: case Op::kMul: case Op::kDiv:
    case Op::kMax: case Op::kMin: case Op::kCmpEq: case Op::kCmpNe: case Op::kCmpLt:
    case Op::kCmpLe: case Op::kCmpGt: case Op::kCmpGe: case Op::kAnd: case Op::kOr:
    case Op::kSelect:
      return true;
    default:
      return false;
  }
}

std::unique_ptr<JitSegment> GenerateSegment(const Kernel& kernel, const std::vector<int>& instrs,
                                            const std::vector<bool>& uniform,
                                            const std::vector<bool>& store,
                                            const std::vector<bool>& stream,
                                            const std::vector<bool>& prefetch) {
  auto gen = std::make_unique<Generator>(kernel, instrs, uniform, store, stream, prefetch);
  try {
    if (!gen->Build()) return nullptr;
  } catch (const std::exception&) {  // Xbyak reports errors (out of memory) by throwing
    return nullptr;
  }
  return gen;
}

#else  // no Xbyak: every fused loop is interpreted

bool JitAvailable() { return false; }
void StreamFence() {}
bool JitSupports(Op) { return false; }
std::unique_ptr<JitSegment> GenerateSegment(const Kernel&, const std::vector<int>&,
                                            const std::vector<bool>&, const std::vector<bool>&,
                                            const std::vector<bool>&, const std::vector<bool>&) {
  return nullptr;
}

#endif

}  // namespace plugrt::cpu::fused
