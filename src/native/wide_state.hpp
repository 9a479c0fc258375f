// One deal of the wide core in progress (engine_extended.hpp: two decks and 2-8 players,
// jokers valueless or wild): big2n::State's sequencing with up to eight seats, and the
// scoring of big2.variant.scorer on 128-bit masks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "deal.hpp"
#include "engine_extended.hpp"

namespace big2w {

// The largest number of disjoint fours of a kind and straight flushes in *hand*
// (copies are distinct cards): big2.variant.scorer.Scorer.bombs_held.
inline int bombs_held(const WideTables& t, WMask hand) {
  u64 a = first(hand), b = second(hand), names = a | b;
  int counts[52];
  for (int c = 0; c < 52; ++c) counts[c] = int(a >> c & 1) + int(b >> c & 1);
  auto count_fours = [](const int* c) {
    int f = 0;
    for (int r = 0; r < 13; ++r) f += (c[4 * r] + c[4 * r + 1] + c[4 * r + 2] + c[4 * r + 3]) / 4;
    return f;
  };
  int sf_suit[64]; unsigned sf_ranks[64]; int nsf = 0;
  if (popcount(names) >= 5)
    for (int s = 0; s < 4; ++s) {
      unsigned ranks = 0;
      for (int r = 0; r < 13; ++r) if (names >> (4 * r + s) & 1) ranks |= 1u << r;
      if (__builtin_popcount(ranks) < 5) continue;
      for (int i = 0; i < t.base.n_straights && nsf < 64; ++i)
        if ((ranks & t.base.straight_mask[i]) == t.base.straight_mask[i]) {
          sf_suit[nsf] = s; sf_ranks[nsf] = t.base.straight_mask[i]; ++nsf;
        }
    }
  if (!nsf) return count_fours(counts);
  struct Search {
    int* counts; const int* suit; const unsigned* ranks; int n;
    int (*fours)(const int*);
    int best(int i) {
      int top = fours(counts);
      for (int j = i; j < n; ++j) {
        bool all = true;
        for (unsigned x = ranks[j]; x; x &= x - 1) all &= counts[4 * __builtin_ctz(x) + suit[j]] > 0;
        if (!all) continue;
        for (unsigned x = ranks[j]; x; x &= x - 1) --counts[4 * __builtin_ctz(x) + suit[j]];
        top = std::max(top, 1 + best(j));
        for (unsigned x = ranks[j]; x; x &= x - 1) ++counts[4 * __builtin_ctz(x) + suit[j]];
      }
      return top;
    }
  };
  Search s{counts, sf_suit, sf_ranks, nsf, +count_fours};
  return s.best(0);
}

// One deal of the wide core in progress (big2n::State's sequencing, up to eight seats):
// after a seat plays, one deck drops the plays that used a played card, two decks list
// the hand again (a play's copies may move to the other deck's).
struct WideState {
  using Mask = WMask;
  const WideTables* t = nullptr;
  WMask hands[kSeats] = {};
  int n = 4;
  int to_move = -1;
  bool has_last = false;
  WPlay last;
  int last_player = -1;
  unsigned passed = 0;
  WMask must = 0;
  WMask played[kSeats] = {};
  int trick_leader = -1;
  int lead_passes = 0;  // as big2n::State's (finish restrictions)
  bool waive = false;
  int finished[kSeats] = {}; int nfinished = 0;
  int64_t scores[kSeats] = {};
  WideHandPlays plays[kSeats];
  bool plays_ok[kSeats] = {};
  std::vector<WPlay> legal_plays;  // the listed plays now (the pass: mask 0)

  void start(const WideTables& tables, const WMask* h, int seat, WMask must_card) {
    t = &tables; n = tables.players;
    for (int i = 0; i < kSeats; ++i) { hands[i] = i < n ? h[i] : 0; plays_ok[i] = false; scores[i] = 0; played[i] = 0; }
    to_move = seat; has_last = false; last = WPlay(); last_player = -1; passed = 0;
    must = must_card; nfinished = 0; trick_leader = -1; lead_passes = 0; waive = false;
  }

  const WideHandPlays& plays_of(int seat) {
    if (!plays_ok[seat]) { generate(*t, hands[seat], plays[seat]); plays_ok[seat] = true; }
    return plays[seat];
  }

  BIG2_HOT void legal(std::vector<WMask>& out) {
    out.clear(); legal_plays.clear();
    if (to_move < 0) return;
    const WideHandPlays& hp = plays_of(to_move);
    if (!has_last) {
      for (int s = 1; s <= 5; ++s)
        for (const WPlay& p : hp.groups[s]) {
          if (must && (!(p.mask & must) || (t->base.opening_alone && s != 1))) continue;
          legal_plays.push_back(p);
        }
    } else {
      for_each_follow(*t, hp, last, [&](const WPlay& p) { legal_plays.push_back(p); });
    }
    if (has_last || legal_plays.empty()) legal_plays.push_back(WPlay());
    if (t->base.finish_barred)
      big2n::Turns::drop_barred_finish(*this, legal_plays, [&](WMask m) {
        u64 a = first(m), b = second(m);
        return t->base.barred(wpop(m), popcount(a >> 48) + popcount(b >> 48),
                              ((a | b) >> 51) & 1);
      });
    for (const WPlay& p : legal_plays) out.push_back(p.mask);
  }

  // Apply *p*, a play classified under these tables (or the pass, mask 0).
  BIG2_HOT void apply(const WPlay& p) {
    int seat = to_move;
    WMask m = p.mask;
    if (!m) {
      if (!has_last) { big2n::Turns::pass_lead(*this, seat); return; }  // finish restrictions
      passed |= 1u << seat;
      if (t->base.one_pass) end_trick(); else advance(seat);
      return;
    }
    hands[seat] &= ~m;
    played[seat] |= m;
    if (t->one_deck && plays_ok[seat]) {  // one deck: the plays that used no played card stay
      for (auto& g : plays[seat].groups)
        g.erase(std::remove_if(g.begin(), g.end(), [m](const WPlay& q) { return (q.mask & m) != 0; }),
                g.end());
    } else {
      plays_ok[seat] = false;  // two decks: copies may move, the plays are listed again
    }
    if (!has_last) trick_leader = seat;
    has_last = true; last = p; last_player = seat; must = 0; lead_passes = 0; waive = false;
    if (t->base.jump_back) passed = 0;
    if (!hands[seat]) {
      finished[nfinished++] = seat;
      int left = 0;
      for (int i = 0; i < n; ++i) left += hands[i] != 0;
      if (t->base.scoring != big2n::RANKING || left <= 1) { finish(); return; }
    }
    advance(seat);
  }

  int next_active(int seat) const { return big2n::Turns::next_active(*this, seat); }
  void advance(int seat) { big2n::Turns::advance(*this, seat); }
  void end_trick() { big2n::Turns::end_trick(*this); }

  static int twos(WMask h) { return popcount(first(h) >> 48) + popcount(second(h) >> 48); }

  void finish() {
    to_move = -1;
    int winner = finished[0];
    if (t->base.scoring == big2n::RANKING) {
      int order[kSeats]; int k = 0;
      for (int i = 0; i < nfinished; ++i) order[k++] = finished[i];
      int turn[kSeats]; turn[0] = winner;
      for (int i = 1; i < n; ++i) turn[i] = t->after[winner][i - 1];
      int rest[kSeats]; int nr = 0;
      for (int i = 0; i < n; ++i) {
        bool out = false;
        for (int j = 0; j < nfinished; ++j) out |= finished[j] == turn[i];
        if (!out) rest[nr++] = turn[i];
      }
      std::stable_sort(rest, rest + nr, [&](int x, int y) { return wpop(hands[x]) < wpop(hands[y]); });
      for (int i = 0; i < nr; ++i) order[k++] = rest[i];
      for (int i = 0; i < n; ++i) scores[order[i]] = n - 1 - i;
      return;
    }
    int64_t pay[kSeats] = {};
    bool classic = t->base.scoring == big2n::CLASSIC;
    bool twos_only = !(last.names & ~(u64(0xF) << 48));
    // the winning play's kind is its strongest reading's (Scorer.winning_play_doubles)
    int lk = t->wk.on ? t->classify(last.mask).kind : last.kind;
    bool double_all = classic && (((lk == big2n::SINGLE || lk == big2n::PAIR) && twos_only) ||
                                  lk == big2n::FOUR_OF_A_KIND || lk == big2n::FOUR_KICKER ||
                                  lk == kFiveOfAKind || lk == big2n::STRAIGHT_FLUSH);
    int64_t total = 0;
    for (int s = 0; s < n; ++s) {
      if (s == winner) continue;
      WMask h = hands[s];
      int left = wpop(h), tw = twos(h);
      int64_t figure;
      if (t->base.scoring == big2n::COUNT) {
        figure = left + (t->base.count_twos ? tw : 0);
      } else {
        figure = int64_t(left) * t->multiplier[left];
        if (classic) {
          int d = (t->base.twos_each ? tw : std::min(tw, 1)) + bombs_held(*t, h) + double_all;
          figure <<= d;
        }
      }
      pay[s] = figure; total += figure;
    }
    for (int s = 0; s < n; ++s) {
      if (t->base.scoring == big2n::PENALTY) scores[s] = -pay[s];
      else scores[s] = s == winner ? total : -pay[s];
    }
  }
};

}  // namespace big2w
