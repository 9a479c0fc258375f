// Standard high-poker evaluation and hold'em equity loops for big2.poker (issue 28).
//
// Values are the ones of big2.poker.evaluate: 1 (7-5-4-3-2 offsuit) to 7,462
// (royal flush), higher is better, equal hands equal.  Cards are big2's ints:
// card c has poker rank ((c >> 2) + 1) % 13 (0 deuce .. 12 ace) and suit c & 3.
//
// One 64-bit key per card: the low 32 bits hold a per-rank key (kRankKey7,
// whose sums over any 5, 6 or 7 ranks, at most four alike, are distinct for
// each count) and bits 32..47 one 4-bit counter per suit.  The counters start
// at 3, so a suit with five or more cards sets that nibble's top bit.  Summing
// the card keys gives the flush test and the rank key at once; the rank key
// goes through a displacement perfect hash (offset per 512-key bucket plus
// the low bits) into a compact table, small enough for the L2 cache.  A flush
// takes that suit's 13 rank bits into an 8,192-entry table instead (with five
// to seven cards no full house or quads fits beside a flush).
//
// The tables are generated here from the rules (no data files): each 5-card
// class gets a sortable strength (category, then the tie-break ranks), and
// the 7,462 distinct strengths in order are the values 1..7,462, exactly as
// big2.poker.tables numbers its classes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hot.hpp"

namespace big2poker {

constexpr uint32_t kRankKey7[13] = {0,     1,      5,      22,     98,     453,    2031,
                                    8698,  22854,  83661,  262349, 636345, 1479181};
constexpr uint64_t kSuitInit = 0x3333ull << 32;   // suit counters start at 3
constexpr uint64_t kFlushBits = 0x8888ull << 32;  // a counter reached 8: five of a suit
constexpr int kShift = 9;                         // perfect-hash bucket width 512
constexpr int kInvalid = 52;                      // index of the "not a card" entry

inline int rank_of(int c) { return ((c >> 2) + 1) % 13; }

// Sortable strength of a 5-card class: category << 20, then up to five ranks, 4 bits each.
inline uint32_t strength(int cat, std::initializer_list<int> ranks) {
  uint32_t s = uint32_t(cat) << 20;
  int shift = 16;
  for (int r : ranks) {
    s |= uint32_t(r) << shift;
    shift -= 4;
  }
  return s;
}

// Top rank of the best straight in 13 rank bits (wheel: 3), or -1.
inline int straight_top(uint32_t bits) {
  for (int top = 12; top >= 4; --top) {
    uint32_t w = 0x1Fu << (top - 4);
    if ((bits & w) == w) return top;
  }
  return (bits & 0x100F) == 0x100F ? 3 : -1;
}

// Strength of the best five of a rank multiset (counts of 13 ranks, 5..7 cards), no flush.
inline uint32_t nonflush_strength(const int* counts) {
  int present[13], np = 0;
  uint32_t bits = 0;
  for (int r = 12; r >= 0; --r)
    if (counts[r]) present[np++] = r, bits |= 1u << r;
  auto first_other = [&](int a, int b, int skip) {  // skip-th rank not a or b
    for (int i = 0; i < np; ++i)
      if (present[i] != a && present[i] != b && skip-- == 0) return present[i];
    return -1;
  };
  for (int i = 0; i < np; ++i)
    if (counts[present[i]] >= 4) return strength(7, {present[i], first_other(present[i], -1, 0)});
  int trips = -1;
  for (int i = 0; i < np && trips < 0; ++i)
    if (counts[present[i]] == 3) trips = present[i];
  if (trips >= 0)
    for (int i = 0; i < np; ++i)
      if (present[i] != trips && counts[present[i]] >= 2) return strength(6, {trips, present[i]});
  int top = straight_top(bits);
  if (top >= 0) return strength(4, {top});
  if (trips >= 0)
    return strength(3, {trips, first_other(trips, -1, 0), first_other(trips, -1, 1)});
  int pairs[7], npairs = 0;
  for (int i = 0; i < np; ++i)
    if (counts[present[i]] == 2) pairs[npairs++] = present[i];
  if (npairs >= 2)
    return strength(2, {pairs[0], pairs[1], first_other(pairs[0], pairs[1], 0)});
  if (npairs == 1) {
    int p = pairs[0];
    return strength(1, {p, first_other(p, -1, 0), first_other(p, -1, 1), first_other(p, -1, 2)});
  }
  return strength(0, {present[0], present[1], present[2], present[3], present[4]});
}

// Strength of the best flush or straight flush within rank bits holding five or more.
inline uint32_t flush_strength(uint32_t bits) {
  int top = straight_top(bits);
  if (top >= 0) return strength(8, {top});
  int r[5], n = 0;
  for (int i = 12; i >= 0 && n < 5; --i)
    if (bits >> i & 1) r[n++] = i;
  return strength(5, {r[0], r[1], r[2], r[3], r[4]});
}

// A perfect hash of a set of rank keys: value[offset[key >> kShift] + (key & 511)].
struct PerfectHash {
  std::vector<uint32_t> offset;
  std::vector<uint16_t> value;

  uint16_t operator()(uint32_t key) const {
    return value[offset[key >> kShift] + (key & ((1u << kShift) - 1))];
  }

  // First-fit placement of the buckets, largest first; max_key bounds every key looked up.
  void build(const std::vector<std::pair<uint32_t, uint16_t>>& entries, uint32_t max_key) {
    const uint32_t width = 1u << kShift, nb = (max_key >> kShift) + 1;
    std::vector<std::vector<std::pair<uint32_t, uint16_t>>> buckets(nb);
    for (auto& e : entries) buckets[e.first >> kShift].push_back({e.first & (width - 1), e.second});
    std::vector<uint32_t> order(nb);
    for (uint32_t i = 0; i < nb; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return buckets[a].size() > buckets[b].size(); });
    // free slots found through "next free" links with path halving (union-find style)
    std::vector<uint32_t> next(entries.size() * 4 + 4 * width);
    for (uint32_t i = 0; i < next.size(); ++i) next[i] = i;
    auto find = [&](uint32_t i) {
      while (next[i] != i) i = next[i] = next[next[i]];
      return i;
    };
    auto is_free = [&](uint32_t i) { return next[i] == i; };
    offset.assign(nb, 0);
    uint32_t top = 0, cursor = 0;  // bases are tried from a little before the last one
    for (uint32_t b : order) {
      auto& bk = buckets[b];
      if (bk.empty()) break;
      uint32_t low0 = bk[0].first, from = cursor > 2 * width ? cursor - 2 * width : 0;
      for (uint32_t p = find(from + low0);; p = find(p + 1)) {
        uint32_t base = p - low0;
        if (base + width + 1 >= next.size()) throw std::logic_error("perfect hash: no room");
        bool ok = true;
        for (auto& e : bk)
          if (!is_free(base + e.first)) {
            ok = false;
            break;
          }
        if (!ok) continue;
        offset[b] = cursor = base;
        for (auto& e : bk) next[base + e.first] = base + e.first + 1;
        top = std::max(top, base + width);
        break;
      }
    }
    value.assign(top + width, 0);  // every bucket's window stays inside, even for stray keys
    for (uint32_t b = 0; b < nb; ++b)
      for (auto& e : buckets[b]) value[offset[b] + e.first] = e.second;
  }
};

struct Tables {
  uint64_t key[53];       // per card (52: not a card, 0)
  uint64_t bits[53];      // per card: 1 << (16 * suit + rank)
  uint64_t mask[53];      // per card: 1 << card (52: bit 63, never valid)
  uint16_t flush[8192];   // best flush by rank bits (5+ bits set)
  PerfectHash five, seven;

  Tables() {
    for (int c = 0; c < 52; ++c) {
      int r = rank_of(c), s = c & 3;
      key[c] = kRankKey7[r] + (1ull << (32 + 4 * s));
      bits[c] = 1ull << (16 * s + r);
      mask[c] = 1ull << c;
    }
    key[kInvalid] = bits[kInvalid] = 0;
    mask[kInvalid] = 1ull << 63;
    // every class strength, in order: the values 1..7462
    std::vector<uint32_t> all;
    int counts[13] = {};
    std::vector<std::pair<std::array<int, 13>, int>> multisets[8];
    gen(counts, 0, 0, multisets);
    for (auto& m : multisets[5]) all.push_back(nonflush_strength(m.first.data()));
    for (uint32_t b = 0; b < 8192; ++b)
      if (__builtin_popcount(b) == 5) all.push_back(flush_strength(b));
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    if (all.size() != 7462) throw std::logic_error("poker tables: expected 7462 classes");
    auto value_of = [&](uint32_t s) {
      return uint16_t(std::lower_bound(all.begin(), all.end(), s) - all.begin() + 1);
    };
    for (uint32_t b = 0; b < 8192; ++b)
      flush[b] = __builtin_popcount(b) >= 5 ? value_of(flush_strength(b)) : 0;
    const uint32_t max_key = 7 * kRankKey7[12];  // any 7 keys, duplicates included
    for (int n : {5, 7}) {
      std::vector<std::pair<uint32_t, uint16_t>> entries;
      std::vector<char> seen(max_key + 1, 0);
      for (auto& m : multisets[n]) {
        if (seen[m.second]) throw std::logic_error("poker tables: rank keys collide");
        seen[m.second] = 1;
        entries.push_back({uint32_t(m.second), value_of(nonflush_strength(m.first.data()))});
      }
      (n == 5 ? five : seven).build(entries, max_key);
    }
  }

  // All rank multisets of 5 and 7 cards (at most four alike) with their key sums.
  static void gen(int* counts, int r, int n,
                  std::vector<std::pair<std::array<int, 13>, int>>* out) {
    if (r == 13) {
      if (n == 5 || n == 7) {
        std::array<int, 13> a;
        int k = 0;
        for (int i = 0; i < 13; ++i) a[i] = counts[i], k += counts[i] * int(kRankKey7[i]);
        out[n].push_back({a, k});
      }
      return;
    }
    for (int c = 0; c <= 4 && n + c <= 7; ++c) {
      counts[r] = c;
      gen(counts, r + 1, n + c, out);
    }
    counts[r] = 0;
  }

  // Value of 5 or 7 cards from their summed keys (kSuitInit included) and OR-ed bits.
  template <int N>
  uint16_t from_key(uint64_t k, uint64_t suit_bits) const {
    uint64_t f = k & kFlushBits;
    if (f) {
      int s = (__builtin_ctzll(f) - 35) >> 2;
      return flush[(suit_bits >> (16 * s)) & 0x1FFF];
    }
    return N == 5 ? five(uint32_t(k)) : seven(uint32_t(k));
  }

  uint16_t eval5(const int* c) const {
    uint64_t k = kSuitInit + key[c[0]] + key[c[1]] + key[c[2]] + key[c[3]] + key[c[4]];
    if (k & kFlushBits) return flush[(bits[c[0]] | bits[c[1]] | bits[c[2]] | bits[c[3]] |
                                      bits[c[4]]) >> (16 * (c[0] & 3)) & 0x1FFF];
    return five(uint32_t(k));
  }

  uint16_t eval7(const int* c) const {
    uint64_t k = kSuitInit + key[c[0]] + key[c[1]] + key[c[2]] + key[c[3]] + key[c[4]] +
                 key[c[5]] + key[c[6]];
    uint64_t f = k & kFlushBits;
    if (f) {
      uint64_t b = bits[c[0]] | bits[c[1]] | bits[c[2]] | bits[c[3]] | bits[c[4]] | bits[c[5]] |
                   bits[c[6]];
      return flush[(b >> (16 * ((__builtin_ctzll(f) - 35) >> 2))) & 0x1FFF];
    }
    return seven(uint32_t(k));
  }

  // Best five of n = 5..9 cards: 6 as the best of its 5-card subsets, 8 and 9 of their
  // 7-card subsets (the best five lie in some subset).
  BIG2_HOT uint16_t eval_n(const int* c, int n) const {
    if (n == 5) return eval5(c);
    if (n == 7) return eval7(c);
    int sub[7];
    uint16_t best = 0;
    int keep = n == 6 ? 5 : 7;
    for (uint32_t m = 0; m < (1u << n); ++m) {
      if (__builtin_popcount(m) != keep) continue;
      int j = 0;
      for (int i = 0; i < n; ++i)
        if (m >> i & 1) sub[j++] = c[i];
      best = std::max(best, keep == 5 ? eval5(sub) : eval7(sub));
    }
    return best;
  }
};

const Tables& tables();

// ---- hold'em equity -------------------------------------------------------------------

// Pot-share counts: ties[i * (players + 1) + k] deals on which player i is one of k
// players with the best hand (k = 1: won alone).
struct Counts {
  int players;
  std::vector<int64_t> ties;
  int64_t deals = 0;
  int64_t attempts = 0;
  explicit Counts(int p) : players(p), ties(size_t(p) * (p + 1), 0) {}
};

// Tally one showdown's values *v* into *out*, *weight* times (negative: taken back).
inline void tally(const uint16_t* v, int players, int64_t weight, Counts& out) {
  uint16_t best = 0;
  for (int i = 0; i < players; ++i) best = std::max(best, v[i]);
  int k = 0;
  for (int i = 0; i < players; ++i) k += v[i] == best;
  int64_t* row = out.ties.data();
  for (int i = 0; i < players; ++i)
    if (v[i] == best) row[i * (players + 1) + k] += weight;
}

// One showdown: hole keys/bits of each player plus the board's, tallied into *out*.
inline void showdown(const Tables& t, int players, const uint64_t* hk, const uint64_t* hb,
                     uint64_t bk, uint64_t bb, Counts& out) {
  uint16_t v[32];
  for (int i = 0; i < players; ++i) v[i] = t.from_key<7>(bk + hk[i], bb | hb[i]);
  tally(v, players, 1, out);
  ++out.deals;
}

// Every board completing *board* (n cards) from the cards outside *used*, each player
// holding two fixed cards (holes: 2 per player), one showdown per board: the reference
// for holdem_exact, which gives the same counts from far fewer showdowns.
BIG2_HOT inline void holdem_exact_each(const Tables& t, const int* board, int nboard, const int* holes,
                         int players, uint64_t used, Counts& out) {
  uint64_t hk[32], hb[32];
  for (int i = 0; i < players; ++i) {
    hk[i] = t.key[holes[2 * i]] + t.key[holes[2 * i + 1]];
    hb[i] = t.bits[holes[2 * i]] | t.bits[holes[2 * i + 1]];
  }
  uint64_t bk = kSuitInit, bb = 0;
  for (int j = 0; j < nboard; ++j) bk += t.key[board[j]], bb |= t.bits[board[j]];
  int rest[52], m = 0;
  for (int c = 0; c < 52; ++c)
    if (!(used >> c & 1)) rest[m++] = c;
  int need = 5 - nboard;
  // iterative nested loops over need of the m cards, keys summed incrementally
  int idx[5];
  uint64_t ks[6], bs[6];
  ks[0] = bk, bs[0] = bb;
  if (need == 0) {
    showdown(t, players, hk, hb, bk, bb, out);
    return;
  }
  int d = 0;
  idx[0] = -1;
  while (d >= 0) {
    int next = ++idx[d];
    if (next > m - (need - d)) {
      --d;
      continue;
    }
    ks[d + 1] = ks[d] + t.key[rest[next]];
    bs[d + 1] = bs[d] | t.bits[rest[next]];
    if (d + 1 == need) {
      showdown(t, players, hk, hb, ks[need], bs[need], out);
    } else {
      idx[d + 1] = next;
      ++d;
    }
  }
}

// A small fast generator (xoshiro256**), seeded by splitmix64.
struct Rng {
  uint64_t s[4];
  explicit Rng(uint64_t seed) {
    for (auto& x : s) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      x = z ^ (z >> 31);
    }
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
    return r;
  }
  // Uniform in [0, n) (Lemire's multiply-shift; the bias for n <= 2^16 is below 2^-48).
  uint32_t below(uint32_t n) { return uint32_t(((next() >> 32) * uint64_t(n)) >> 32); }
};

// Monte Carlo: each player's two cards uniform among its combos (combos[i]: 2 * sizes[i]
// cards), a deal whose hands clash is drawn again, the missing board cards uniform among
// the rest.  Stops after *trials* deals or *max_attempts* draws of the hands.
BIG2_HOT inline void holdem_monte_carlo(const Tables& t, const int* board, int nboard,
                               const std::vector<const uint8_t*>& combos,
                               const std::vector<int>& sizes, uint64_t fixed, int64_t trials,
                               int64_t max_attempts, uint64_t seed, Counts& out) {
  int players = int(combos.size());
  Rng rng(seed);
  uint64_t bk0 = kSuitInit, bb0 = 0;
  for (int j = 0; j < nboard; ++j) bk0 += t.key[board[j]], bb0 |= t.bits[board[j]];
  int need = 5 - nboard;
  uint64_t hk[32], hb[32];
  while (out.deals < trials && out.attempts < max_attempts) {
    ++out.attempts;
    uint64_t used = fixed;
    bool clash = false;
    for (int i = 0; i < players; ++i) {
      const uint8_t* c = combos[i] + 2 * (sizes[i] == 1 ? 0 : rng.below(uint32_t(sizes[i])));
      uint64_t m = t.mask[c[0]] | t.mask[c[1]];
      if (used & m) {
        clash = true;
        break;
      }
      used |= m;
      hk[i] = t.key[c[0]] + t.key[c[1]];
      hb[i] = t.bits[c[0]] | t.bits[c[1]];
    }
    if (clash) continue;
    uint64_t bk = bk0, bb = bb0;
    for (int j = 0; j < need; ++j) {
      uint32_t c;
      do c = rng.below(52);
      while (used >> c & 1);
      used |= 1ull << c;
      bk += t.key[c], bb |= t.bits[c];
    }
    showdown(t, players, hk, hb, bk, bb, out);
  }
}

}  // namespace big2poker
