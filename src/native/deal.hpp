// A deal of the compiled core in progress (State: turn, trick, passes, finishing
// order and scores on engine.hpp's plays), its random stream and deal (Rng, deal,
// leader_of) and the core's own loop of random deals; the turn bookkeeping is shared
// with the wide core's deal (wide_state.hpp) through the templates of Turns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine.hpp"

namespace big2n {

// The turn bookkeeping of a deal, for State and big2w::WideState alike (each has
// t->after, n, hands, to_move, has_last, last, last_player, passed, trick_leader):
// who moves after *seat* holding cards, who answers the play to beat, a trick's end.
struct Turns {
  // The first seat after *seat* that still holds cards, or -1.
  template <class S>
  static int next_active(const S& g, int seat) {
    for (int k = 0; k < g.n; ++k) { int s = g.t->after[seat][k]; if (g.hands[s]) return s; }
    return -1;
  }
  // The next seat after *seat* that may answer the play to beat; the trick ends if none.
  template <class S>
  static void advance(S& g, int seat) {
    for (int k = 0; k < g.n; ++k) {
      int s = g.t->after[seat][k];
      if (s != g.last_player && g.hands[s] && !(g.passed >> s & 1)) { g.to_move = s; return; }
    }
    end_trick(g);
  }
  // Finish restrictions: drop the mover's whole hand from *legal* (its masks, or plays
  // with a .mask) when going out with it is barred and not waived; a leader left with no
  // play may pass (FinishRestrictions.filter_legal).  *barred*: the tables' test of a mask.
  template <class S, class L, class Barred>
  static void drop_barred_finish(const S& g, L& legal, Barred&& barred) {
    if (g.waive || g.to_move < 0) return;
    auto hand = g.hands[g.to_move];
    for (auto it = legal.begin(); it != legal.end(); ++it)
      if (mask_of(*it) == hand) {
        if (barred(hand)) {
          legal.erase(it);
          if (legal.empty()) legal.push_back(typename L::value_type());
        }
        return;
      }
  }
  // A leader with no legal play passes: the lead goes on, and once every seat holding
  // cards has passed it the restriction is waived until the next play.
  template <class S>
  static void pass_lead(S& g, int seat) {
    int holding = 0;
    for (int i = 0; i < g.n; ++i) holding += g.hands[i] != 0;
    if (++g.lead_passes >= holding) g.waive = true;
    g.to_move = next_active(g, seat);
  }
  template <class P>
  static auto mask_of(const P& p) -> decltype(p.mask) { return p.mask; }
  static Mask mask_of(Mask m) { return m; }

  // The trick ends: its last player leads, or the next seat holding cards.
  template <class S>
  static void end_trick(S& g) {
    int lp = g.last_player;
    g.has_last = false; g.last = decltype(g.last)(); g.last_player = -1; g.passed = 0;
    g.trick_leader = -1;
    g.to_move = g.hands[lp] ? lp : next_active(g, lp);
  }
};

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
  int lead_passes = 0;               // leaders in a row with no legal play (finish restrictions)
  bool waive = false;                // every seat passed the lead: the restriction is waived
  int finished[4] = {}; int nfinished = 0;
  int64_t scores[4] = {};
  HandPlays plays[4];
  bool plays_ok[4] = {};

  void start(const Tables& tables, const Mask* h, int seat, Mask must_card) {
    t = &tables; n = tables.players;
    for (int i = 0; i < 4; ++i) { hands[i] = i < n ? h[i] : 0; plays_ok[i] = false; scores[i] = 0; }
    to_move = seat; has_last = false; last = Play(); last_player = -1; passed = 0;
    must = must_card; nfinished = 0; trick_leader = -1; lead_passes = 0; waive = false;
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
    if (t->finish_barred)
      Turns::drop_barred_finish(*this, out, [&](Mask m) {
        return t->barred(popcount(m), popcount(m & (Mask(0xF) << 48)), (m >> 51) & 1);
      });
  }

  // Apply a legal play or pass (the caller checked legality).
  BIG2_HOT void apply(Mask m) {
    int seat = to_move;
    if (!m) {
      if (!has_last) { Turns::pass_lead(*this, seat); return; }  // finish restrictions
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
    has_last = true; last = p; last_player = seat; must = 0; lead_passes = 0; waive = false;
    if (t->jump_back) passed = 0;
    if (!hands[seat]) {
      finished[nfinished++] = seat;
      int left = 0;
      for (int i = 0; i < n; ++i) left += hands[i] != 0;
      if (t->scoring != RANKING || left <= 1) { finish(m); return; }
    }
    advance(seat);
  }

  int next_active(int seat) const { return Turns::next_active(*this, seat); }
  void advance(int seat) { Turns::advance(*this, seat); }
  void end_trick() { Turns::end_trick(*this); }

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

}  // namespace big2n
