// The poker core's plain C++ loop over a file of hands: the ceiling that
// big2.poker.evaluate5_batch / evaluate7_batch are measured against (issue 43).
//
// Built and run by bench_poker_batch.py with the compiled core's own flags (not
// shipped, not part of the package).  Reads n rows of N uint8 cards (a raw file),
// evaluates every row into an int32 array `repeats` times, and prints one line per
// repeat: the CPU seconds of that pass and a checksum of the values.  With a fourth
// argument "int64" the rows are first widened to int64 (outside the timing), as a
// NumPy int64 array holds them.
//
//     poker_core_loop N FILE REPEATS [int64]
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "poker.hpp"

namespace big2poker {
const Tables& tables() {
  static const Tables* t = new Tables();
  return *t;
}
}  // namespace big2poker

using big2poker::Tables;

// The plain loop: no checks, cards straight from the rows (BIG2_HOT: the same
// instruction-set clones as the core's batch loop).
template <int N, class T>
BIG2_HOT void plain(const Tables& t, const T* h, int64_t n, int32_t* out) {
  for (int64_t i = 0; i < n; ++i, h += N) {
    int c[N];
    for (int j = 0; j < N; ++j) c[j] = h[j];
    out[i] = N == 5 ? t.eval5(c) : t.eval7(c);
  }
}

static double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s N FILE REPEATS [int64]\n", argv[0]);
    return 2;
  }
  int width = std::atoi(argv[1]);
  int repeats = std::atoi(argv[3]);
  std::FILE* f = std::fopen(argv[2], "rb");
  if (!f || (width != 5 && width != 7)) return 2;
  std::vector<uint8_t> data;
  uint8_t buf[1 << 16];
  for (size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) data.insert(data.end(), buf, buf + got);
  std::fclose(f);
  int64_t n = int64_t(data.size()) / width;
  std::vector<int32_t> out(size_t(n), 0);
  const Tables& t = big2poker::tables();
  bool wide = argc == 5;
  std::vector<int64_t> data64(data.begin(), wide ? data.end() : data.begin());
  for (int r = 0; r < repeats; ++r) {
    double start = cpu_now();
    if (wide)
      width == 5 ? plain<5>(t, data64.data(), n, out.data())
                 : plain<7>(t, data64.data(), n, out.data());
    else
      width == 5 ? plain<5>(t, data.data(), n, out.data())
                 : plain<7>(t, data.data(), n, out.data());
    double dt = cpu_now() - start;
    int64_t sum = 0;
    for (int32_t v : out) sum += v;
    std::printf("%.6f %lld\n", dt, (long long)sum);
  }
  return 0;
}
