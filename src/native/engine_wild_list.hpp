// The plays of a hand that hold wild jokers (included by engine_extended.hpp, whose
// generate() lists the natural plays and the jokers alone): big2.variant.generic_sets's
// listing by shape, each set of card names once, read by engine_wild.hpp.
//
// The natural part of a set is built by shape (one rank; distinct ranks inside a
// straight window or of one suit, or any ranks where jokers make the shape; rank
// patterns such as three and one), the jokers added in every multiset of their
// names the hand holds (the lowest copies), and a set is listed when it reads as a
// play; its listed kind and power are those of its strongest reading.
#pragma once

namespace big2w {

// Every play of *hand* holding a wild joker and some other card, or two jokers or more,
// appended to *out*'s groups (unsorted).
inline void list_wild(const WideTables& t, WMask hand, WideHandPlays& out) {
  const Tables& b = t.base;
  const u64 a = first(hand), names = a | second(hand), dups = a & second(hand);
  // the jokers held, lowest copy first: red 52 (106), black 53 (107)
  WMask red[2], black[2];
  int nred = 0, nblack = 0;
  for (int d = 0; d < 2; ++d) {
    WMask r = WMask(1) << (52 + d * kCopy), k = WMask(1) << (53 + d * kCopy);
    if (hand & r) red[nred++] = r;
    if (hand & k) black[nblack++] = k;
  }
  const int jokers = nred + nblack;
  if (!jokers) return;
  struct JSet { WMask mask; u64 names, dups; };
  JSet jsets[5][9];
  int njs[5] = {};
  for (int i = 0; i <= nred; ++i)
    for (int j = 0; j <= nblack; ++j) {
      if (!(i + j)) continue;
      JSet s{0, 0, 0};
      for (int x = 0; x < i; ++x) s.mask |= red[x];
      for (int x = 0; x < j; ++x) s.mask |= black[x];
      s.names = (i ? u64(1) << 52 : 0) | (j ? u64(1) << 53 : 0);
      s.dups = (i == 2 ? u64(1) << 52 : 0) | (j == 2 ? u64(1) << 53 : 0);
      jsets[i + j][njs[i + j]++] = s;
    }
  Reading rd[kMaxReads];
  auto emit = [&](u64 nn, u64 dd, int n, int jn) {
    int k = wild_reads(t.wk, b, nn, dd, jn, rd);
    if (!k) return;
    WMask nat = join(nn & a, (nn & ~a) | dd);
    for (int i = 0; i < njs[jn]; ++i) {
      const JSet& s = jsets[jn][i];
      WPlay p;
      p.mask = nat | s.mask; p.names = nn | s.names; p.dups = dd | s.dups;
      p.kind = rd[0].kind; p.power = rd[0].power;
      out.groups[n].push_back(p);
    }
  };
  // pieces[r][c]: every multiset of c card names of rank r the hand holds
  struct Piece { u64 nn, dd; };
  Piece pieces[13][6][20];
  int npieces[13][6] = {};
  int held[13];
  unsigned hranks = 0;
  for (int r = 0; r < 13; ++r) {
    unsigned nn = nib(names, r), dd = nib(dups, r);
    held[r] = __builtin_popcount(nn) + __builtin_popcount(dd);
    if (!held[r]) continue;
    hranks |= 1u << r;
    for (unsigned N = nn; N; N = (N - 1) & nn)
      for (unsigned D = N & dd;; D = (D - 1) & (N & dd)) {
        int c = __builtin_popcount(N) + __builtin_popcount(D);
        if (c <= 5 && npieces[r][c] < 20)
          pieces[r][c][npieces[r][c]++] = Piece{u64(N) << (4 * r), u64(D) << (4 * r)};
        if (!D) break;
      }
  }
  auto in_window = [&](unsigned rm) {
    for (int i = 0; i < b.n_straights; ++i)
      if ((rm & b.straight_mask[i]) == rm) return true;
    return false;
  };
  // one name of each rank of *rm* (every choice), handed to emit
  auto one_each = [&](unsigned rm, int n, int jn) {
    int rs[5], m = 0;
    for (unsigned x = rm; x; x &= x - 1) rs[m++] = __builtin_ctz(x);
    auto walk = [&](auto&& self, int i, u64 nm) -> void {
      if (i == m) { emit(nm, 0, n, jn); return; }
      for (unsigned s = nib(names, rs[i]); s; s &= s - 1)
        self(self, i + 1, nm | u64(1) << (4 * rs[i] + __builtin_ctz(s)));
    };
    walk(walk, 0, 0);
  };
  // distinct ranks for a pattern's counts (increasing where counts are equal), and
  // every multiset of names for them
  auto pattern = [&](std::initializer_list<int> counts, int n, int jn) {
    int cs[3], len = 0;
    for (int c : counts) cs[len++] = c;
    int rs[3];
    auto pieces_of = [&](auto&& self, int i, u64 nn, u64 dd) -> void {
      if (i == len) { emit(nn, dd, n, jn); return; }
      for (int x = 0; x < npieces[rs[i]][cs[i]]; ++x) {
        const Piece& p = pieces[rs[i]][cs[i]][x];
        self(self, i + 1, nn | p.nn, dd | p.dd);
      }
    };
    auto ranks = [&](auto&& self, int i, unsigned used) -> void {
      if (i == len) { pieces_of(pieces_of, 0, 0, 0); return; }
      int low = i && cs[i] == cs[i - 1] ? rs[i - 1] + 1 : 0;
      for (int r = low; r < 13; ++r)
        if (held[r] >= cs[i] && !(used >> r & 1)) { rs[i] = r; self(self, i + 1, used | 1u << r); }
    };
    ranks(ranks, 0, 0);
  };
  const bool odd = b.five_trips || b.five_two_pairs;
  for (int n = 2; n <= 5; ++n)
    for (int jn = 1; jn <= std::min(jokers, n); ++jn) {
      int k = n - jn;
      if (k == 0) { emit(0, 0, n, jn); continue; }
      for (unsigned x = hranks; x; x &= x - 1) {  // one rank
        int r = __builtin_ctz(x);
        for (int i = 0; i < npieces[r][k]; ++i) emit(pieces[r][k][i].nn, pieces[r][k][i].dd, n, jn);
      }
      if (k < 2) continue;
      // distinct ranks: anywhere where jokers make a shape of any ranks, else in a
      // straight window, or of one suit
      bool every = (n == 5 && (k <= 2 || (k == 3 && odd))) || (n == 4 && k == 2 && b.two_pairs);
      if (every || n == 5)
        for_each_subset(hranks, k, [&](unsigned rm) { if (every || in_window(rm)) one_each(rm, n, jn); });
      if (n == 5 && !every)
        for (int s = 0; s < 4; ++s) {
          unsigned sr = 0;
          for (int r = 0; r < 13; ++r) if (names >> (4 * r + s) & 1) sr |= 1u << r;
          for_each_subset(sr, k, [&](unsigned rm) {
            if (in_window(rm)) return;
            u64 nm = 0;
            for (unsigned x = rm; x; x &= x - 1) nm |= u64(1) << (4 * __builtin_ctz(x) + s);
            emit(nm, 0, n, jn);
          });
        }
      // rank patterns the jokers complete
      if (n == 4 && b.two_pairs && jn == 1) pattern({2, 1}, n, jn);
      if (n == 5 && jn == 1) {
        pattern({3, 1}, n, jn);
        pattern({2, 2}, n, jn);
        if (odd) pattern({2, 1, 1}, n, jn);
      }
      if (n == 5 && jn == 2) pattern({2, 1}, n, jn);
    }
}

}  // namespace big2w
