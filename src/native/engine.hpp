// The compiled core of big2: the standard family of Big Two on 52-bit masks.
//
// A card is rank * 4 + suit (ranks 3..2 numbered 0..12, suits by identity),
// a hand a 64-bit mask with bit `card` set.  The engine knows masks and
// tables, never the rule options: Python compiles a rule set into a Tables
// value (big2.variant.native), whose powers are the very ints the Python
// engine computes (big2.variant.keys), so a play's meaning is decided in one
// place and this file only lists, compares and steps on it.
//
// Scope: one 52-card deck, no jokers, plays of one to five cards (singles,
// pairs, triples, four-card plays, five-card hands), 2-4 players, plain
// comparisons (a play beats another of its size with a higher power; under
// "same kind" a five-card play must also match the kind).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hot.hpp"

namespace big2n {

using Mask = uint64_t;
constexpr int kCards = 52;
constexpr Mask kDeck = (Mask(1) << kCards) - 1;

// Kinds of play: the values of big2.variant.kinds.Kind.
enum Kind : int {
  SINGLE = 1, PAIR = 2, TRIPLE = 3, TWO_PAIRS = 4, FOUR_OF_A_KIND = 5,
  FIVE_TWO_PAIRS = 6, FIVE_TRIPS = 7, STRAIGHT = 8, FLUSH = 9, FULL_HOUSE = 10, FOUR_KICKER = 11, STRAIGHT_FLUSH = 12,
};

// Scoring methods, in big2.rules.Scoring's order.
enum Scoring : int { CLASSIC = 0, PENALTY = 1, COUNT = 2, RANKING = 3 };

// A classified play: cards, kind and power (higher power wins inside a size).
struct Play {
  Mask mask = 0;
  int64_t power = 0;
  int kind = 0;
  bool operator<(const Play& o) const {
    return power != o.power ? power < o.power : mask < o.mask;
  }
};

inline int popcount(Mask m) { return __builtin_popcountll(m); }
inline int lowbit(Mask m) { return __builtin_ctzll(m); }
inline int highbit(Mask m) { return 63 - __builtin_clzll(m); }
inline unsigned nib(Mask m, int r) { return unsigned(m >> (4 * r)) & 15u; }

// A rule set compiled by Python (see big2.variant.native.compile_tables).
struct Tables {
  // -- plays -----------------------------------------------------------------
  int64_t sub_power[13][16] = {};   // power of exactly that subset of a rank's suits
  int64_t top_power[kCards] = {};   // a card's top-card strength (five_card_compare=top-card)
  std::vector<int64_t> flush_power; // [suit * 8192 + rank set]: a flush's power
  int n_straights = 0;
  uint16_t straight_mask[16] = {};  // rank set of each five-card straight, lowest first
  int straight_decide[16] = {};     // the rank whose suit breaks ties
  int64_t straight_power[2][16][4] = {};  // [flush][sequence][suit of deciding card]
  int64_t full_house_power[13] = {};      // by the triple's rank
  int64_t four_kicker_power[13] = {};     // by the four's rank
  int64_t five_trips_power[13] = {};      // three of a kind and two odd cards, by the triple
  int64_t five_two_pairs_base = 0;        // two pairs and a card: base | the higher pair's power
  bool triples = true, two_pairs = false, four_alone = false, four_kicker = true;
  bool five_trips = false;
  int five_two_pairs = 0;                 // 0 no, 1 any two pairs, 2 consecutive ("sisters")
  bool same_kind = false, top_card = false;
  bool play_equal = false;                // a play of equal power may follow
  // -- game ------------------------------------------------------------------
  int players = 4;
  int after[4][4] = {};             // seats after each seat in the direction of play
  bool jump_back = true, one_pass = false, opening_alone = false;
  // finish restrictions (big2.house.restrictions), a bit each: 1 any 2, 2 a single 2,
  // 4 a pair of 2s, 8 a play holding 2S; 0: none
  unsigned finish_barred = 0;
  int scoring = CLASSIC;
  bool twos_each = true, count_twos = false;
  int multiplier[kCards + 1] = {};  // classic/penalty points per card by cards left
  int by_strength[kCards] = {};     // cards weakest first
  int per_seat = 13, left_over = 0, spare_to = 0;  // spare_to: 0 lowest, 1 highest, 2 aside
  bool thirteen_each = false;

  // Whether going out with a play of *n* cards holding *twos* 2s (*two_spades*: a 2S
  // among them) is barred: FinishRestrictions.barred.
  bool barred(int n, int twos, bool two_spades) const {
    unsigned f = finish_barred;
    return ((f & 1) && twos) || ((f & 2) && n == 1 && twos) || ((f & 4) && n == 2 && twos == 2) ||
           ((f & 8) && two_spades);
  }

  int straight_index(unsigned rmask) const {
    for (int i = 0; i < n_straights; ++i)
      if (straight_mask[i] == rmask) return i;
    return -1;
  }
  int64_t top_of(Mask m) const {
    int64_t best = INT64_MIN;
    while (m) { int c = lowbit(m); m &= m - 1; best = std::max(best, top_power[c]); }
    return best;
  }

  // The play *m* makes under these rules, or kind 0 when it is none.
  BIG2_HOT Play classify(Mask m) const {
    Play p; p.mask = m;
    int n = popcount(m);
    if (n == 0 || n > 5 || (m & ~kDeck)) return p;
    unsigned nibs[13]; unsigned rmask = 0; int ranks = 0;
    for (int r = 0; r < 13; ++r) {
      nibs[r] = nib(m, r);
      if (nibs[r]) { rmask |= 1u << r; ++ranks; }
    }
    if (n <= 4 && ranks == 1) {
      int r = lowbit(rmask);
      static const int kinds[5] = {0, SINGLE, PAIR, TRIPLE, FOUR_OF_A_KIND};
      if ((n == 3 && !triples) || (n == 4 && !four_alone)) return p;
      p.kind = kinds[n]; p.power = sub_power[r][nibs[r]];
      return p;
    }
    if (n == 4) {
      if (two_pairs && ranks == 2) {
        int lo = lowbit(rmask), hi = highbit(rmask);
        if (popcount(nibs[lo]) == 2 && popcount(nibs[hi]) == 2) {
          p.kind = TWO_PAIRS; p.power = sub_power[hi][nibs[hi]];
        }
      }
      return p;
    }
    if (n != 5) return p;
    if (ranks == 5) {
      bool flush = false;
      for (int s = 0; s < 4; ++s) if ((m & (0x1111111111111ULL << s)) == m) flush = true;
      int idx = straight_index(rmask);
      if (idx >= 0) {
        int suit = lowbit(nibs[straight_decide[idx]]);
        p.kind = flush ? STRAIGHT_FLUSH : STRAIGHT;
        p.power = top_card ? top_of(m) : straight_power[flush][idx][suit];
      } else if (flush) {
        p.kind = FLUSH;
        p.power = top_card ? top_of(m) : flush_power[(lowbit(m) & 3) * 8192 + rmask];
      }
      return p;
    }
    if (ranks == 2) {
      int a = lowbit(rmask), b = highbit(rmask);
      int ca = popcount(nibs[a]), cb = popcount(nibs[b]);
      if ((ca == 4 || cb == 4) && four_kicker) {
        p.kind = FOUR_KICKER;
        p.power = top_card ? top_of(m) : four_kicker_power[ca == 4 ? a : b];
      } else if (ca == 3 || cb == 3) {
        p.kind = FULL_HOUSE;
        p.power = top_card ? top_of(m) : full_house_power[ca == 3 ? a : b];
      }
      return p;
    }
    // three ranks: three of a kind and two odd cards, or two pairs and a card
    int trip = -1, lo_pair = -1, hi_pair = -1;
    for (int r = 0; r < 13; ++r) {
      int c = popcount(nibs[r]);
      if (c == 3) trip = r;
      if (c == 2) { if (lo_pair < 0) lo_pair = r; else hi_pair = r; }
    }
    if (trip >= 0 && five_trips) {
      p.kind = FIVE_TRIPS;
      p.power = top_card ? top_of(m) : five_trips_power[trip];
    } else if (hi_pair >= 0 && five_two_pairs && (five_two_pairs == 1 || hi_pair - lo_pair == 1)) {
      p.kind = FIVE_TWO_PAIRS;
      p.power = top_card ? top_of(m) : (five_two_pairs_base | sub_power[hi_pair][nibs[hi_pair]]);
    }
    return p;
  }

  // Whether play *a* may follow play *b* (both classified, plain comparisons).
  bool beats(const Play& a, const Play& b) const {
    if (popcount(a.mask) != popcount(b.mask)) return false;
    if (same_kind && popcount(a.mask) == 5 && a.kind != b.kind) return false;
    return a.power > b.power || (play_equal && a.power == b.power);
  }
};

// A hand's plays in groups by size (index 1..5), each sorted by (power, mask):
// the order of the Python engine's HandPlays groups.
struct HandPlays {
  std::array<std::vector<Play>, 6> groups;
  void clear() { for (auto& g : groups) g.clear(); }
};

// Every play of *hand* under *t*.
BIG2_HOT inline void generate(const Tables& t, Mask hand, HandPlays& out) {
  out.clear();
  auto& g1 = out.groups[1]; auto& g2 = out.groups[2]; auto& g3 = out.groups[3];
  auto& g4 = out.groups[4]; auto& g5 = out.groups[5];
  // pairs, triples and quads found on the way (triples and pairs feed the full houses)
  Play pairs[78]; int np = 0;
  Play trips[52]; int nt = 0;
  Play quads[13]; int nq = 0;
  unsigned nibs[13]; unsigned rmask = 0;
  for (int r = 0; r < 13; ++r) {
    unsigned nb = nibs[r] = nib(hand, r);
    if (!nb) continue;
    rmask |= 1u << r;
    // every non-empty subset of the rank's suits, by size
    for (unsigned sub = nb; sub; sub = (sub - 1) & nb) {
      Play p; p.mask = Mask(sub) << (4 * r); p.power = t.sub_power[r][sub];
      switch (popcount(sub)) {
        case 1: p.kind = SINGLE; g1.push_back(p); break;
        case 2: p.kind = PAIR; pairs[np++] = p; break;
        case 3: p.kind = TRIPLE; trips[nt++] = p; break;
        case 4: p.kind = FOUR_OF_A_KIND; quads[nq++] = p; break;
      }
    }
  }
  g2.assign(pairs, pairs + np);
  if (t.triples) g3.assign(trips, trips + nt);
  if (t.four_alone) g4.assign(quads, quads + nq);
  if (t.two_pairs) {
    for (int i = 0; i < np; ++i)
      for (int j = 0; j < np; ++j) {
        int ri = lowbit(pairs[i].mask) >> 2, rj = lowbit(pairs[j].mask) >> 2;
        if (ri > rj) {  // keyed by the higher pair
          Play p; p.mask = pairs[i].mask | pairs[j].mask; p.power = pairs[i].power;
          p.kind = TWO_PAIRS; g4.push_back(p);
        }
      }
  }
  if (popcount(hand) >= 5) {
    // straights and straight flushes: one card of each rank of each sequence
    for (int i = 0; i < t.n_straights; ++i) {
      unsigned sm = t.straight_mask[i];
      if ((rmask & sm) != sm) continue;
      int rk[5]; int k = 0;
      for (unsigned x = sm; x; x &= x - 1) rk[k++] = __builtin_ctz(x);
      int dec = t.straight_decide[i];
      for (unsigned a = nibs[rk[0]]; a; a &= a - 1)
        for (unsigned b = nibs[rk[1]]; b; b &= b - 1)
          for (unsigned c = nibs[rk[2]]; c; c &= c - 1)
            for (unsigned d = nibs[rk[3]]; d; d &= d - 1)
              for (unsigned e = nibs[rk[4]]; e; e &= e - 1) {
                unsigned sa = __builtin_ctz(a), sb = __builtin_ctz(b), sc = __builtin_ctz(c),
                         sd = __builtin_ctz(d), se = __builtin_ctz(e);
                Play p;
                p.mask = Mask(1) << (4 * rk[0] + sa) | Mask(1) << (4 * rk[1] + sb) |
                         Mask(1) << (4 * rk[2] + sc) | Mask(1) << (4 * rk[3] + sd) |
                         Mask(1) << (4 * rk[4] + se);
                bool flush = sa == sb && sb == sc && sc == sd && sd == se;
                p.kind = flush ? STRAIGHT_FLUSH : STRAIGHT;
                int suit = lowbit(nib(p.mask, dec));
                p.power = t.top_card ? t.top_of(p.mask) : t.straight_power[flush][i][suit];
                g5.push_back(p);
              }
    }
    // flushes: five ranks of one suit that are not a straight
    for (int s = 0; s < 4; ++s) {
      unsigned ranks = 0;
      for (int r = 0; r < 13; ++r) if (nibs[r] >> s & 1) ranks |= 1u << r;
      if (__builtin_popcount(ranks) < 5) continue;
      int rl[13]; int k = 0;
      for (unsigned x = ranks; x; x &= x - 1) rl[k++] = __builtin_ctz(x);
      for (int a = 0; a < k; ++a)
        for (int b = a + 1; b < k; ++b)
          for (int c = b + 1; c < k; ++c)
            for (int d = c + 1; d < k; ++d)
              for (int e = d + 1; e < k; ++e) {
                unsigned rm = 1u << rl[a] | 1u << rl[b] | 1u << rl[c] | 1u << rl[d] | 1u << rl[e];
                if (t.straight_index(rm) >= 0) continue;
                Play p; p.kind = FLUSH;
                p.mask = Mask(1) << (4 * rl[a] + s) | Mask(1) << (4 * rl[b] + s) |
                         Mask(1) << (4 * rl[c] + s) | Mask(1) << (4 * rl[d] + s) |
                         Mask(1) << (4 * rl[e] + s);
                p.power = t.top_card ? t.top_of(p.mask) : t.flush_power[s * 8192 + rm];
                g5.push_back(p);
              }
    }
    // full houses: a triple and a pair of another rank
    if (np > 1)
      for (int i = 0; i < nt; ++i) {
        int tr = lowbit(trips[i].mask) >> 2;
        for (int j = 0; j < np; ++j) {
          if ((lowbit(pairs[j].mask) >> 2) == tr) continue;
          Play p; p.kind = FULL_HOUSE; p.mask = trips[i].mask | pairs[j].mask;
          p.power = t.top_card ? t.top_of(p.mask) : t.full_house_power[tr];
          g5.push_back(p);
        }
      }
    // three of a kind and two odd cards of different ranks
    if (t.five_trips)
      for (int i = 0; i < nt; ++i) {
        int tr = lowbit(trips[i].mask) >> 2;
        Mask others = hand & ~(Mask(0xF) << (4 * tr));
        for (Mask x = others; x; x &= x - 1)
          for (Mask y = x & (x - 1); y; y &= y - 1) {
            int a = lowbit(x), b = lowbit(y);
            if ((a >> 2) == (b >> 2)) continue;
            Play p; p.kind = FIVE_TRIPS;
            p.mask = trips[i].mask | Mask(1) << a | Mask(1) << b;
            p.power = t.top_card ? t.top_of(p.mask) : t.five_trips_power[tr];
            g5.push_back(p);
          }
      }
    // two pairs (consecutive under "sisters") and any card of a third rank
    if (t.five_two_pairs)
      for (int i = 0; i < np; ++i)
        for (int j = 0; j < np; ++j) {
          int hi = lowbit(pairs[i].mask) >> 2, lo = lowbit(pairs[j].mask) >> 2;
          if (hi <= lo || (t.five_two_pairs == 2 && hi - lo != 1)) continue;
          Mask base = pairs[i].mask | pairs[j].mask;
          Mask rest = hand & ~(Mask(0xF) << (4 * hi)) & ~(Mask(0xF) << (4 * lo));
          for (; rest; rest &= rest - 1) {
            Play p; p.kind = FIVE_TWO_PAIRS; p.mask = base | (rest & -rest);
            p.power = t.top_card ? t.top_of(p.mask) : (t.five_two_pairs_base | pairs[i].power);
            g5.push_back(p);
          }
        }
    // four of a kind and any fifth card
    if (t.four_kicker)
      for (int i = 0; i < nq; ++i) {
        int qr = lowbit(quads[i].mask) >> 2;
        for (Mask rest = hand & ~quads[i].mask; rest; rest &= rest - 1) {
          Play p; p.kind = FOUR_KICKER; p.mask = quads[i].mask | (rest & -rest);
          p.power = t.top_card ? t.top_of(p.mask) : t.four_kicker_power[qr];
          g5.push_back(p);
        }
      }
  }
  for (int s = 1; s <= 5; ++s) std::sort(out.groups[s].begin(), out.groups[s].end());
}

// The plays of *plays* that may follow *last* (no pass), in group order.
template <class F>
inline void for_each_follow(const Tables& t, const HandPlays& plays, const Play& last, F&& f) {
  int size = popcount(last.mask);
  if (size < 1 || size > 5) return;
  const auto& g = plays.groups[size];
  Play key; key.power = last.power; key.mask = t.play_equal ? 0 : ~Mask(0);
  auto it = std::upper_bound(g.begin(), g.end(), key);  // equal power too under play_equal
  bool kind_only = t.same_kind && size == 5;
  for (; it != g.end(); ++it)
    if (!kind_only || it->kind == last.kind) f(*it);
}

// The largest number of disjoint fours of a kind and straight flushes in *hand*.
inline int bombs_held(const Tables& t, Mask hand) {
  int fours = 0;
  for (int r = 0; r < 13; ++r) fours += nib(hand, r) == 15;
  // straight flushes held: (suit, rank set)
  int sf_suit[40]; unsigned sf_ranks[40]; int nsf = 0;
  for (int s = 0; s < 4; ++s) {
    unsigned ranks = 0;
    for (int r = 0; r < 13; ++r) if (hand >> (4 * r + s) & 1) ranks |= 1u << r;
    if (__builtin_popcount(ranks) < 5) continue;
    for (int i = 0; i < t.n_straights; ++i)
      if ((ranks & t.straight_mask[i]) == t.straight_mask[i]) {
        sf_suit[nsf] = s; sf_ranks[nsf] = t.straight_mask[i]; ++nsf;
      }
  }
  if (!nsf) return fours;
  // search: take straight flushes in list order from index i, the fours left count too
  struct Search {
    const int* suit; const unsigned* ranks; int n;
    int best(Mask h, int i) const {
      int top = 0;
      for (int r = 0; r < 13; ++r) top += nib(h, r) == 15;
      for (int j = i; j < n; ++j) {
        Mask m = 0;
        for (unsigned x = ranks[j]; x; x &= x - 1) m |= Mask(1) << (4 * __builtin_ctz(x) + suit[j]);
        if ((h & m) == m) top = std::max(top, 1 + best(h & ~m, j));
      }
      return top;
    }
  };
  return Search{sf_suit, sf_ranks, nsf}.best(hand, 0);
}

}  // namespace big2n
