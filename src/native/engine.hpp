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
  int scoring = CLASSIC;
  bool twos_each = true, count_twos = false;
  int multiplier[kCards + 1] = {};  // classic/penalty points per card by cards left
  int by_strength[kCards] = {};     // cards weakest first
  int per_seat = 13, left_over = 0, spare_to = 0;  // spare_to: 0 lowest, 1 highest, 2 aside
  bool thirteen_each = false;

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

// One deal in progress: hands, the trick, the turn; the plays of each hand kept
// up to date as it plays out (like the Python engine's HandPlays.after).
struct State {
  const Tables* t = nullptr;
  Mask hands[4] = {};
  int n = 4;
  int to_move = -1;                  // -1: the deal is over
  bool has_last = false;
  Play last;
  int last_player = -1;
  unsigned passed = 0;               // a bit per seat that passed since the play to beat
  Mask must = 0;                     // the card the deal's first play must contain
  Mask played[4] = {};               // the cards each seat has played this deal
  int trick_leader = -1;             // who made the current trick's first play
  int finished[4] = {}; int nfinished = 0;
  int64_t scores[4] = {};
  HandPlays plays[4];
  bool plays_ok[4] = {};

  void start(const Tables& tables, const Mask* h, int seat, Mask must_card) {
    t = &tables; n = tables.players;
    for (int i = 0; i < 4; ++i) { hands[i] = i < n ? h[i] : 0; plays_ok[i] = false; scores[i] = 0; }
    to_move = seat; has_last = false; last = Play(); last_player = -1; passed = 0;
    must = must_card; nfinished = 0; trick_leader = -1;
    for (auto& p : played) p = 0;
  }

  const HandPlays& plays_of(int seat) {
    if (!plays_ok[seat]) { generate(*t, hands[seat], plays[seat]); plays_ok[seat] = true; }
    return plays[seat];
  }

  // The legal plays now, in the Python Game's order; 0 is the pass.
  BIG2_HOT void legal(std::vector<Mask>& out) {
    out.clear();
    if (to_move < 0) return;
    const HandPlays& hp = plays_of(to_move);
    if (!has_last) {
      for (int s = 1; s <= 5; ++s)
        for (const Play& p : hp.groups[s]) {
          if (must && (!(p.mask & must) || (t->opening_alone && s != 1))) continue;
          out.push_back(p.mask);
        }
    } else {
      for_each_follow(*t, hp, last, [&](const Play& p) { out.push_back(p.mask); });
    }
    if (has_last || out.empty()) out.push_back(0);
  }

  // Apply a legal play or pass (the caller checked legality).
  BIG2_HOT void apply(Mask m) {
    int seat = to_move;
    if (!m) {
      if (!has_last) { to_move = next_active(seat); return; }  // cannot happen natively
      passed |= 1u << seat;
      if (t->one_pass) end_trick(); else advance(seat);
      return;
    }
    Play p = t->classify(m);
    hands[seat] &= ~m;
    played[seat] |= m;
    if (!has_last) trick_leader = seat;
    if (plays_ok[seat]) {  // drop the plays that used a card just played
      for (int s = 1; s <= 5; ++s) {
        auto& g = plays[seat].groups[s];
        g.erase(std::remove_if(g.begin(), g.end(), [m](const Play& q) { return q.mask & m; }),
                g.end());
      }
    }
    has_last = true; last = p; last_player = seat; must = 0;
    if (t->jump_back) passed = 0;
    if (!hands[seat]) {
      finished[nfinished++] = seat;
      int left = 0;
      for (int i = 0; i < n; ++i) left += hands[i] != 0;
      if (t->scoring != RANKING || left <= 1) { finish(m); return; }
    }
    advance(seat);
  }

  int next_active(int seat) const {
    for (int k = 0; k < n; ++k) { int s = t->after[seat][k]; if (hands[s]) return s; }
    return -1;
  }
  void advance(int seat) {
    for (int k = 0; k < n; ++k) {
      int s = t->after[seat][k];
      if (s != last_player && hands[s] && !(passed >> s & 1)) { to_move = s; return; }
    }
    end_trick();
  }
  void end_trick() {
    int lp = last_player;
    has_last = false; last = Play(); last_player = -1; passed = 0; trick_leader = -1;
    to_move = hands[lp] ? lp : next_active(lp);
  }

  bool winning_play_doubles(Mask last_play) const {
    Play p = t->classify(last_play);
    if ((p.kind == SINGLE || p.kind == PAIR) && !(last_play & ~(Mask(0xF) << 48))) return true;
    return p.kind == FOUR_OF_A_KIND || p.kind == FOUR_KICKER || p.kind == STRAIGHT_FLUSH;
  }

  BIG2_HOT void finish(Mask last_play) {
    to_move = -1;
    int winner = finished[0];
    if (t->scoring == RANKING) {
      // finishing order: those out in order, then the rest by fewest cards, ties in turn order
      int order[4]; int k = 0;
      for (int i = 0; i < nfinished; ++i) order[k++] = finished[i];
      int turn[4]; turn[0] = winner;
      for (int i = 1; i < n; ++i) turn[i] = t->after[winner][i - 1];
      int rest[4]; int nr = 0;
      for (int i = 0; i < n; ++i) {
        bool out = false;
        for (int j = 0; j < nfinished; ++j) out |= finished[j] == turn[i];
        if (!out) rest[nr++] = turn[i];
      }
      std::stable_sort(rest, rest + nr, [&](int a, int b) {
        return popcount(hands[a]) < popcount(hands[b]);
      });
      for (int i = 0; i < nr; ++i) order[k++] = rest[i];
      for (int i = 0; i < n; ++i) scores[order[i]] = n - 1 - i;
      return;
    }
    int64_t pay[4] = {};
    bool classic = t->scoring == CLASSIC;
    bool double_all = classic && winning_play_doubles(last_play);
    int64_t total = 0;
    for (int s = 0; s < n; ++s) {
      if (s == winner) continue;
      Mask h = hands[s];
      int left = popcount(h);
      int twos = popcount(h & (Mask(0xF) << 48));
      int64_t figure;
      if (t->scoring == COUNT) {
        figure = left + (t->count_twos ? twos : 0);
      } else {
        figure = int64_t(left) * t->multiplier[left];
        if (classic) {
          int d = (t->twos_each ? twos : std::min(twos, 1)) + bombs_held(*t, h) + double_all;
          figure <<= d;
        }
      }
      pay[s] = figure; total += figure;
    }
    for (int s = 0; s < n; ++s) {
      if (t->scoring == PENALTY) scores[s] = -pay[s];
      else scores[s] = s == winner ? total : -pay[s];
    }
  }
};

// xoshiro256** seeded by splitmix64: the native loop's random stream.
struct Rng {
  uint64_t s[4];
  explicit Rng(uint64_t seed) {
    for (auto& x : s) {
      seed += 0x9E3779B97F4A7C15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      x = z ^ (z >> 31);
    }
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
  }
  uint32_t below(uint32_t n) { return uint32_t((next() >> 32) * uint64_t(n) >> 32); }
};

// Shuffle and deal from the seat left of *dealer*, the spare card as the
// rules say (big2.variant.deck.Deck.shuffle_deal, with this file's stream);
// returns the opening seat and the card its first play must contain.
// Who leads dealt *hands* and the card the lead must hold: the lowest dealt
// card, its holder (ties in the dealing order from *dealer*'s left).
inline void leader_of(const Tables& t, int dealer, const Mask* hands, int& seat, Mask& must) {
  int n = t.players;
  const int* order = t.after[dealer];
  Mask dealt = 0;
  for (int i = 0; i < n; ++i) dealt |= hands[i];
  must = 0;
  for (int i = 0; i < kCards; ++i) if (dealt >> t.by_strength[i] & 1) { must = Mask(1) << t.by_strength[i]; break; }
  seat = 0;
  for (int i = 0; i < n; ++i) if (hands[order[i]] & must) { seat = order[i]; break; }
}

inline void deal(const Tables& t, Rng& rng, int dealer, Mask* hands, int& seat, Mask& must) {
  int deck[kCards];
  for (int i = 0; i < kCards; ++i) deck[i] = i;
  for (int i = kCards - 1; i > 0; --i) std::swap(deck[i], deck[rng.below(i + 1)]);
  int n = t.players, per = t.per_seat;
  const int* order = t.after[dealer];
  for (int i = 0; i < 4; ++i) hands[i] = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < per * n; j += n) hands[order[i]] |= Mask(1) << deck[j];
  Mask dealt = 0;
  for (int i = 0; i < n; ++i) dealt |= hands[i];
  if (!t.thirteen_each && t.left_over && t.spare_to != 2) {
    int card = -1;
    if (t.spare_to == 0) { for (int i = 0; i < kCards && card < 0; ++i) if (dealt >> t.by_strength[i] & 1) card = t.by_strength[i]; }
    else { for (int i = kCards - 1; i >= 0 && card < 0; --i) if (dealt >> t.by_strength[i] & 1) card = t.by_strength[i]; }
    int holder = 0;
    for (int i = 0; i < n; ++i) if (hands[order[i]] >> card & 1) { holder = order[i]; break; }
    for (int j = per * n; j < kCards; ++j) hands[holder] |= Mask(1) << deck[j];
    for (int i = 0; i < n; ++i) dealt |= hands[i];
  }
  leader_of(t, dealer, hands, seat, must);
}

// Random legal play inside the core: *deals* deals, uniform over the legal plays.
struct LoopCount { uint64_t steps = 0, deals = 0; int64_t score_sum = 0; };
BIG2_HOT inline LoopCount random_deals(const Tables& t, uint64_t deals, uint64_t seed) {
  Rng rng(seed);
  State st;
  std::vector<Mask> legal;
  legal.reserve(512);
  LoopCount c;
  for (uint64_t d = 0; d < deals; ++d) {
    Mask hands[4]; int seat; Mask must;
    deal(t, rng, int(d % t.players), hands, seat, must);
    st.start(t, hands, seat, must);
    while (st.to_move >= 0) {
      st.legal(legal);
      st.apply(legal[rng.below(uint32_t(legal.size()))]);
      ++c.steps;
    }
    c.score_sum += st.scores[0];
    ++c.deals;
  }
  return c;
}

// The observation of the seat to move, as big2.observation encodes it (635 int8
// entries; the layout's offsets come from Python, see Batch.observe_into), for
// rule sets without a Go-Fish stock. *spare*: the card lying face up, or 0.
struct ObsLayout {
  int hand, played, count, passed, last_play, last_kind, last_player, leading, trick_leader,
      to_move, must_contain, players, spare, stock, size, count_width;
};

inline void put_cards(int8_t* out, Mask m) {
  for (; m; m &= m - 1) out[lowbit(m)] = 1;
}

// The observation of seat *seat* (default: the seat to move; a finished deal's
// seat that acted last, for the final observation a vector env hands back).
BIG2_HOT inline void observe(const State& g, const ObsLayout& o, Mask spare, int8_t* out,
                    int seat = -1) {
  std::fill(out, out + o.size, int8_t(0));
  int n = g.n, me = seat >= 0 ? seat : g.to_move;
  if (me < 0) return;  // the deal is over: nothing to observe (the batch deals again)
  put_cards(out + o.hand, g.hands[me]);
  for (int k = 0; k < n; ++k) {
    int s = (me + k) % n;
    put_cards(out + o.played + 52 * k, g.played[s]);
    out[o.count + o.count_width * k + popcount(g.hands[s])] = 1;
    out[o.passed + k] = (g.passed >> s) & 1;
  }
  if (g.has_last) {
    put_cards(out + o.last_play, g.last.mask);
    out[o.last_kind + g.last.kind - 1] = 1;
    out[o.last_player + (g.last_player - me + n) % n] = 1;
  } else {
    out[o.leading] = 1;
  }
  if (g.trick_leader >= 0) out[o.trick_leader + (g.trick_leader - me + n) % n] = 1;
  out[o.to_move] = g.to_move == me;
  put_cards(out + o.must_contain, g.must);
  out[o.players + n - 2] = 1;
  put_cards(out + o.spare, spare);
  out[o.stock] = 1;  // no stock: the one-hot of 0
}

// N deals of one rule set stepped together, for batched callers (the vector
// environment): each game keeps its own random stream, so results do not depend
// on how the games are split over threads.  A finished deal's scores are kept
// for the caller and a new deal starts at once (auto-reset).
struct Batch {
  const Tables* t = nullptr;
  std::vector<State> games;
  std::vector<Rng> rngs;
  std::vector<std::vector<Mask>> legal;
  std::vector<int> dealer;
  std::vector<Mask> spare;          // per game: the card lying face up (spare_to=aside), or 0
  // per game, the current deal as played so far: its dealt hands, its dealer, and every
  // play and pass (0) in order, so that Python can rebuild the deal as a Game
  std::vector<std::array<Mask, 4>> dealt;
  std::vector<int> deal_dealer;
  std::vector<std::vector<Mask>> plays;

  // Game i's stream is seeded by seed * golden + first + i: game *first + i* of one
  // batch of all the games, so a share of them (a worker's) deals what it would in one.
  void init(const Tables& tables, size_t n, uint64_t seed, uint64_t first = 0) {
    t = &tables;
    games.assign(n, State());
    rngs.clear();
    for (size_t i = 0; i < n; ++i) rngs.emplace_back(seed * 0x9E3779B97F4A7C15ULL + first + i);
    legal.assign(n, {});
    dealer.assign(n, 0);
    spare.assign(n, 0);
    dealt.assign(n, {0, 0, 0, 0});
    deal_dealer.assign(n, 0);
    plays.assign(n, {});
    for (size_t i = 0; i < n; ++i) reset(i);
  }
  void reset(size_t i) {
    Mask hands[4]; int seat; Mask must;
    deal(*t, rngs[i], dealer[i], hands, seat, must);
    begin(i, hands, seat, must);
  }
  // Game i starts a deal of the given hands (the caller checked them).
  void deal_hands(size_t i, const Mask* given) {
    Mask hands[4] = {0, 0, 0, 0}; int seat; Mask must;
    for (int s = 0; s < t->players; ++s) hands[s] = given[s];
    leader_of(*t, dealer[i], hands, seat, must);
    begin(i, hands, seat, must);
  }
  void begin(size_t i, Mask* hands, int seat, Mask must) {
    Mask dealt = 0;
    for (int s = 0; s < t->players; ++s) dealt |= hands[s];
    spare[i] = (t->spare_to == 2 && !t->thirteen_each && t->left_over) ? kDeck & ~dealt : 0;
    for (int s = 0; s < 4; ++s) this->dealt[i][s] = s < t->players ? hands[s] : 0;
    deal_dealer[i] = dealer[i];
    plays[i].clear();
    games[i].start(*t, hands, seat, must);
    games[i].legal(legal[i]);
  }
  // Game i plays its legal play number *choice*; on the deal's end its scores go
  // to *scores* (players values), *done* is set and a new deal starts.
  // With *final*, a finished deal's last observation by the seat that acted is
  // written there (layout *o*) before the next deal.
  BIG2_HOT void step(size_t i, size_t choice, int64_t* scores, bool* done,
            const ObsLayout* o = nullptr, int8_t* final = nullptr) {
    State& g = games[i];
    int actor = g.to_move;
    plays[i].push_back(legal[i][choice]);
    g.apply(legal[i][choice]);
    *done = g.to_move < 0;
    if (*done) {
      if (final) observe(g, *o, spare[i], final, actor);
      for (int s = 0; s < t->players; ++s) scores[s] = g.scores[s];
      dealer[i] = (dealer[i] + 1) % t->players;
      reset(i);
    } else {
      for (int s = 0; s < t->players; ++s) scores[s] = 0;
      g.legal(legal[i]);
    }
  }
};

}  // namespace big2n
