// Who goes out first: an AND-OR search of a one-deck deal with every hand known
// (the puzzles' question, big2.puzzles.solve; its Python reference is solve.reference).
//
// A *side* is a set of seats.  The side wins a position when one of its seats is the
// first to go out, whatever the other seats do together: at a seat of the side it is
// enough that one legal play wins (OR), at any other seat every legal play must (AND).
// wins(node, depth) answers "within *depth* actions (plays and passes)"; kUnbounded
// asks it without a limit (a deal always ends: every trick takes cards off the table).
//
// The turn and the trick move as the deal does (Turns, shared with State and WideState);
// the plays are engine.hpp's, listed once per distinct hand (a cache), so nothing here
// restates a rule.  A transposition table remembers each position's proven bounds: the
// fewest actions in which the side was shown to win, and the most in which it was shown
// not to.  Move ordering: plays that go out first, then the longest and strongest plays,
// the pass last.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "deal.hpp"

namespace big2n {

// A position of the first-out question: what decides the rest of the deal until
// someone goes out (the fields Turns reads, and who went out).
struct OutNode {
  const Tables* t = nullptr;
  int n = 4;
  Mask hands[4] = {};
  int to_move = -1;
  bool has_last = false;
  Play last;
  int last_player = -1;
  unsigned passed = 0;
  Mask must = 0;
  int trick_leader = -1;
  int lead_passes = 0;
  bool waive = false;
  int first_out = -1;  // the seat that went out (the search stops there)

  // Apply a legal play (its Play as listed) or the pass (mask 0), as State::apply does
  // up to the first seat going out.
  void apply(const Play& p) {
    int seat = to_move;
    if (!p.mask) {
      if (!has_last) { Turns::pass_lead(*this, seat); return; }
      passed |= 1u << seat;
      if (t->one_pass) Turns::end_trick(*this); else Turns::advance(*this, seat);
      return;
    }
    hands[seat] &= ~p.mask;
    if (!has_last) trick_leader = seat;
    has_last = true; last = p; last_player = seat; must = 0; lead_passes = 0; waive = false;
    if (t->jump_back) passed = 0;
    if (!hands[seat]) { first_out = seat; to_move = -1; return; }
    Turns::advance(*this, seat);
  }
};

class FirstOut {
 public:
  static constexpr int kUnbounded = 0xFFFF;
  static constexpr int32_t kNever = 1 << 30;  // no win shown yet

  explicit FirstOut(const Tables& t, int table_bits = 20) : t_(t) {
    table_.resize(size_t(1) << table_bits);
    mask_ = table_.size() - 1;
  }

  uint64_t nodes = 0;        // positions expanded since the last reset_count()
  uint64_t budget = 0;       // the most a call may expand (0: no limit)
  bool aborted = false;      // the last call ran past the budget (its answer is void)

  void clear() {
    std::fill(table_.begin(), table_.end(), Entry());
    plays_.clear();
  }

  // Whether *side* (a bit per seat) wins from *node* within *depth* actions.
  bool wins(const OutNode& node, unsigned side, int depth) {
    side_ = side; aborted = false; start_ = nodes; ply_ = 0;
    return search(node, depth);
  }

  // The legal plays at *node* in the Python Game's order (pass: mask 0).
  void legal(const OutNode& s, std::vector<Play>& out) {
    out.clear();
    if (s.to_move < 0) return;
    const HandPlays& hp = plays_of(s.hands[s.to_move]);
    if (!s.has_last) {
      for (int k = 1; k <= 5; ++k)
        for (const Play& p : hp.groups[k]) {
          if (s.must && (!(p.mask & s.must) || (t_.opening_alone && k != 1))) continue;
          out.push_back(p);
        }
    } else {
      for_each_follow(t_, hp, s.last, [&](const Play& p) { out.push_back(p); });
    }
    if (s.has_last || out.empty()) out.push_back(Play());
    if (t_.finish_barred)
      Turns::drop_barred_finish(s, out, [&](Mask m) {
        return t_.barred(popcount(m), popcount(m & (Mask(0xF) << 48)), (m >> 51) & 1);
      });
  }

  // *legal* ordered for the search: going out, then more cards, then more power; pass last.
  static void order(const OutNode& s, std::vector<Play>& plays) {
    Mask hand = s.hands[s.to_move];
    std::stable_sort(plays.begin(), plays.end(), [hand](const Play& a, const Play& b) {
      bool oa = a.mask == hand, ob = b.mask == hand;
      if (oa != ob) return oa;
      int na = popcount(a.mask), nb = popcount(b.mask);
      if (na != nb) return na > nb;
      return a.power > b.power;
    });
  }

  // The fewest actions in which *side* wins from *node* against the others' longest
  // resistance, or -1 when it does not win (-2: past the budget).
  int distance(const OutNode& node, unsigned side) {
    if (!wins(node, side, kUnbounded)) return aborted ? -2 : -1;
    for (int d = 1;; ++d) {
      if (wins(node, side, d)) return d;
      if (aborted) return -2;
    }
  }

  // The line by which *side* wins from *node*, to the first seat going out: a seat of
  // the side plays the first play (in the search's order) that still wins in the fewest
  // actions, the others the play that holds out longest (the first of equals).  Empty
  // when the side does not win; false when the budget ran out.
  bool line(OutNode node, unsigned side, std::vector<std::pair<int, Mask>>& out) {
    out.clear();
    int d = distance(node, side);
    if (d < 0) return d == -1;
    std::vector<Play> plays;
    while (node.first_out < 0) {
      legal(node, plays);
      order(node, plays);
      bool mine = side >> node.to_move & 1;
      const Play* pick = nullptr; int best = -1;
      for (const Play& p : plays) {
        OutNode c = node; c.apply(p);
        if (mine) {
          if (wins(c, side, d - 1)) { pick = &p; break; }
        } else {
          int got = c.first_out >= 0 ? 0 : distance(c, side);
          if (got == -2) return false;
          if (got > best) { best = got; pick = &p; }
        }
        if (aborted) return false;
      }
      if (!pick) return false;  // (cannot happen: the side wins in d)
      out.emplace_back(node.to_move, pick->mask);
      node.apply(*pick);
      --d;
    }
    return true;
  }

  // A hidden-hand question: the seat to move at *node* knows its own hand and the others'
  // counts; for each of its legal plays (*plays*, Game order), whether *side* wins after
  // it in every deal of the unseen cards (the others' hands at *node*, together) to the
  // other seats with their counts.  *counter[i]*: the first deal (the seats' hands) in
  // which play i does not win.  Deals are tried in a fixed order and the search stops once
  // no play wins in all so far; returns the deals tried, or -1 past *max_deals* or the
  // budget.
  int64_t hidden(const OutNode& node, unsigned side, const std::vector<Play>& plays,
                 std::vector<char>& alive, std::vector<std::vector<Mask>>& counter,
                 int64_t max_deals) {
    int seat = node.to_move;
    Mask unseen = 0; int need[4] = {};
    for (int i = 0; i < node.n; ++i)
      if (i != seat) { unseen |= node.hands[i]; need[i] = popcount(node.hands[i]); }
    alive.assign(plays.size(), 1);
    counter.assign(plays.size(), std::vector<Mask>());
    int left = int(plays.size());
    int64_t tried = 0;
    OutNode deal = node;
    for (int i = 0; i < node.n; ++i) if (i != seat) deal.hands[i] = 0;
    bool failed = false;
    // assign the unseen cards lowest first, each to a seat with room left
    auto assign = [&](auto&& self, Mask rest) -> void {
      if (failed || !left) return;
      if (!rest) {
        if (++tried > max_deals) { failed = true; return; }
        for (size_t k = 0; k < plays.size(); ++k) {
          if (!alive[k]) continue;
          OutNode c = deal; c.apply(plays[k]);
          bool won = c.first_out >= 0 ? (side >> c.first_out & 1) : wins(c, side, kUnbounded);
          if (aborted) { failed = true; return; }
          if (!won) {
            alive[k] = 0; --left;
            counter[k].assign(deal.hands, deal.hands + node.n);
          }
        }
        return;
      }
      Mask card = rest & -rest;
      for (int i = 0; i < node.n; ++i) {
        if (i == seat || popcount(deal.hands[i]) >= need[i]) continue;
        deal.hands[i] |= card;
        self(self, rest & ~card);
        deal.hands[i] &= ~card;
      }
    };
    assign(assign, unseen);
    return failed ? -1 : tried;
  }

 private:
  struct Entry {
    Mask hands[4] = {};
    Mask last = 0;
    uint32_t meta = 0xFFFFFFFFu;  // to_move, last_player, passed, side, lead_passes, waive
    Mask must = 0;
    int32_t win_at = kNever;      // fewest actions the side was shown to win in
    int32_t lose_at = -1;         // most actions it was shown not to win in (-1: none)
  };

  static uint32_t meta_of(const OutNode& s, unsigned side) {
    return uint32_t(s.to_move + 1) | uint32_t(s.last_player + 1) << 3 | s.passed << 6 |
           side << 10 | uint32_t(std::min(s.lead_passes, 7)) << 14 | uint32_t(s.waive) << 17;
  }

  static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h;
  }

  size_t slot(const OutNode& s, uint32_t meta) const {
    uint64_t h = meta;
    for (int i = 0; i < 4; ++i) h = mix(h, s.hands[i] * 0xBF58476D1CE4E5B9ull);
    h = mix(h, s.last.mask * 0x94D049BB133111EBull);
    h = mix(h, s.must);
    h ^= h >> 31;
    return size_t(h) & mask_;
  }

  static bool same(const Entry& e, const OutNode& s, uint32_t meta) {
    return e.meta == meta && e.last == s.last.mask && e.must == s.must &&
           e.hands[0] == s.hands[0] && e.hands[1] == s.hands[1] && e.hands[2] == s.hands[2] &&
           e.hands[3] == s.hands[3];
  }

  const HandPlays& plays_of(Mask hand) {
    auto it = plays_.find(hand);
    if (it != plays_.end()) return it->second;
    if (plays_.size() > 200000) plays_.clear();
    HandPlays& hp = plays_[hand];
    generate(t_, hand, hp);
    return hp;
  }

  bool search(const OutNode& s, int depth) {
    if (s.first_out >= 0) return side_ >> s.first_out & 1;
    if (depth <= 0) return false;
    if (aborted) return false;
    if (budget && nodes - start_ >= budget) { aborted = true; return false; }
    ++nodes;
    uint32_t meta = meta_of(s, side_);
    Entry& e = table_[slot(s, meta)];
    if (same(e, s, meta)) {
      if (depth >= e.win_at) return true;
      if (depth <= e.lose_at) return false;
    }
    bool mine = side_ >> s.to_move & 1;
    if (stack_.size() <= size_t(ply_)) stack_.resize(ply_ + 1);
    std::vector<Play>& plays = stack_[ply_];
    legal(s, plays);
    Mask hand = s.hands[s.to_move];
    // a seat that can go out now settles the position at once
    for (const Play& p : plays)
      if (p.mask == hand) return store(s, meta, depth, mine);
    order(s, plays);
    bool result = !mine;
    for (size_t i = 0, k = plays.size(); i < k; ++i) {
      OutNode c = s;
      c.apply(stack_[ply_][i]);  // (the stack may grow under the call below)
      ++ply_;
      bool won = search(c, depth - 1);
      --ply_;
      if (aborted) return false;
      if (won == mine) { result = mine; break; }
    }
    return store(s, meta, depth, result);
  }

  bool store(const OutNode& s, uint32_t meta, int depth, bool won) {
    if (aborted) return won;
    Entry& e = table_[slot(s, meta)];
    if (!same(e, s, meta)) {
      e = Entry();
      for (int i = 0; i < 4; ++i) e.hands[i] = s.hands[i];
      e.last = s.last.mask; e.meta = meta; e.must = s.must;
    }
    if (won) e.win_at = std::min(e.win_at, int32_t(depth));
    else e.lose_at = std::max(e.lose_at, int32_t(depth));
    return won;
  }

  const Tables& t_;
  std::vector<Entry> table_;
  size_t mask_ = 0;
  std::unordered_map<Mask, HandPlays> plays_;
  unsigned side_ = 0;
  uint64_t start_ = 0;
  std::vector<std::vector<Play>> stack_;  // the plays listed at each ply of the search
  int ply_ = 0;
};

}  // namespace big2n
