// PPO's collection in the core (big2.learn.ppo_native; big2.learn.ppo_collect, in
// NumPy, is the reference it is tested against): groups of deals of one rule family
// stepped together, the policy's features, hints and forward pass (policy.hpp), the
// sampling of each play, the fixed bots of the bot groups (heuristic.hpp), and the
// samples the learner trains on, written as flat arrays.
//
// It repeats the reference step for step: the same groups in the same order, the
// same deals (big2n::Batch, the vector environment's), the same uniforms drawn from
// the same stream (NumPy's PCG64, whose state the caller hands over and takes back),
// the same trajectories handed over in the same order.  The logits agree with
// NumPy's to rounding (policy.hpp), so a sampled play differs only where a uniform
// falls within rounding of a boundary between two plays.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "policy.hpp"

namespace big2c {

using big2n::Mask;
using big2p::kPlay;
using big2p::kState;

// NumPy's PCG64 (numpy.random.default_rng's bit generator): a 128-bit LCG stepped
// before each output, the XSL-RR output; random() is next() >> 11 scaled by 2**-53, as
// Generator.random draws its doubles.
struct Pcg64 {
  __uint128_t state = 0, inc = 0;
  uint64_t next() {
    const __uint128_t mult = (__uint128_t(2549297995355413924ULL) << 64) | 4865540595714422341ULL;
    state = state * mult + inc;
    uint64_t hi = uint64_t(state >> 64), lo = uint64_t(state);
    uint64_t x = hi ^ lo;
    unsigned rot = unsigned(hi >> 58);
    return (x >> rot) | (x << ((64 - rot) & 63));
  }
  double random() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

// The index of the play sampled from *n* logits with uniform *u*, and its
// log-probability, as pnet.sample_plays computes them in float32: the first play
// whose running sum of exp(logit - top) reaches u times their total.
inline int sample(const float* lg, int n, double u, float* logp) {
  float top = lg[0];
  for (int k = 1; k < n; ++k) top = std::max(top, lg[k]);
  float total = 0.0f;
  for (int k = 0; k < n; ++k) total += std::exp(lg[k] - top);
  double target = u * double(total);
  float acc = 0.0f;
  int pick = n - 1;
  for (int k = 0; k < n; ++k) {
    acc += std::exp(lg[k] - top);
    if (!(double(acc) < target)) { pick = k; break; }
  }
  *logp = (lg[pick] - top) - std::log(total);
  return pick;
}

// One seat's decisions in the deal under way (what becomes a trajectory).
struct Open {
  std::vector<float> state, plays;
  std::vector<int8_t> hidden;
  std::vector<int64_t> count, pick;
  std::vector<float> logp;
  void clear() { state.clear(); plays.clear(); hidden.clear(); count.clear(); pick.clear(); logp.clear(); }
};

// The finished trajectories of a collection, one after another.
struct Out {
  std::vector<float> state, plays, logp;
  std::vector<int8_t> hidden;
  std::vector<int64_t> count, pick, length, family;
  std::vector<double> reward;
  void clear() {
    state.clear(); plays.clear(); logp.clear(); hidden.clear(); count.clear(); pick.clear();
    length.clear(); family.clear(); reward.clear();
  }
  void take(Open& o, int fam, double r) {
    state.insert(state.end(), o.state.begin(), o.state.end());
    plays.insert(plays.end(), o.plays.begin(), o.plays.end());
    hidden.insert(hidden.end(), o.hidden.begin(), o.hidden.end());
    count.insert(count.end(), o.count.begin(), o.count.end());
    pick.insert(pick.end(), o.pick.begin(), o.pick.end());
    logp.insert(logp.end(), o.logp.begin(), o.logp.end());
    length.push_back(int64_t(o.pick.size()));
    family.push_back(fam);
    reward.push_back(r);
    o.clear();
  }
};

enum Bot { kNoBot = 0, kHeuristic = 1, kGreedy = 2 };

// A group: deals of one rule set and family, the seats the current policy plays
// (learners), and who plays the others: the current policy (self-play), a past self
// (rival) or a fixed bot.
struct Group {
  std::shared_ptr<big2h::Config> rules;   // the table's rule set (deals, bots)
  std::shared_ptr<big2h::Config> preset;  // the family's preset (the hints), held for table
  big2n::Batch batch;
  big2p::Table table;                     // hints by the family's preset (table.config)
  unsigned learners = 0;
  bool rival = false;
  int bot = kNoBot;
  std::vector<std::array<Open, 4>> open;
  std::vector<std::array<int, 4>> order;  // seats in the order they first decided this deal
  std::vector<int> norder;
};

// The bots of game *i* play up to a learner's turn; a deal that ends meanwhile is
// scored into *scores* (players values) and the next dealt. Whether a deal ended.
inline bool settle(Group& g, size_t i, int64_t* scores) {
  big2n::Batch& b = g.batch;
  bool ended = false;
  int counts[4];
  while (g.bot != kNoBot) {
    big2n::State& s = b.games[i];
    int seat = s.to_move;
    if (g.learners >> seat & 1) break;
    const std::vector<Mask>& legal = b.legal[i];
    Mask m = legal[0];
    if (legal.size() > 1) {
      if (g.bot == kGreedy) {
        m = big2h::greedy_play(*g.rules, s.hands[seat], legal, !s.has_last);
      } else {
        for (int k = 0; k < s.n; ++k) counts[k] = big2n::popcount(s.hands[k]);
        Mask unseen = big2p::unseen_of(s, seat, b.spare[i]);
        m = big2h::heuristic_play(*g.rules, g.table.style, seat, s.hands[seat], legal.data(),
                                  int(legal.size()), s.has_last ? s.last.mask : 0, counts, s.n,
                                  unseen);
      }
    }
    size_t choice = size_t(std::find(legal.begin(), legal.end(), m) - legal.begin());
    if (choice >= legal.size()) choice = 0;
    bool done = false;
    int64_t got[4];
    b.step(i, choice, got, &done);
    if (done) {
      for (int k = 0; k < s.n; ++k) scores[k] += got[k];
      ended = true;
    }
  }
  return ended;
}

// The collector: every group, the sampling stream, the counters.
struct Collector {
  std::vector<Group> groups;
  int64_t steps = 0, deals = 0;
  big2p::Work work, rival_work;
  std::vector<big2n::State*> mine, theirs;
  std::vector<size_t> mine_at, theirs_at;
  std::vector<double> u;

  // Step every game of group *g* once; finished trajectories go to *out*. How many
  // samples they hold.
  int64_t step(Group& g, const big2p::Net& net, const big2p::Net& rival, Pcg64& rng, Out& out) {
    big2n::Batch& b = g.batch;
    size_t n = b.games.size();
    mine.clear(); theirs.clear(); mine_at.clear(); theirs_at.clear();
    for (size_t i = 0; i < n; ++i) {
      int seat = b.games[i].to_move;
      if ((g.learners >> seat & 1) || !g.rival) { mine.push_back(&b.games[i]); mine_at.push_back(i); }
      else { theirs.push_back(&b.games[i]); theirs_at.push_back(i); }
    }
    u.resize(n);
    for (size_t i = 0; i < n; ++i) u[i] = rng.random();  // every game's, as NumPy draws them
    std::vector<int64_t> choice(n, 0);
    big2p::Table t = g.table;
    t.net = &net;
    big2p::Work& w = work;
    if (!mine.empty()) big2p::logits(t, mine.data(), int(mine.size()), w);
    for (size_t j = 0; j < mine.size(); ++j) {
      size_t i = mine_at[j];
      big2n::State& s = b.games[i];
      int seat = s.to_move, cnt = w.count[j];
      float lp = 0.0f;
      int pick = big2c::sample(w.logits.data() + w.start[j], cnt, u[i], &lp);
      choice[i] = pick;
      if (!(g.learners >> seat & 1)) continue;  // self-play seats are all learners
      std::array<Open, 4>& open = g.open[i];
      if (open[seat].pick.empty()) g.order[i][g.norder[i]++] = seat;
      Open& o = open[seat];
      const float* st = w.state.data() + j * kState;
      o.state.insert(o.state.end(), st, st + kState);
      const float* pl = w.plays.data() + size_t(w.start[j]) * kPlay;
      o.plays.insert(o.plays.end(), pl, pl + size_t(cnt) * kPlay);
      size_t at = o.hidden.size();
      o.hidden.resize(at + 3 * 52, 0);
      for (int k = 1; k < s.n; ++k)
        for (Mask m = s.hands[(seat + k) % s.n]; m; m &= m - 1)
          o.hidden[at + 52 * (k - 1) + big2n::lowbit(m)] = 1;
      o.count.push_back(cnt);
      o.pick.push_back(pick);
      o.logp.push_back(lp);
    }
    if (!theirs.empty()) {
      for (size_t j = 0; j < theirs.size(); ++j) u[j] = rng.random();
      t.net = &rival;
      big2p::logits(t, theirs.data(), int(theirs.size()), rival_work);
      for (size_t j = 0; j < theirs.size(); ++j) {
        float lp;
        choice[theirs_at[j]] = big2c::sample(rival_work.logits.data() + rival_work.start[j],
                                             rival_work.count[j], u[j], &lp);
      }
    }
    int64_t have = 0;
    for (size_t i = 0; i < n; ++i) {
      int64_t scores[4] = {0, 0, 0, 0};
      bool done = false;
      b.step(i, size_t(choice[i]), scores, &done);
      // the bots play up to a learner's turn: on in this deal (which may end), or in
      // the next one (where none ends before a learner plays)
      if (settle(g, i, scores)) done = true;
      ++steps;
      if (!done) continue;
      for (int k = 0; k < g.norder[i]; ++k) {
        int seat = g.order[i][k];
        have += int64_t(g.open[i][seat].pick.size());
        out.take(g.open[i][seat], g.table.family, double(scores[seat]) / 13.0);
      }
      g.norder[i] = 0;
      ++deals;
    }
    return have;
  }

  // Step every group in turn until at least *samples* decisions of finished deals are
  // in *out* (big2.learn.ppo_collect.Collector.collect).
  void collect(const big2p::Net& net, const big2p::Net& rival, int64_t samples, Pcg64& rng,
               Out& out) {
    int64_t have = 0;
    while (have < samples)
      for (Group& g : groups) have += step(g, net, rival, rng, out);
  }
};

}  // namespace big2c
