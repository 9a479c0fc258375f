// Wild jokers in the core: the readings of a set of natural cards with wild jokers
// (big2.variant.generic.GenericEngine._read, for plays of one to five cards), one deck
// or two.
//
// A wild joker stands for any card: a set holding one may read as several plays (a
// straight or a flush, a full house or four and a card), each kind at the strongest
// power it can have.  The powers are the ones the Python keys give (kind bases and
// orders, the suit positions, the one-deck tables of flush powers and straights,
// compiled by big2.variant.native.compile_wide), so no key is worked out twice; the
// layout of a key (rank * 4 + suit position...) is big2.variant.keys's.
#pragma once

#include <algorithm>
#include <cstdint>

#include "engine.hpp"

namespace big2w {

using big2n::nib;
using big2n::popcount;
using big2n::Tables;

constexpr int kTopPos = 3;  // the suit position a joker takes: the strongest
constexpr int kTwo = 12;    // the rank of the 2s
constexpr int kMaxReads = 8;

// One way to read cards: its kind and power.
struct Reading {
  int kind = 0;
  int64_t power = 0;
};

// f(rm) for every k-subset of the bits of *from* (a rank mask), as a mask; the empty
// subset once for k = 0, none when *from* has fewer than k bits.
template <class F>
inline void for_each_subset(unsigned from, int k, F&& f) {
  int rs[13], m = 0;
  for (unsigned x = from; x; x &= x - 1) rs[m++] = __builtin_ctz(x);
  if (k > m) return;
  int ix[13];
  for (int i = 0; i < k; ++i) ix[i] = i;
  while (true) {
    unsigned rm = 0;
    for (int i = 0; i < k; ++i) rm |= 1u << rs[ix[i]];
    f(rm);
    int i = k - 1;
    while (i >= 0 && ix[i] == m - k + i) --i;
    if (i < 0) return;
    ++ix[i];
    for (int j = i + 1; j < k; ++j) ix[j] = ix[j - 1] + 1;
  }
}

// What the readings need beyond the one-deck tables (big2.variant.keys.StrengthKeys).
struct WildKeys {
  bool on = false;              // jokers="wild"
  bool suited = true;           // suits break ties (StrengthKeys.suited)
  bool five_kind = false;       // five_of_a_kind != "off"
  int pos[4] = {0, 1, 2, 3};    // each suit's position (StrengthKeys.suit_rank)
  int64_t kind_base[16] = {};   // StrengthKeys.kind_base
  int kind_order[16] = {};      // StrengthKeys.kind_order (0 where it has none)
};

// Every reading of the natural cards *names* (first-deck numbers; *dups*: those held
// twice) with *jokers* wild jokers, strongest first (power, then the kind's order), into
// *out*; returns how many.  Plays of one to five cards.
inline int wild_reads(const WildKeys& w, const Tables& b, uint64_t names, uint64_t dups,
                      int jokers, Reading* out) {
  int cnt[13], tpos[13];
  unsigned rmask = 0, suits = 0;
  int nr = 0, nat = 0;
  bool distinct = true;
  for (int r = 0; r < 13; ++r) {
    unsigned nn = nib(names, r), dd = nib(dups, r);
    cnt[r] = __builtin_popcount(nn) + __builtin_popcount(dd);
    tpos[r] = -1;
    if (!cnt[r]) continue;
    rmask |= 1u << r; ++nr; nat += cnt[r]; suits |= nn;
    distinct &= cnt[r] == 1;
    for (int s = 0; s < 4; ++s) if (nn >> s & 1) tpos[r] = std::max(tpos[r], w.pos[s]);
  }
  const int n = nat + jokers;
  int k = 0;
  if (n < 1 || n > 5) return 0;
  auto emit = [&](int kind, int64_t power) { out[k].kind = kind; out[k].power = power; ++k; };
  auto top_pos = [&](int r, int need) { return need > cnt[r] ? kTopPos : tpos[r]; };
  auto card_key = [&](int r, int need) -> int64_t { return w.suited ? r * 4 + top_pos(r, need) : r; };
  // a target: up to three ranks with counts; whether the natural cards fit in it
  struct Target { int r[3]; int c[3]; int len; };
  auto fits = [&](const Target& t) {
    for (unsigned x = rmask; x; x &= x - 1) {
      int r = __builtin_ctz(x), want = 0;
      for (int i = 0; i < t.len; ++i) if (t.r[i] == r) want = t.c[i];
      if (cnt[r] > want) return false;
    }
    return true;
  };
  // a five-card power: the kind's base and key, or under top-card the top card
  auto five = [&](int kind, int64_t key, const Target& t, int64_t top = -1) -> int64_t {
    if (!b.top_card) return w.kind_base[kind] | key;
    if (top >= 0) return top;
    int hi = 0;
    for (int i = 1; i < t.len; ++i) if (t.r[i] > t.r[hi]) hi = i;
    return card_key(t.r[hi], t.c[hi]);
  };

  if (nr <= 1) {  // one rank: single, pair, triple, four alone, five of a kind
    int r = nr ? __builtin_ctz(rmask) : kTwo;
    if (n == 1) emit(big2n::SINGLE, card_key(r, 1));
    else if (n == 2) emit(big2n::PAIR, card_key(r, 2));
    else if (n == 3 && b.triples) emit(big2n::TRIPLE, r);
    else if (n == 4 && b.four_alone) emit(big2n::FOUR_OF_A_KIND, w.kind_base[big2n::FOUR_OF_A_KIND] | r);
    else if (n == 5 && w.five_kind) emit(15, five(15, r, Target{{r}, {5}, 1}));
  }
  if (n == 4 && b.two_pairs && nr <= 2) {
    int64_t best = -1;
    for (int hi = 12; hi >= 0; --hi)
      for (int lo = 0; lo < hi; ++lo)
        if (fits(Target{{hi, lo}, {2, 2}, 2})) best = std::max(best, card_key(hi, 2));
    if (best >= 0) emit(big2n::TWO_PAIRS, best);
  }
  if (n == 5) {
    if (distinct) {
      int idx = -1;
      for (int i = 0; i < b.n_straights; ++i)  // lowest first: keep the last
        if ((rmask & b.straight_mask[i]) == rmask) idx = i;
      bool one_suit = __builtin_popcount(suits) == 1;
      int s = one_suit ? w.pos[__builtin_ctz(suits)] : 0;
      if (idx >= 0) {
        unsigned seq = b.straight_mask[idx];
        int decide = b.straight_decide[idx], hr = 31 - __builtin_clz(seq);
        Target t{{hr}, {1}, 1};
        if (one_suit)
          emit(big2n::STRAIGHT_FLUSH, five(big2n::STRAIGHT_FLUSH, w.suited ? idx * 4 + s : idx, t,
                                           w.suited ? hr * 4 + s : hr));
        if (!one_suit || jokers) {
          // a lone joker among cards of one suit must take another suit
          int jp = one_suit && jokers == 1 && s == kTopPos ? kTopPos - 1 : kTopPos;
          int dpos = cnt[decide] ? tpos[decide] : jp, hpos = cnt[hr] ? tpos[hr] : jp;
          emit(big2n::STRAIGHT, five(big2n::STRAIGHT, w.suited ? idx * 4 + dpos : idx, t,
                                     w.suited ? hr * 4 + hpos : hr));
        }
      }
      if (one_suit) {  // a flush: the jokers take the free ranks that make it strongest
        unsigned free = ~rmask & 0x1FFFu, best = 0;
        int64_t best_key = -1;
        auto consider = [&](unsigned rm) {
          if (b.straight_index(rm) >= 0) return;
          int64_t key = 0;
          for (int r = 12; r >= 0; --r) if (rm >> r & 1) key = key * 13 + r;
          if (key > best_key) { best_key = key; best = rm; }
        };
        for_each_subset(free, jokers, [&](unsigned extra) { consider(rmask | extra); });
        if (best) {
          int hr = 31 - __builtin_clz(best), suit = __builtin_ctz(suits);
          emit(big2n::FLUSH, b.top_card ? (w.suited ? hr * 4 + s : hr)
                                        : b.flush_power[size_t(suit) * 8192 + best]);
        }
      }
    }
    if (nr <= 3 && !jokers) {  // natural cards alone: the shape of the rank counts
      int by[3], m = 0;
      for (int r = 12; r >= 0; --r) if (cnt[r]) by[m++] = r;
      std::stable_sort(by, by + m, [&](int x, int y) { return cnt[x] > cnt[y]; });
      Target t{{0}, {0}, m};
      for (int i = 0; i < m; ++i) { t.r[i] = by[i]; t.c[i] = cnt[by[i]]; }
      int top = by[0];
      if (m == 2 && cnt[by[0]] == 3 && cnt[by[1]] == 2) {
        emit(big2n::FULL_HOUSE, five(big2n::FULL_HOUSE, top, t));
      } else if (m == 2 && cnt[by[0]] == 4 && cnt[by[1]] == 1) {
        if (b.four_kicker) emit(big2n::FOUR_KICKER, five(big2n::FOUR_KICKER, top, t));
      } else if (m == 3 && cnt[by[0]] == 3) {
        if (b.five_trips) emit(big2n::FIVE_TRIPS, five(big2n::FIVE_TRIPS, top, t));
      } else if (m == 3 && cnt[by[0]] == 2 && cnt[by[1]] == 2 && b.five_two_pairs) {
        int hi = std::max(by[0], by[1]), lo = std::min(by[0], by[1]);
        if (b.five_two_pairs == 1 || hi - lo == 1)
          emit(big2n::FIVE_TWO_PAIRS, five(big2n::FIVE_TWO_PAIRS, card_key(hi, 2), t));
      }
    } else if (nr <= 3) {  // rank patterns the natural cards fit, each kind at its best
      int cands[3], nc = 0;
      for (int r = 0; r < 13; ++r) if (cnt[r]) cands[nc++] = r;
      int want_free = 3 - nr;
      int fr[3], nf = 0;
      for (int r = kTwo; r >= 0 && nf < want_free; --r) if (!cnt[r]) fr[nf++] = r;
      for (int i = 0; i < nf; ++i) cands[nc++] = fr[i];
      std::sort(cands, cands + nc);
      int64_t best[16];
      for (auto& x : best) x = -1;
      auto add = [&](int kind, const Target& t, int64_t key) {
        if (fits(t)) best[kind] = std::max(best[kind], five(kind, key, t));
      };
      for (int i = 0; i < nc; ++i)
        for (int j = 0; j < nc; ++j) {
          int t = cands[i], p = cands[j];
          if (p == t) continue;
          add(big2n::FULL_HOUSE, Target{{t, p}, {3, 2}, 2}, t);
          if (b.four_kicker) add(big2n::FOUR_KICKER, Target{{t, p}, {4, 1}, 2}, t);
          if (b.five_trips)
            for (int q_ = 0; q_ < nc; ++q_) {
              int q = cands[q_];
              if (q > p && q != t) add(big2n::FIVE_TRIPS, Target{{t, p, q}, {3, 1, 1}, 3}, t);
            }
          if (b.five_two_pairs && p < t && (b.five_two_pairs == 1 || t - p == 1))
            for (int q_ = 0; q_ < nc; ++q_) {
              int q = cands[q_];
              if (q != t && q != p)
                add(big2n::FIVE_TWO_PAIRS, Target{{t, p, q}, {2, 2, 1}, 3}, card_key(t, 2));
            }
        }
      // in the order _read_five meets the kinds (the sort below decides; no two tie)
      static const int order[4] = {big2n::FULL_HOUSE, big2n::FOUR_KICKER, big2n::FIVE_TRIPS,
                                   big2n::FIVE_TWO_PAIRS};
      for (int kind : order) if (best[kind] >= 0) emit(kind, best[kind]);
    }
  }
  std::sort(out, out + k, [&](const Reading& x, const Reading& y) {
    if (x.power != y.power) return x.power > y.power;
    return w.kind_order[x.kind] > w.kind_order[y.kind];
  });
  return k;
}

}  // namespace big2w
