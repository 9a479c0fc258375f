// The heuristic bot's decision in the core: big2.bots.rules_based.planning.heuristic_play
// with big2.bots.rules_based.control (beaten_by_unseen, unbeatable, _Sure, way_out), and
// the searches' play-out (big2.bots.search.evaluators.rollout, greedy_play) on a deal
// State.  Each function follows its Python original line for line, orderings
// and first-wins ties included: the Python code is the reference and the tests
// compare the two on many positions (tests/bots/test_native_heuristic.py).
#pragma once

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "heuristic_plan.hpp"

namespace big2h {

constexpr int kFew = 20;         // control._FEW
constexpr int kWayNodes = 300;   // control._MAX_NODES

// Whether some play of *hand* may follow *last* (eng.follows(hand, last) is not empty).
inline bool any_follow(const Tables& t, Mask hand, const Play& last) {
  thread_local HandPlays hp;
  big2n::generate(t, hand, hp);
  bool found = false;
  big2n::for_each_follow(t, hp, last, [&](const Play&) { found = true; });
  return found;
}

// control._top_single
inline int top_single(const Config& c, Mask m) {
  if (!m) return -1;
  int r = top_rank(m);
  if (!c.suited) return r * 4;
  return r * 4 + c.top_pos[nib(m, r)];
}

// control.beaten_by_unseen
BIG2_HOT inline bool beaten_by_unseen(const Config& c, Mask m, Mask unseen) {
  Play combo = c.t().classify(m);
  if (!combo.kind) return true;
  int size = popcount(m);
  if (size == 1) return top_single(c, unseen) > top_single(c, m);
  if (size == 2 || size == 3) {
    int r0 = top_rank(m);
    for (int r = 12; r >= r0; --r) {
      unsigned nb = nib(unseen, r);
      if (popcount(nb) < size) continue;
      if (r > r0) return true;
      if (size == 2 && c.suited) return c.top_pos[nb] > c.top_pos[nib(m, r0)];
      return false;
    }
    return false;
  }
  if (combo.kind == big2n::STRAIGHT_FLUSH && !(c.same_kind || c.top_card))
    return popcount(unseen) <= 20 ? any_follow(c.t(), unseen, combo) : true;
  if (popcount(unseen) <= 16) return any_follow(c.t(), unseen, combo);
  return true;
}

// control._bomb_material (no smack-downs natively)
inline bool bomb_material(Mask unseen) {
  for (int r = 0; r < 13; ++r) if (nib(unseen, r) == 15) return true;
  for (int s = 0; s < 4; ++s) if (popcount(unseen & suit_bits(s)) >= 5) return true;
  return false;
}

// control._four_beaten
inline bool four_beaten(const Config& c, const Play& combo, Mask unseen) {
  bool any_four = false;
  if (combo.kind == big2n::FOUR_OF_A_KIND) {
    int mine = top_rank(combo.mask);
    for (int r = mine + 1; r < 13; ++r) if (nib(unseen, r) == 15) return true;
    return false;
  }
  for (int r = 0; r < 13; ++r) any_four |= nib(unseen, r) == 15;
  if (any_four && c.four_alone) return true;
  int pairs = 0; int64_t best = -1;
  for (int r = 0; r < 13; ++r) {
    unsigned nb = nib(unseen, r);
    if (popcount(nb) < 2) continue;
    if (pairs++ >= 1) best = std::max<int64_t>(best, c.card_key(r, c.top_pos[nb]));
  }
  if (pairs < 2) return false;
  return best > combo.power;
}

// control.unbeatable
BIG2_HOT inline bool unbeatable(const Config& c, const Play& combo, Mask unseen, int opp_max) {
  int size = popcount(combo.mask);
  int need = c.plain ? size : std::min(size, 4);
  if (opp_max < need || !unseen) return true;
  int kind = combo.kind;
  bool direct = kind == big2n::SINGLE || kind == big2n::PAIR || kind == big2n::TRIPLE ||
                kind == big2n::TWO_PAIRS || kind == big2n::FOUR_OF_A_KIND;
  if (direct && (c.plain || !(c.play_equal || bomb_material(unseen)))) {
    if (kind == big2n::TWO_PAIRS || kind == big2n::FOUR_OF_A_KIND)
      return !four_beaten(c, combo, unseen);
    return !beaten_by_unseen(c, combo.mask, unseen);
  }
  if (popcount(unseen) <= kFew) return !any_follow(c.t(), unseen, combo);
  return false;
}

// control._Sure: unbeatable for many plays against one set of unseen cards.
struct Sure {
  const Config& c;
  Mask unseen;
  int opp_max;
  bool big, simple;
  int best[4] = {-1, -1, -1, -1};
  bool groups = false;
  std::unordered_map<Mask, bool> memo;

  Sure(const Config& cfg, Mask u, int om) : c(cfg), unseen(u), opp_max(om) {
    big = opp_max < (c.plain ? 5 : 4) || popcount(unseen) <= kFew;
    simple = c.plain || !(c.play_equal || bomb_material(unseen));
    best[1] = top_single(c, unseen);
  }
  void make_groups() {
    int pair = -1, triple = -1;
    for (int r = 0; r < 13; ++r) {
      unsigned nb = nib(unseen, r);
      int n = popcount(nb);
      if (n >= 2) {
        pair = std::max(pair, c.card_key(r, c.top_pos[nb]));
        if (n >= 3) triple = r;
      }
    }
    best[2] = pair; best[3] = triple; groups = true;
  }
  BIG2_HOT bool operator()(Mask m) {
    auto it = memo.find(m);
    if (it != memo.end()) return it->second;
    bool got;
    int n = popcount(m);
    int r = top_rank(m);
    if (opp_max < (c.plain ? n : std::min(n, 4))) {
      got = true;
    } else if (n <= 3 && simple && !(m & ~rank_bits(r))) {
      int key;
      if (n == 3) {
        key = r;
      } else {
        key = c.card_key(r, c.top_pos[nib(m, r)]);
        if (n == 1 && !c.suited) key = r * 4;
      }
      if (n > 1 && !groups) make_groups();
      got = key >= best[n];
    } else {
      Play combo = c.t().classify(m);
      got = combo.kind && unbeatable(c, combo, unseen, opp_max);
    }
    memo[m] = got;
    return got;
  }
};

// control.way_out: the first play of a run of sure plays and a last play, or 0.
BIG2_HOT inline Mask way_out(const Config& c, Mask hand, const HandPlays& hp, const std::vector<Mask>& plays,
                    Mask unseen, int opp_max) {
  Sure sure_play(c, unseen, opp_max);
  if (plays.size() <= 16) {
    bool any = false;
    for (Mask p : plays) if (p != hand && sure_play(p)) { any = true; break; }
    if (!any) return 0;
  }
  std::vector<Mask> sure;
  if (sure_play.big) {
    for (int s = 1; s <= 5; ++s) for (const Play& p : hp.groups[s]) if (sure_play(p.mask)) sure.push_back(p.mask);
  } else {
    for (int s = 1; s <= 4; ++s) for (const Play& p : hp.groups[s]) if (sure_play(p.mask)) sure.push_back(p.mask);
  }
  if (sure.empty()) return 0;
  Mask covered = 0;
  for (Mask m : sure) covered |= m;
  Mask free = hand & ~covered;
  if (free) {
    bool fits = false;
    if (popcount(free) <= c.longest)
      for (int s = 1; s <= 5 && !fits; ++s)
        for (const Play& p : hp.groups[s]) if ((p.mask & free) == free) { fits = true; break; }
    if (!fits) return 0;
  }
  std::stable_sort(sure.begin(), sure.end(), [](Mask a, Mask b) { return popcount(a) > popcount(b); });
  std::unordered_map<Mask, bool> memo;
  int budget = kWayNodes;
  const Tables& t = c.t();
  // finishes(rest): whether rest, on a free lead, plays out
  struct Rec {
    const Config& c; const Tables& t; const std::vector<Mask>& sure;
    std::unordered_map<Mask, bool>& memo; int& budget;
    bool operator()(Mask rest) {
      auto it = memo.find(rest);
      if (it != memo.end()) return it->second;
      --budget;
      Play combo = t.classify(rest);
      bool ok = combo.kind && !c.barred(rest);  // every classified native play may lead
      if (!ok && budget > 0) {
        for (Mask u : sure)
          if (!(u & ~rest) && u != rest && (*this)(rest & ~u)) { ok = true; break; }
      }
      memo[rest] = ok;
      return ok;
    }
  } finishes{c, t, sure, memo, budget};
  for (Mask first : sure) {
    if (first != hand && std::find(plays.begin(), plays.end(), first) != plays.end() &&
        finishes(hand & ~first))
      return first;
    if (budget <= 0) break;
  }
  return 0;
}

// planning._lead_key
inline double lead_key(Mask m) {
  static const double bonus[6] = {0.0, 0.0, 0.5, 0.6, 0.7, 1.3};
  int size = popcount(m);
  double top = (highbit(m) >> 2) / 12.0;
  return top - bonus[std::min(size, 5)];
}

inline bool contains(const Mask* v, int n, Mask m) {
  for (int i = 0; i < n; ++i) if (v[i] == m) return true;
  return false;
}

// planning._lead
BIG2_HOT inline Mask lead(Config& c, const Style& st, Mask hand, const Plan& pl, const std::vector<Mask>& plays,
                 int opp_min, Mask unseen) {
  Mask combos[52];
  int nc = plan_combos(c, hand, pl, combos);
  std::vector<Mask> options;
  for (int i = 0; i < nc; ++i)
    if (std::find(plays.begin(), plays.end(), combos[i]) != plays.end()) options.push_back(combos[i]);
  if (options.empty()) {
    std::vector<Mask> cand(plays);
    std::stable_sort(cand.begin(), cand.end(), [](Mask a, Mask b) { return lead_key(a) < lead_key(b); });
    if (cand.size() > 40) cand.resize(40);
    Mask best = 0; double bc = 0, bk = 0; bool have = false;
    for (Mask p : cand) {
      double cost = plan(c, hand & ~p, st.all_kinds).cost, key = lead_key(p);
      if (!have || cost < bc || (cost == bc && key < bk)) { best = p; bc = cost; bk = key; have = true; }
    }
    return best;
  }
  if (nc == 1) return options[0];
  std::vector<Mask> controls;
  for (Mask o : options) if (!beaten_by_unseen(c, o, unseen)) controls.push_back(o);
  int others = 0;
  for (int i = 0; i < nc; ++i)
    if (std::find(controls.begin(), controls.end(), combos[i]) == controls.end()) ++others;
  if (!controls.empty() && others <= 1) {
    Mask best = controls[0];
    for (Mask x : controls) {
      int a = popcount(x), b = popcount(best);
      if (a > b || (a == b && -lead_key(x) > -lead_key(best))) best = x;
    }
    return best;
  }
  std::vector<Mask> pool;
  for (Mask o : options)
    if (std::find(controls.begin(), controls.end(), o) == controls.end() && !(o & rank_bits(kTwo)))
      pool.push_back(o);
  if (pool.empty()) pool = options;
  if (opp_min == 1) {
    std::vector<Mask> multi;
    for (Mask p : pool) if (popcount(p) > 1) multi.push_back(p);
    if (!multi.empty()) {
      pool = multi;
    } else {
      Mask best = options[0];
      for (Mask x : options) {
        bool a = popcount(x) > 1, b = popcount(best) > 1;
        if (a > b || (a == b && highbit(x) > highbit(best))) best = x;
      }
      return best;
    }
  } else if (opp_min == 2) {
    std::vector<Mask> safe;
    for (Mask p : pool) if (popcount(p) != 2) safe.push_back(p);
    if (!safe.empty()) pool = safe;
  }
  Mask best = pool[0];
  for (Mask p : pool) if (lead_key(p) < lead_key(best)) best = p;
  return best;
}

// planning._follow
BIG2_HOT inline Mask follow(Config& c, const Style& st, Mask hand, const Plan& pl, const std::vector<Mask>& plays,
                   Mask last, int opp_min) {
  Mask combos[52];
  int nc = plan_combos(c, hand, pl, combos);
  int size = popcount(last);
  bool danger = opp_min <= std::max(2, size) && opp_min <= 5;
  if (danger && size <= 2 && opp_min <= size + 1) return plays.back();
  for (Mask p : plays) {
    if (!contains(combos, nc, p)) continue;
    if ((p & rank_bits(kTwo)) && size == 1 && opp_min > st.hold_two_above && nc > st.hold_two_plays)
      return 0;
    return p;
  }
  double base = pl.cost;
  bool low = danger || opp_min <= st.low_cards;
  double limit = !low ? st.break_limit : st.break_limit_danger;
  Mask best = 0; double bd = 0; bool have = false;
  size_t n = std::min<size_t>(plays.size(), 16);
  for (size_t i = 0; i < n; ++i) {
    double d = plan(c, hand & ~plays[i], st.all_kinds).cost - base;
    if (d <= limit && (!have || d < bd)) { best = plays[i]; bd = d; have = true; }
  }
  return have ? best : 0;
}

// planning.heuristic_play: *legal* as the game lists it (0 the pass), *counts*
// the cards per seat (n seats).
BIG2_HOT inline Mask heuristic_play(Config& c, const Style& st, int seat, Mask hand, const Mask* legal,
                           int nlegal, Mask last, const int* counts, int n, Mask unseen) {
  std::vector<Mask> plays;
  for (int i = 0; i < nlegal; ++i) if (legal[i]) plays.push_back(legal[i]);
  if (plays.empty()) return 0;
  if (plays.size() == 1 && !last) return plays[0];
  int opp_min = 13, opp_max = 0; bool any = false;
  for (int s = 0; s < n; ++s) {
    if (s == seat || !counts[s]) continue;
    opp_min = any ? std::min(opp_min, counts[s]) : counts[s];
    opp_max = any ? std::max(opp_max, counts[s]) : counts[s];
    any = true;
  }
  if (st.go_out) {
    if (std::find(plays.begin(), plays.end(), hand) != plays.end()) return hand;
    if (c.hands_grow) opp_max = 52;
    thread_local HandPlays hp;
    big2n::generate(c.t(), hand, hp);
    Mask first = way_out(c, hand, hp, plays, unseen, opp_max);
    if (first) return first;
  }
  Plan pl = plan(c, hand, st.all_kinds);
  if (!last) return lead(c, st, hand, pl, plays, opp_min, unseen);
  return follow(c, st, hand, pl, plays, last, opp_min);
}

// expert.greedy_play
BIG2_HOT inline Mask greedy_play(const Config& c, Mask hand, const std::vector<Mask>& legal, bool leading) {
  if (!leading) return legal[0];
  int low = -1;
  for (Mask x = hand; x; x &= x - 1) {
    int card = lowbit(x);
    if (low < 0 || c.strength[card] < c.strength[low]) low = card;
  }
  Mask best = 0; int bn = -1; bool holding = false;
  for (Mask p : legal) if (p && (p >> low & 1)) holding = true;
  for (Mask p : legal) {
    if (!p || (holding && !(p >> low & 1))) continue;
    if (popcount(p) > bn) { best = p; bn = popcount(p); }
  }
  return best;
}

// expert.rollout: play *st* to the end, the heuristic at every seat but the
// greedy rule at the seats in *greedy_seats*; the scores are st.scores.
BIG2_HOT inline void rollout(Config& c, const Style& style, big2n::State& st, unsigned greedy_seats) {
  std::vector<Mask> legal;
  int counts[4];
  while (st.to_move >= 0) {
    int seat = st.to_move;
    st.legal(legal);
    if (legal.size() == 1) { st.apply(legal[0]); continue; }
    if (greedy_seats >> seat & 1) { st.apply(greedy_play(c, st.hands[seat], legal, !st.has_last)); continue; }
    Mask others = 0;
    for (int s = 0; s < st.n; ++s) {
      counts[s] = popcount(st.hands[s]);
      if (s != seat) others |= st.hands[s];
    }
    Mask last = st.has_last ? st.last.mask : 0;
    st.apply(heuristic_play(c, style, seat, st.hands[seat], legal.data(), int(legal.size()), last,
                            counts, st.n, others));
  }
}

}  // namespace big2h
