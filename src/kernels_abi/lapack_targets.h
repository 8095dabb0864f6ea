// plugrt custom calls: the names of JAX's CPU linear-algebra targets (jaxlib's
// LAPACK kernels), which the CPU backend implements on LAPACK
// (src/cpu/custom_calls/). Each name is written once, here.
//
//  - "lapack_<t><routine>_ffi": the typed-FFI targets (api_version 4) JAX has
//    emitted since 2024; <t> is s, d, c or z (f32, f64, complex<f32>,
//    complex<f64>), <routine> the LAPACK routine ("getrf"; for complex types
//    "ungqr", "heevd", "hetrd" where real types say "orgqr", "syevd",
//    "sytrd"). Attributes come in mhlo.backend_config as a dictionary.
//  - "lapack_<t><routine>" and "blas_<t>trsm": the spellings before the FFI
//    move, whose sizes travel as leading scalar operands.
//  - "ducc_fft", "dynamic_ducc_fft": JAX's older CPU FFT.
#ifndef PLUGRT_KERNELS_ABI_LAPACK_TARGETS_H_
#define PLUGRT_KERNELS_ABI_LAPACK_TARGETS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace plugrt::kernels_abi {

// X(Family, real routine, complex routine)
#define PLUGRT_LAPACK_FAMILIES(X) \
  X(Getrf, "getrf", "getrf")      \
  X(Geqrf, "geqrf", "geqrf")      \
  X(Geqp3, "geqp3", "geqp3")      \
  X(Orgqr, "orgqr", "ungqr")      \
  X(Potrf, "potrf", "potrf")      \
  X(Gesdd, "gesdd", "gesdd")      \
  X(Gesvd, "gesvd", "gesvd")      \
  X(Syevd, "syevd", "heevd")      \
  X(Geev, "geev", "geev")         \
  X(Gees, "gees", "gees")         \
  X(Gehrd, "gehrd", "gehrd")      \
  X(Sytrd, "sytrd", "hetrd")      \
  X(Trsm, "trsm", "trsm")         \
  X(Gtsv, "gtsv", "gtsv")

enum class LapackFamily : uint8_t {
#define PLUGRT_LAPACK_FAMILY_ENUM_(family, real, complex) k##family,
  PLUGRT_LAPACK_FAMILIES(PLUGRT_LAPACK_FAMILY_ENUM_)
#undef PLUGRT_LAPACK_FAMILY_ENUM_
};

struct LapackFamilyInfo {
  LapackFamily family;
  std::string_view real_routine;     // "syevd"
  std::string_view complex_routine;  // "heevd"
};

inline constexpr LapackFamilyInfo kLapackFamilies[] = {
#define PLUGRT_LAPACK_FAMILY_INFO_(family, real, complex) {LapackFamily::k##family, real, complex},
    PLUGRT_LAPACK_FAMILIES(PLUGRT_LAPACK_FAMILY_INFO_)
#undef PLUGRT_LAPACK_FAMILY_INFO_
};

// LAPACK's type letters, in the order f32, f64, complex<f32>, complex<f64>.
inline constexpr char kLapackTypeLetters[] = {'s', 'd', 'c', 'z'};

constexpr bool IsComplexLapackLetter(char letter) { return letter == 'c' || letter == 'z'; }

constexpr std::string_view LapackRoutine(const LapackFamilyInfo& info, char letter) {
  return IsComplexLapackLetter(letter) ? info.complex_routine : info.real_routine;
}

// "lapack_dgetrf_ffi".
inline std::string LapackFfiTarget(const LapackFamilyInfo& info, char letter) {
  std::string name = "lapack_";
  name += letter;
  name += LapackRoutine(info, letter);
  name += "_ffi";
  return name;
}

// The name before the FFI move: "lapack_dgetrf", "blas_dtrsm" (jaxlib had no
// pre-FFI geqp3, gesvd or gtsv).
inline std::optional<std::string> LapackLegacyTarget(const LapackFamilyInfo& info, char letter) {
  if (info.family == LapackFamily::kGeqp3 || info.family == LapackFamily::kGesvd ||
      info.family == LapackFamily::kGtsv) {
    return std::nullopt;
  }
  std::string name = info.family == LapackFamily::kTrsm ? "blas_" : "lapack_";
  name += letter;
  name += LapackRoutine(info, letter);
  return name;
}

struct LapackTarget {
  LapackFamily family;
  char letter;
};

// The family and type of an FFI target name; nullopt for any other name.
inline std::optional<LapackTarget> ParseLapackFfiTarget(std::string_view name) {
  for (const LapackFamilyInfo& info : kLapackFamilies) {
    for (char letter : kLapackTypeLetters) {
      if (LapackFfiTarget(info, letter) == name) return LapackTarget{info.family, letter};
    }
  }
  return std::nullopt;
}

inline constexpr std::string_view kDuccFftTargets[] = {"ducc_fft", "dynamic_ducc_fft"};

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_LAPACK_TARGETS_H_
