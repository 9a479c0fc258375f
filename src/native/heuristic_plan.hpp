// The heuristic bot's hand planner in the core: big2.bots.rules_based.planning.plan,
// line for line (the same candidates in the same order, the same bounded
// depth-first search, the same float arithmetic in the same order, the same
// round(cost, 6)), so a plan here is the plan Python finds.
//
// A Config is one rule set as the planner and the bot read it: the engine's
// Tables (plays, powers) and the few things the bot asks besides (suit order,
// the five-card kinds' order, finish restrictions...), compiled once per rule
// set by big2.bots.rules_based.native.  engine.hpp knows nothing of this file.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "deal.hpp"

namespace big2h {

using big2n::HandPlays;
using big2n::highbit;
using big2n::lowbit;
using big2n::Mask;
using big2n::nib;
using big2n::Play;
using big2n::popcount;
using big2n::Tables;

constexpr int kTwo = 12;  // the rank of the 2s
constexpr double kWSingle = 0.7, kWPair = 0.45, kWTriple = 0.3, kWFive = 0.25, kWFour = 0.35;
constexpr double kTwoBonus = 0.45;
constexpr int kPlanNodes = 600;  // planning._MAX_NODES

inline Mask rank_bits(int r) { return Mask(0xF) << (4 * r); }
inline Mask suit_bits(int s) { return Mask(0x1111111111111ULL) << s; }
inline int top_rank(Mask m) { return highbit(m) >> 2; }

// A plan: the multi-rank plays chosen (in the order the search chose them) and
// the rounded cost; the rank groups of the rest are appended by combos().
struct Plan {
  Mask chosen[13] = {};
  int n = 0;
  double cost = 0;
};

// The heuristic's switches and thresholds (big2.bots.rules_based.planning.Style).
struct Style {
  bool all_kinds = true, go_out = true;
  int hold_two_above = 6, hold_two_plays = 4;
  double break_limit = 1.2, break_limit_danger = 3.0;
  int low_cards = 4;
};

// One rule set as the heuristic reads it (see the file comment).
struct Config {
  std::shared_ptr<Tables> tables;
  int suit_rank[4] = {0, 1, 2, 3};
  bool suited = true;
  int top_pos[16] = {};
  bool triples = true, four_alone = false, plain = true, same_kind = false, top_card = false;
  bool play_equal = false, hands_grow = false;
  double kind_index[16] = {};       // by Kind value; kinds not five-card: 0.0
  bool bar_any2 = false, bar_single2 = false, bar_pair2 = false, bar_2s = false;
  int longest = 5;
  int strength[52] = {};            // order of strength (from the tables' by_strength)
  double rank_cost[13][16] = {};
  Mask rank_play[13][16][2] = {};
  int rank_nplay[13][16] = {};
  std::unordered_map<Mask, Plan> cache[2];  // [all_kinds]

  const Tables& t() const { return *tables; }

  // Fill the derived tables (after the fields above are set): planning._Tables.
  void build(const std::vector<int>& five_kinds) {
    const Tables& tb = *tables;
    triples = tb.triples; four_alone = tb.four_alone; same_kind = tb.same_kind;
    top_card = tb.top_card; play_equal = tb.play_equal; plain = !tb.play_equal;
    for (int nb = 0; nb < 16; ++nb) {
      int best = 0;
      for (int s = 0; s < 4; ++s) if (nb >> s & 1) best = std::max(best, suit_rank[s]);
      top_pos[nb] = best;
    }
    for (int i = 0; i < 52; ++i) strength[tb.by_strength[i]] = i;
    int n_kinds = std::max(1, int(five_kinds.size()) - 1);
    for (auto& k : kind_index) k = 0.0;
    for (size_t i = 0; i < five_kinds.size(); ++i)
      if (five_kinds[i] >= 0 && five_kinds[i] < 16) kind_index[five_kinds[i]] = double(i) / n_kinds;
    int order[4] = {0, 1, 2, 3};
    std::stable_sort(order, order + 4, [&](int a, int b) { return suit_rank[a] < suit_rank[b]; });
    for (int r = 0; r < 13; ++r) {
      double weak = 1.0 - r / 12.0;
      for (int nb = 0; nb < 16; ++nb) {
        Mask cards[4]; int n = 0;
        for (int s : order) if (nb >> s & 1) cards[n++] = Mask(1) << (4 * r + s);
        Mask groups[2]; int ng = 0;
        if (n == 4 && four_alone) groups[ng++] = cards[0] | cards[1] | cards[2] | cards[3];
        else if (n == 4) { groups[ng++] = cards[0] | cards[1]; groups[ng++] = cards[2] | cards[3]; }
        else if (n == 3 && triples) groups[ng++] = cards[0] | cards[1] | cards[2];
        else if (n == 3) { groups[ng++] = cards[0]; groups[ng++] = cards[1] | cards[2]; }
        else if (n == 2) groups[ng++] = cards[0] | cards[1];
        else if (n == 1) groups[ng++] = cards[0];
        double cost = 0.0;
        for (int i = 0; i < ng; ++i) {
          int size = popcount(groups[i]);
          double bonus = r == kTwo ? kTwoBonus : 0.0;
          if (size == 1) cost += 1 + kWSingle * weak - bonus;
          else if (size == 2) cost += 1 + kWPair * weak - bonus;
          else if (size == 3) cost += 1 + kWTriple * weak;
          else cost += 0.8;
          rank_play[r][nb][i] = groups[i];
        }
        rank_cost[r][nb] = cost;
        rank_nplay[r][nb] = ng;
      }
    }
  }

  bool barred(Mask play) const {
    Mask twos = play & rank_bits(kTwo);
    int n = popcount(play);
    return (bar_any2 && twos) || (bar_single2 && n == 1 && twos) ||
           (bar_pair2 && n == 2 && popcount(twos) == 2) || (bar_2s && (play >> (4 * kTwo + 3) & 1));
  }
  int card_key(int r, int pos) const { return suited ? r * 4 + pos : r; }

  double five_cost(Mask m) const {
    Play p = t().classify(m);
    int top = top_rank(m);
    double strength = 0.7 * kind_index[p.kind] + 0.3 * top / 12;
    return 1 + kWFive * (1 - strength);
  }
  double multi_cost(Mask m) const {
    int size = popcount(m);
    if (size == 5) return five_cost(m);
    int top = top_rank(m);
    return 1 + (size == 4 ? kWFour : kWFive) * (1 - top / 12.0);
  }
  double rest_cost(Mask rest) const {
    double c = 0.0;
    for (int r = 0; r < 13; ++r) {
      unsigned nb = nib(rest, r);
      if (nb) c += rank_cost[r][nb];
    }
    return c;
  }
};

// Python's round(x, 6): the correctly rounded decimal, read back.
inline double round6(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", x);
  return std::strtod(buf, nullptr);
}

// The plan's plays in planning.Plan.combos order: the chosen plays, then each
// rank's groups of what is left.
inline int plan_combos(const Config& c, Mask hand, const Plan& p, Mask* out) {
  int n = 0; Mask used = 0;
  for (int i = 0; i < p.n; ++i) { out[n++] = p.chosen[i]; used |= p.chosen[i]; }
  Mask rest = hand & ~used;
  for (int r = 0; r < 13; ++r) {
    unsigned nb = nib(rest, r);
    for (int i = 0; nb && i < c.rank_nplay[r][nb]; ++i) out[n++] = c.rank_play[r][nb][i];
  }
  return n;
}

inline uint64_t rank_signature(Mask m) {
  uint64_t sig = 0;
  for (Mask x = m; x; x &= x - 1) sig += uint64_t(1) << (3 * (lowbit(x) >> 2));
  return sig;
}

// planning._distinct_multi (the native rule sets have no odd straights: sizes 4 and 5).
inline void distinct_multi(const Config& c, const HandPlays& hp, std::vector<Mask>& out) {
  out.clear();
  std::vector<Mask> seen_order;
  std::unordered_set<uint64_t> seen;
  for (int size = 4; size <= 5; ++size)
    for (const Play& p : hp.groups[size]) {
      Mask m = p.mask;
      if (!(m & ~rank_bits(top_rank(m)))) continue;  // one rank
      bool suited = false;
      for (int s = 0; s < 4; ++s) if ((m & suit_bits(s)) == m) suited = true;
      if (suited) { out.push_back(m); continue; }
      if (seen.insert(rank_signature(m)).second) seen_order.push_back(m);
    }
  (void)c;
  out.insert(out.end(), seen_order.begin(), seen_order.end());
}

// planning._distinct_fives (the first heuristic's candidates).
inline void distinct_fives(const Config& c, const HandPlays& hp, std::vector<Mask>& out) {
  out.clear();
  std::vector<Mask> seen_order;
  std::unordered_set<uint64_t> seen;
  for (const Play& p : hp.groups[5]) {
    if (p.kind == big2n::FLUSH || p.kind == big2n::STRAIGHT_FLUSH) { out.push_back(p.mask); continue; }
    if (seen.insert(rank_signature(p.mask)).second) seen_order.push_back(p.mask);
  }
  (void)c;
  out.insert(out.end(), seen_order.begin(), seen_order.end());
}

struct Node {
  int start;
  Mask used;
  double cost;
  int n;
  int16_t chosen[13];
};

// planning._plan_all / _plan_v1: the bounded depth-first search.
BIG2_HOT inline Plan plan_search(const Config& c, Mask hand, bool all_kinds) {
  std::vector<Mask> cands;
  std::vector<double> costs;
  double best_cost;
  thread_local HandPlays hp;
  if (all_kinds) {
    double base = c.rest_cost(hand);
    if (popcount(hand) >= 4) {
      big2n::generate(c.t(), hand, hp);
      std::vector<Mask> multi;
      distinct_multi(c, hp, multi);
      struct Scored { double neg; Mask m; double cost; };
      std::vector<Scored> scored;
      for (Mask m : multi) {
        double cm = c.multi_cost(m);
        double gain = base - c.rest_cost(hand & ~m) - cm;
        scored.push_back({-gain, m, cm});
      }
      std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
        if (a.neg != b.neg) return a.neg < b.neg;
        if (a.m != b.m) return a.m < b.m;
        return a.cost < b.cost;
      });
      for (auto& s : scored) { cands.push_back(s.m); costs.push_back(s.cost); }
    }
    best_cost = base;
  } else {
    if (popcount(hand) >= 5) {
      big2n::generate(c.t(), hand, hp);
      distinct_fives(c, hp, cands);
      for (Mask f : cands) costs.push_back(c.five_cost(f));
    }
    best_cost = std::numeric_limits<double>::infinity();
  }
  thread_local std::vector<Node> stack;
  stack.clear();
  Node root{}; root.start = 0; root.used = 0; root.cost = 0.0; root.n = 0;
  stack.push_back(root);
  Node best = root;
  int nodes = 0;
  int nc = int(cands.size());
  while (!stack.empty()) {
    Node cur = stack.back();
    stack.pop_back();
    ++nodes;
    double total = cur.cost + c.rest_cost(hand & ~cur.used);
    if (total < best_cost) { best_cost = total; best = cur; }
    if (nodes > kPlanNodes) continue;
    auto push = [&](int k) {
      Mask f = cands[k];
      if (f & cur.used) return;
      Node nx = cur;
      nx.start = k + 1; nx.used = cur.used | f; nx.cost = cur.cost + costs[k];
      nx.chosen[nx.n++] = int16_t(k);
      stack.push_back(nx);
    };
    if (all_kinds) { for (int k = nc - 1; k >= cur.start; --k) push(k); }
    else { for (int k = cur.start; k < nc; ++k) push(k); }
  }
  Plan out;
  for (int i = 0; i < best.n; ++i) out.chosen[out.n++] = cands[best.chosen[i]];
  out.cost = round6(best_cost);
  return out;
}

// planning.plan: cached per rule set and planner.
inline Plan plan(Config& c, Mask hand, bool all_kinds) {
  auto& cache = c.cache[all_kinds ? 1 : 0];
  auto it = cache.find(hand);
  if (it != cache.end()) return it->second;
  if (cache.size() > 200000) cache.clear();
  return cache.emplace(hand, plan_search(c, hand, all_kinds)).first->second;
}

}  // namespace big2h
