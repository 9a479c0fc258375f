// BIG2_HOT: the core's hot loops built for several x86-64 levels, one picked at load time.
//
// A function marked BIG2_HOT is compiled four times by GCC (target_clones): for
// x86-64-v4 (AVX-512), x86-64-v3 (AVX2, BMI2, POPCNT, LZCNT), x86-64-v2 (POPCNT,
// SSE4.2) and the plain x86-64 baseline; the dynamic loader picks the best one the CPU
// runs (an ifunc), so one wheel runs anywhere and counts cards with the popcnt
// instruction where the CPU has it.  The small helpers the marked loops call (popcount, the
// lookups) are inlined into each copy.  Mark whole loops, not small per-call
// helpers: a marked function is reached through the ifunc and is never inlined.
//
// Off (one plain copy) where the compiler or platform lacks it (macOS, Windows, musl, other
// CPUs) and when the build targets one machine (BIG2_NATIVE_MARCH, see CMakeLists.txt),
// which defines BIG2_NO_CLONES.  Clang 18+ makes the clones too when BIG2_CLANG_CLONES is
// defined: CMakeLists.txt defines it where it links BIG2_CPU_MODEL_LIB (GCC's libgcc.a, whose
// CPU detection the clones' resolver reads; Zig's own runtime, `make dist`'s compiler,
// reports no CPU feature, which would run the baseline copy everywhere).
#pragma once

#include <cstddef>  // on glibc, defines __GLIBC__ (the clones' dispatch needs its ifunc)

#if !defined(BIG2_NO_CLONES) && defined(__x86_64__) && defined(__linux__) && \
    defined(__GLIBC__) && defined(__GNUC__) &&                                  \
    ((!defined(__clang__) && __GNUC__ >= 11) ||                                 \
     (defined(__clang__) && __clang_major__ >= 18 && defined(BIG2_CLANG_CLONES)))
#define BIG2_HOT \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "arch=x86-64-v2", "default")))
#define BIG2_CLONES 1
#if defined(__clang__)
// Clang does not clone function templates ("multiversioned functions do not yet support
// function templates"): under Clang these are built once, for the baseline
#define BIG2_HOT_TEMPLATE
#else
#define BIG2_HOT_TEMPLATE BIG2_HOT
#endif
#else
#define BIG2_HOT_TEMPLATE
#define BIG2_HOT
#define BIG2_CLONES 0
#endif

namespace big2hot {

// The instruction-set level the BIG2_HOT loops run at on this CPU: "x86-64-v4",
// "x86-64-v3", "x86-64-v2", "x86-64" (the clones' choice, made the same way), or
// "single" when the build made one copy.
inline const char* level() {
#if BIG2_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) return "x86-64-v4";
  if (__builtin_cpu_supports("x86-64-v3")) return "x86-64-v3";
  if (__builtin_cpu_supports("x86-64-v2")) return "x86-64-v2";
  return "x86-64";
#else
  return "single";
#endif
}

}  // namespace big2hot
