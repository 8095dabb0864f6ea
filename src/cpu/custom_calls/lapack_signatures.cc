// What each of jaxlib's LAPACK targets takes and returns (the kernels are in
// lapack_kernels.cc): checked once, at compile time, so a kernel never sees a
// buffer of another shape than it computes.
#include <algorithm>
#include <climits>
#include <string>

#include "cpu/custom_calls/lapack_kernels.h"

namespace plugrt::cpu {
namespace {

using kernels_abi::LapackFamily;
using kernels_abi::LapackTarget;

ElementType TypeOfLetter(char letter) {
  switch (letter) {
    case 's': return ElementType::kF32;
    case 'd': return ElementType::kF64;
    case 'c': return ElementType::kC64;
    default: return ElementType::kC128;
  }
}

std::vector<int64_t> Cat(std::vector<int64_t> batch, std::initializer_list<int64_t> tail) {
  batch.insert(batch.end(), tail.begin(), tail.end());
  return batch;
}

class SignatureCheck {
 public:
  SignatureCheck(std::string_view name, std::span<const shlo::Type* const> operands,
                 std::span<const shlo::Type* const> results)
      : name_(name), operands_(operands), results_(results) {}

  // Operand `i` is a static tensor of `type` and rank >= `min_rank`.
  Status Operand(size_t i, ElementType type, int64_t min_rank) const {
    const shlo::Type& t = *operands_[i];
    if (!t.is_tensor() || t.element_type() != type || t.rank() < min_rank || !t.has_static_shape()) {
      return InvalidArgument(name_, ": operand ", i, " must be a tensor of ",
                             shlo::ElementTypeName(type), " of rank ", min_rank, " or more, got ",
                             t.ToString());
    }
    for (int64_t d : t.dims()) {
      if (d > INT32_MAX) {
        return InvalidArgument(name_, ": operand ", i, " has a dimension LAPACK cannot index (",
                               t.ToString(), ")");
      }
    }
    return OkStatus();
  }

  Status Counts(size_t operands, size_t results) const {
    if (operands_.size() != operands || results_.size() != results) {
      return InvalidArgument(name_, " takes ", operands, " operands and has ", results,
                             " results, got ", operands_.size(), " and ", results_.size());
    }
    return OkStatus();
  }

  Status Expect(std::span<const shlo::Type* const> values, std::string_view what, size_t i,
                ElementType type, const std::vector<int64_t>& dims) const {
    const shlo::Type want = shlo::Type::Tensor(type, dims);
    if (*values[i] != want) {
      return InvalidArgument(name_, ": ", what, " ", i, " must be ", want.ToString(), ", got ",
                             values[i]->ToString());
    }
    return OkStatus();
  }
  Status Result(size_t i, ElementType type, const std::vector<int64_t>& dims) const {
    return Expect(results_, "result", i, type, dims);
  }
  Status OperandIs(size_t i, ElementType type, const std::vector<int64_t>& dims) const {
    return Expect(operands_, "operand", i, type, dims);
  }

  const shlo::Type& operand(size_t i) const { return *operands_[i]; }
  size_t num_operands() const { return operands_.size(); }
  size_t num_results() const { return results_.size(); }
  std::string_view name() const { return name_; }

 private:
  std::string_view name_;
  std::span<const shlo::Type* const> operands_;
  std::span<const shlo::Type* const> results_;
};

Status CharIn(std::string_view name, std::string_view attr, char value, std::string_view allowed) {
  if (value == 0 || allowed.find(value) == std::string_view::npos) {
    std::string list;
    for (char c : allowed) {
      if (!list.empty()) list += ", ";
      list += StrCat(static_cast<int>(c), " ('", std::string(1, c), "')");
    }
    return InvalidArgument(name, ": attribute '", attr, "' must be one of ", list, ", got ",
                           static_cast<int>(static_cast<unsigned char>(value)));
  }
  return OkStatus();
}

}  // namespace

std::vector<std::string_view> LapackAttrNames(LapackFamily family) {
  switch (family) {
    case LapackFamily::kPotrf:
    case LapackFamily::kSytrd: return {"uplo"};
    case LapackFamily::kGesdd:
    case LapackFamily::kGesvd: return {"mode"};
    case LapackFamily::kSyevd: return {"uplo", "mode"};
    case LapackFamily::kGeev: return {"compute_left", "compute_right"};
    case LapackFamily::kGees: return {"mode", "sort"};
    case LapackFamily::kGehrd: return {"low", "high"};
    case LapackFamily::kTrsm: return {"side", "uplo", "trans_x", "diag"};
    default: return {};
  }
}

Status CheckLapackCall(LapackTarget target, std::string_view name,
                       std::span<const shlo::Type* const> operands,
                       std::span<const shlo::Type* const> results, const LapackAttrs& attrs) {
  const ElementType t = TypeOfLetter(target.letter);
  const ElementType r = shlo::IsComplex(t) ? shlo::ComplexComponent(t) : t;
  const ElementType i32 = ElementType::kSI32;
  const SignatureCheck c(name, operands, results);
  if (operands.empty()) return InvalidArgument(name, " needs operands");

  // The matrix operand's batch dims and sizes (gtsv: its right-hand sides).
  const size_t matrix = target.family == LapackFamily::kGtsv   ? 3
                        : target.family == LapackFamily::kTrsm ? 1
                                                               : 0;
  if (matrix >= operands.size()) {
    return InvalidArgument(name, " takes at least ", matrix + 1, " operands, got ",
                           operands.size());
  }
  PLUGRT_RETURN_IF_ERROR(c.Operand(matrix, t, 2));
  const std::vector<int64_t>& x = c.operand(matrix).dims();
  const std::vector<int64_t> batch(x.begin(), x.end() - 2);
  const int64_t m = x[x.size() - 2], n = x.back(), k = std::min(m, n);
  auto square = [&]() -> Status {
    if (m != n) return InvalidArgument(name, ": operand 0 must be square matrices, got ", c.operand(0).ToString());
    return OkStatus();
  };

  switch (target.family) {
    case LapackFamily::kGetrf:
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, 3));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, i32, Cat(batch, {k})));
      return c.Result(2, i32, batch);
    case LapackFamily::kGeqrf:
      // jaxlib's earlier FFI form also returned info.
      if (results.size() != 3) PLUGRT_RETURN_IF_ERROR(c.Counts(1, 2));
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, results.size()));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, t, Cat(batch, {k})));
      return results.size() == 3 ? c.Result(2, i32, batch) : OkStatus();
    case LapackFamily::kGeqp3:
      PLUGRT_RETURN_IF_ERROR(c.Counts(2, 3));
      PLUGRT_RETURN_IF_ERROR(c.OperandIs(1, i32, Cat(batch, {n})));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, i32, Cat(batch, {n})));
      return c.Result(2, t, Cat(batch, {k}));
    case LapackFamily::kOrgqr: {
      if (results.size() != 2) PLUGRT_RETURN_IF_ERROR(c.Counts(2, 1));
      PLUGRT_RETURN_IF_ERROR(c.Counts(2, results.size()));
      PLUGRT_RETURN_IF_ERROR(c.Operand(1, t, 1));
      const int64_t kk = c.operand(1).dims().back();
      PLUGRT_RETURN_IF_ERROR(c.OperandIs(1, t, Cat(batch, {kk})));
      if (!(m >= n && n >= kk)) {
        return InvalidArgument(name, ": needs rows >= columns >= reflectors, got ", m, " x ", n,
                               " with ", kk, " reflectors");
      }
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      return results.size() == 2 ? c.Result(1, i32, batch) : OkStatus();
    }
    case LapackFamily::kPotrf:
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, 2));
      PLUGRT_RETURN_IF_ERROR(square());
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "uplo", attrs.uplo, "LU"));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      return c.Result(1, i32, batch);
    case LapackFamily::kGesdd:
    case LapackFamily::kGesvd: {
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, 5));
      if (attrs.mode == 'O') {
        return Unimplemented(name, ": mode 'O' (overwrite the input with U) is not supported, as "
                                   "in jaxlib");
      }
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "mode", attrs.mode, "ASN"));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, r, Cat(batch, {k})));
      if (attrs.mode == 'N') {
        for (size_t i : {2, 3}) {
          const shlo::Type& u = *results[i];
          if (!u.is_tensor() || u.element_type() != t || u.rank() != static_cast<int64_t>(x.size()) ||
              !std::equal(batch.begin(), batch.end(), u.dims().begin())) {
            return InvalidArgument(name, ": result ", i, " must be a batch of matrices of ",
                                   shlo::ElementTypeName(t), ", got ", u.ToString());
          }
        }
      } else {
        const bool full = attrs.mode == 'A';
        PLUGRT_RETURN_IF_ERROR(c.Result(2, t, Cat(batch, {m, full ? m : k})));
        PLUGRT_RETURN_IF_ERROR(c.Result(3, t, Cat(batch, {full ? n : k, n})));
      }
      return c.Result(4, i32, batch);
    }
    case LapackFamily::kSyevd:
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, 3));
      PLUGRT_RETURN_IF_ERROR(square());
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "uplo", attrs.uplo, "LU"));
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "mode", attrs.mode, "VN"));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, r, Cat(batch, {n})));
      return c.Result(2, i32, batch);
    case LapackFamily::kGeev: {
      PLUGRT_RETURN_IF_ERROR(square());
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "compute_left", attrs.compute_left, "VN"));
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "compute_right", attrs.compute_right, "VN"));
      if (!shlo::IsComplex(t)) {
        const ElementType ct = t == ElementType::kF32 ? ElementType::kC64 : ElementType::kC128;
        PLUGRT_RETURN_IF_ERROR(c.Counts(1, 5));
        PLUGRT_RETURN_IF_ERROR(c.Result(0, t, Cat(batch, {n})));
        PLUGRT_RETURN_IF_ERROR(c.Result(1, t, Cat(batch, {n})));
        PLUGRT_RETURN_IF_ERROR(c.Result(2, ct, x));
        PLUGRT_RETURN_IF_ERROR(c.Result(3, ct, x));
        return c.Result(4, i32, batch);
      }
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, 4));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, Cat(batch, {n})));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(2, t, x));
      return c.Result(3, i32, batch);
    }
    case LapackFamily::kGees: {
      PLUGRT_RETURN_IF_ERROR(square());
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "mode", attrs.mode, "VN"));
      if (attrs.sort == 'S') {
        return Unimplemented(name, ": sorted Schur forms (sort = 'S') need a select function, "
                                   "which jaxlib's targets do not pass either");
      }
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "sort", attrs.sort, "N"));
      const bool real = !shlo::IsComplex(t);
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, real ? 6 : 5));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(2, t, Cat(batch, {n})));
      size_t next = 3;
      if (real) PLUGRT_RETURN_IF_ERROR(c.Result(next++, t, Cat(batch, {n})));
      PLUGRT_RETURN_IF_ERROR(c.Result(next++, i32, batch));
      return c.Result(next, i32, batch);
    }
    case LapackFamily::kGehrd:
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, 3));
      PLUGRT_RETURN_IF_ERROR(square());
      if (n > 0 ? !(1 <= attrs.low && attrs.low <= attrs.high && attrs.high <= n)
                : !(attrs.low == 1 && attrs.high == 0)) {
        return InvalidArgument(name, ": needs 1 <= low <= high <= ", n, ", got low = ", attrs.low,
                               ", high = ", attrs.high);
      }
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, t, Cat(batch, {std::max<int64_t>(0, n - 1)})));
      return c.Result(2, i32, batch);
    case LapackFamily::kSytrd:
      PLUGRT_RETURN_IF_ERROR(c.Counts(1, 5));
      PLUGRT_RETURN_IF_ERROR(square());
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "uplo", attrs.uplo, "LU"));
      PLUGRT_RETURN_IF_ERROR(c.Result(0, t, x));
      PLUGRT_RETURN_IF_ERROR(c.Result(1, r, Cat(batch, {n})));
      PLUGRT_RETURN_IF_ERROR(c.Result(2, r, Cat(batch, {std::max<int64_t>(0, n - 1)})));
      PLUGRT_RETURN_IF_ERROR(c.Result(3, t, Cat(batch, {std::max<int64_t>(0, n - 1)})));
      return c.Result(4, i32, batch);
    case LapackFamily::kTrsm: {
      // jaxlib's earlier form passed alpha as a third, scalar operand.
      if (operands.size() != 3) PLUGRT_RETURN_IF_ERROR(c.Counts(2, 1));
      PLUGRT_RETURN_IF_ERROR(c.Counts(operands.size(), 1));
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "side", attrs.side, "LR"));
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "uplo", attrs.uplo, "LU"));
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "trans_x", attrs.trans_x, "NTC"));
      PLUGRT_RETURN_IF_ERROR(CharIn(name, "diag", attrs.diag, "NU"));
      const int64_t kk = attrs.side == 'L' ? m : n;
      if (c.operand(0).rank() != 2) {
        PLUGRT_RETURN_IF_ERROR(c.OperandIs(0, t, Cat(batch, {kk, kk})));
      } else {
        PLUGRT_RETURN_IF_ERROR(c.OperandIs(0, t, {kk, kk}));
      }
      if (operands.size() == 3) PLUGRT_RETURN_IF_ERROR(c.OperandIs(2, t, {}));
      return c.Result(0, t, x);
    }
    case LapackFamily::kGtsv:
      PLUGRT_RETURN_IF_ERROR(c.Counts(4, 5));
      for (size_t i = 0; i < 3; ++i) PLUGRT_RETURN_IF_ERROR(c.OperandIs(i, t, Cat(batch, {m})));
      for (size_t i = 0; i < 4; ++i) {
        PLUGRT_RETURN_IF_ERROR(c.Result(i, t, c.operand(i).dims()));
      }
      return c.Result(4, i32, batch);
  }
  return Internal(name, ": unknown LAPACK family");
}

}  // namespace plugrt::cpu
