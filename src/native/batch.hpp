// N deals stepped together for batched callers (the vector environment, through
// batch_bindings.cpp's Batch) and the observation of the seat to move they write.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "deal.hpp"

namespace big2n {

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
