// The policy network's forward pass in the core (big2.bots.policy.pnet.PolicyNet,
// NumPy the reference), its inputs (big2.bots.policy.pfeatures and phint) read off a
// deal the core steps, and the searches' policy play-out: every seat plays the
// policy's choice for some plies, then the heuristic (heuristic.hpp) or the critic
// finishes.
//
// The network: state features -> two ReLU layers of H -> a projection to P (the
// embedding, once per decision); a play's features -> B p + b_b, added to the
// embedding, ReLU, C, ReLU, v: its score.  Every matrix is row-major (inputs x
// outputs) as NumPy holds it.  The loops walk an input row at a time and add it,
// scaled, to every output (skipping zero inputs: the state's inputs are mostly 0/1
// and a ReLU's outputs half zero), so a batch of states shares each weight row while
// it is in cache.  Sums are in float, in input order; NumPy's BLAS sums in another
// order, so the two agree to rounding (tests/bots/test_policy_native.py).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "batch.hpp"
#include "heuristic.hpp"

namespace big2p {

using big2n::Mask;
using big2n::ObsLayout;
using big2n::popcount;

// The feature layout (big2.bots.policy.pfeatures); Python checks these against its own.
constexpr int kObs = 635;
constexpr int kFamilies = 2;
constexpr int kShape = 13 + 4 + 4 + 1;
constexpr int kRawState = kObs + 52 + kFamilies;
constexpr int kState = kRawState + kShape + 13;
constexpr int kRawPlay = 52 + 52 + 6;
constexpr int kAbove = kRawPlay + 13 + 13 + 4 + kShape;
constexpr int kHint = kAbove + 2;
constexpr int kHints = 4;
constexpr int kPlay = kHint + kHints;

// The actor's weights (pnet.NAMES), float32, row-major.
struct Net {
  int S = kState, H = 0, P = 0, F = kPlay, Q = 0;
  std::vector<float> s0_w, s0_b, s1_w, s1_b, a_w, b_w, b_b, c_w, c_b, v_w;
};

// out[n, :] = b + x[n, :] @ w for n rows of x (rows x in_dim), skipping zero inputs;
// relu: clamp at 0 after. For sparse inputs (0/1 features): a zero input costs nothing.
BIG2_HOT inline void dense_sparse(const float* x, int rows, int in_dim, const float* w,
                                  const float* b, int out_dim, float* out, bool relu) {
  for (int n = 0; n < rows; ++n) {
    float* o = out + size_t(n) * out_dim;
    if (b) std::memcpy(o, b, sizeof(float) * out_dim);
    else std::fill(o, o + out_dim, 0.0f);
  }
  // input-major: each weight row is loaded once for every row of the batch
  for (int i = 0; i < in_dim; ++i) {
    const float* wr = w + size_t(i) * out_dim;
    for (int n = 0; n < rows; ++n) {
      float xi = x[size_t(n) * in_dim + i];
      if (xi == 0.0f) continue;
      float* o = out + size_t(n) * out_dim;
      for (int j = 0; j < out_dim; ++j) o[j] += xi * wr[j];
    }
  }
  if (relu)
    for (size_t k = 0; k < size_t(rows) * out_dim; ++k) out[k] = std::max(out[k], 0.0f);
}

// The same product for dense inputs (a hidden layer's): blocks of kRows rows by kCols
// outputs are summed in registers over all the inputs and stored once (the sparse
// loop's load and store of the outputs for every input made these layers
// memory-bound); what is left over at the edges goes through dense_sparse.
constexpr int kRows = 4, kCols = 32;
BIG2_HOT inline void dense(const float* x, int rows, int in_dim, const float* w, const float* b,
                           int out_dim, float* out, bool relu) {
  int full_rows = rows - rows % kRows, full_cols = out_dim - out_dim % kCols;
  for (int n0 = 0; n0 < full_rows; n0 += kRows) {
    const float* xr = x + size_t(n0) * in_dim;
    for (int j0 = 0; j0 < full_cols; j0 += kCols) {
      float acc[kRows][kCols];
      for (int r = 0; r < kRows; ++r)
        for (int j = 0; j < kCols; ++j) acc[r][j] = b ? b[j0 + j] : 0.0f;
      for (int i = 0; i < in_dim; ++i) {
        const float* wr = w + size_t(i) * out_dim + j0;
        for (int r = 0; r < kRows; ++r) {
          float xi = xr[size_t(r) * in_dim + i];
          for (int j = 0; j < kCols; ++j) acc[r][j] += xi * wr[j];
        }
      }
      for (int r = 0; r < kRows; ++r) {
        float* o = out + size_t(n0 + r) * out_dim + j0;
        for (int j = 0; j < kCols; ++j) o[j] = relu ? std::max(acc[r][j], 0.0f) : acc[r][j];
      }
    }
  }
  if (full_cols < out_dim) {  // the last columns of the full rows
    int c = out_dim - full_cols;
    std::vector<float> tail(size_t(full_rows) * c);
    std::vector<float> wt(size_t(in_dim) * c);
    for (int i = 0; i < in_dim; ++i)
      std::memcpy(wt.data() + size_t(i) * c, w + size_t(i) * out_dim + full_cols, sizeof(float) * c);
    dense_sparse(x, full_rows, in_dim, wt.data(), b ? b + full_cols : nullptr, c, tail.data(),
                 relu);
    for (int n = 0; n < full_rows; ++n)
      std::memcpy(out + size_t(n) * out_dim + full_cols, tail.data() + size_t(n) * c,
                  sizeof(float) * c);
  }
  if (full_rows < rows)  // the last rows
    dense_sparse(x + size_t(full_rows) * in_dim, rows - full_rows, in_dim, w, b, out_dim,
                 out + size_t(full_rows) * out_dim, relu);
}

// Reusable buffers of a forward pass.
struct Scratch {
  std::vector<float> h0, h1, z, z2;
};

// (rows x P): the embeddings of *rows* states (rows x S), as PolicyNet.embed.
inline void embed(const Net& w, const float* state, int rows, float* out, Scratch& s) {
  s.h0.resize(size_t(rows) * w.H);
  s.h1.resize(size_t(rows) * w.H);
  dense_sparse(state, rows, w.S, w.s0_w.data(), w.s0_b.data(), w.H, s.h0.data(), true);
  dense(s.h0.data(), rows, w.H, w.s1_w.data(), w.s1_b.data(), w.H, s.h1.data(), true);
  dense(s.h1.data(), rows, w.H, w.a_w.data(), nullptr, w.P, out, false);
}

// The scores of *np* plays (np x F features), play k against embedded[row[k]], as
// PolicyNet.score_pairs.
BIG2_HOT inline void score_pairs(const Net& w, const float* embedded, const int* row,
                                 const float* plays, int np, float* out, Scratch& s) {
  s.z.resize(size_t(np) * w.P);
  s.z2.resize(size_t(np) * w.Q);
  dense_sparse(plays, np, w.F, w.b_w.data(), w.b_b.data(), w.P, s.z.data(), false);
  for (int k = 0; k < np; ++k) {
    float* z = s.z.data() + size_t(k) * w.P;
    const float* e = embedded + size_t(row[k]) * w.P;
    for (int j = 0; j < w.P; ++j) z[j] = std::max(z[j] + e[j], 0.0f);
  }
  dense(s.z.data(), np, w.P, w.c_w.data(), w.c_b.data(), w.Q, s.z2.data(), true);
  for (int k = 0; k < np; ++k) {
    const float* z2 = s.z2.data() + size_t(k) * w.Q;
    float v = 0.0f;
    for (int j = 0; j < w.Q; ++j) v += z2[j] * w.v_w[j];
    out[k] = v;
  }
}

// A ReLU multilayer perceptron (pfeatures.mlp): the critic.
struct Mlp {
  std::vector<int> dims;                 // inputs, then each layer's outputs
  std::vector<std::vector<float>> w, b;  // per layer, row-major (in x out)
};

inline void mlp(const Mlp& m, const float* x, int rows, std::vector<float>& out,
                std::vector<float>& tmp) {
  out.assign(x, x + size_t(rows) * m.dims[0]);
  for (size_t l = 0; l < m.w.size(); ++l) {
    tmp.resize(size_t(rows) * m.dims[l + 1]);
    (l == 0 ? dense_sparse : dense)(out.data(), rows, m.dims[l], m.w[l].data(), m.b[l].data(),
                                    m.dims[l + 1], tmp.data(), l + 1 < m.w.size());
    out.swap(tmp);
  }
}

// ---------------------------------------------------------------------------------
// Features (pfeatures.state_features, play_features; phint.hints), from masks.

inline float div13(int x) { return float(double(x) / 13.0); }
inline float div4(int x) { return float(double(x) / 4.0); }

inline void rank_counts(Mask m, int* rc) {
  for (int r = 0; r < 13; ++r) rc[r] = popcount(m >> (4 * r) & 0xF);
}

// hand_shape: 22 columns.
inline void hand_shape(Mask hand, float* out) {
  int rc[13];
  rank_counts(hand, rc);
  int with[5] = {};
  for (int r = 0; r < 13; ++r) { out[r] = div4(rc[r]); ++with[rc[r]]; }
  for (int k = 1; k <= 4; ++k) out[12 + k] = div13(with[k]);
  for (int s = 0; s < 4; ++s) out[17 + s] = div13(popcount(hand & big2h::suit_bits(s)));
  out[21] = div13(popcount(hand));
}

// The S state inputs of an observation (kObs int8) whose seat holds *hand* and has not
// seen *unseen*; *plain*: the first kRawState alone, the engineered rest left 0.
inline void state_features(const int8_t* obs, Mask hand, Mask unseen, int family, float* out,
                           bool plain = false) {
  std::fill(out, out + kState, 0.0f);
  for (int i = 0; i < kObs; ++i) out[i] = float(obs[i]);
  for (Mask m = unseen; m; m &= m - 1) out[kObs + big2n::lowbit(m)] = 1.0f;
  out[kObs + 52 + family] = 1.0f;
  if (plain) return;
  hand_shape(hand, out + kRawState);
  int rc[13];
  rank_counts(unseen, rc);
  for (int r = 0; r < 13; ++r) out[kRawState + kShape + r] = div4(rc[r]);
}

// The F inputs of a play *cards* (0: the pass) from *hand*, its player not having seen
// *unseen*, with its hint columns; *plain*: the first kRawPlay alone (*hint* unread), the
// engineered rest left 0.
inline void play_features(Mask cards, Mask hand, Mask unseen, const float* hint, float* out,
                          bool plain = false) {
  std::fill(out, out + kPlay, 0.0f);
  for (Mask m = cards; m; m &= m - 1) out[big2n::lowbit(m)] = 1.0f;
  Mask kept = hand & ~cards;
  for (Mask m = kept; m; m &= m - 1) out[52 + big2n::lowbit(m)] = 1.0f;
  int size = popcount(cards);
  out[104 + std::min(size, 5)] = 1.0f;
  if (plain) return;
  int rc[13];
  rank_counts(cards, rc);
  int at = kRawPlay;
  int rc_max = 0, ranks = 0;
  for (int r = 0; r < 13; ++r) {
    out[at + r] = float(rc[r]);
    rc_max = std::max(rc_max, rc[r]);
    ranks += rc[r] > 0;
  }
  int top = size ? big2n::highbit(cards) : 51;
  int top_rank = top / 4;
  if (size) out[at + 13 + top_rank] = 1.0f;
  int kinds = at + 26;
  if (size == 5) {
    int suit_max = 0;
    for (int s = 0; s < 4; ++s) suit_max = std::max(suit_max, popcount(cards & big2h::suit_bits(s)));
    out[kinds] = suit_max == 5;
    out[kinds + 1] = ranks == 5;
    out[kinds + 2] = rc_max == 3;
    out[kinds + 3] = rc_max == 4;
  }
  hand_shape(kept, out + kinds + 4);
  if (size) {
    int above = top < 51 ? popcount(unseen >> (top + 1)) : 0;
    out[kAbove] = div13(above);
    int urc[13];
    rank_counts(unseen, urc);
    int higher = 0;
    for (int r = top_rank + 1; r < 13; ++r) higher += urc[r] >= 2;
    out[kAbove + 1] = div13(higher);
  }
  for (int k = 0; k < kHints; ++k) out[kHint + k] = hint[k];
}

// phint.hints for one position: *legal* (n plays, 0 the pass) of the seat holding
// *hand*, *last* the play to beat (0: none), *held* the cards each seat holds in
// relative order (players seats), *unseen* the cards it has not seen.  out: n x 4.
inline void hints(big2h::Config& c, const big2h::Style& style, Mask hand, const Mask* legal,
                  int n, Mask last, const int* held, int players, Mask unseen, float* out) {
  std::fill(out, out + size_t(n) * kHints, 0.0f);
  if (n == 1) { out[0] = 1.0f; return; }
  Mask pick = big2h::heuristic_play(c, style, 0, hand, legal, n, last, held, players, unseen);
  int at = 0;
  for (int i = 0; i < n; ++i) if (legal[i] == pick) { at = i; break; }
  out[size_t(at) * kHints] = 1.0f;
  Mask whole[52];
  big2h::Plan pw = big2h::plan(c, hand, true);
  int nw = big2h::plan_combos(c, hand, pw, whole);
  Mask combos[52];
  for (int i = 0; i < n; ++i) {
    Mask m = legal[i];
    big2h::Plan p = big2h::plan(c, hand & ~m, true);
    int k = big2h::plan_combos(c, hand & ~m, p, combos);
    float* o = out + size_t(i) * kHints;
    o[1] = std::find(whole, whole + nw, m) != whole + nw ? 1.0f : 0.0f;
    o[2] = div13(k);
    o[3] = float(p.cost / 13.0);
  }
}

// ---------------------------------------------------------------------------------
// Deciding in many deals at once, and the play-out.

// What every deal of a batch shares: the network, the rule set, the family.
struct Table {
  const Net* net = nullptr;
  big2h::Config* config = nullptr;
  big2h::Style style;
  ObsLayout layout{};
  Mask spare = 0;
  int family = 0;
  // the plain encoding (big2.learn.ppo_model.plain_inputs): the engineered inputs and
  // the heuristic's hints are not computed (left 0), for a network whose weights on
  // them are 0, so its outputs are the same, without the hints' cost
  bool plain = false;
};

// The buffers of a batched decision.
struct Work {
  std::vector<int8_t> obs;
  std::vector<float> state, emb, plays, hint, logits;
  std::vector<int> row, start, count;
  std::vector<std::vector<Mask>> legal;
  Scratch s;
};

// The unseen cards of seat *me* in *g*: not in its hand, not played, not the spare.
inline Mask unseen_of(const big2n::State& g, int me, Mask spare) {
  Mask seen = g.hands[me] | spare;
  for (int s = 0; s < g.n; ++s) seen |= g.played[s];
  return big2n::kDeck & ~seen;
}

// Fill w.state (one row per game of *games*, each a seat to move) and w.plays (their
// legal plays' features, w.start/w.count per game), w.legal.
BIG2_HOT inline void features(const Table& t, big2n::State* const* games, int ng, Work& w) {
  w.obs.resize(size_t(ng) * t.layout.size);
  w.state.resize(size_t(ng) * kState);
  w.legal.resize(std::max<size_t>(w.legal.size(), size_t(ng)));
  w.start.resize(ng);
  w.count.resize(ng);
  int total = 0;
  for (int i = 0; i < ng; ++i) {
    games[i]->legal(w.legal[i]);
    w.start[i] = total;
    w.count[i] = int(w.legal[i].size());
    total += w.count[i];
  }
  w.plays.resize(size_t(total) * kPlay);
  w.row.resize(total);
  w.hint.resize(size_t(std::max(total, 1)) * kHints);
  for (int i = 0; i < ng; ++i) {
    big2n::State& g = *games[i];
    int me = g.to_move;
    int8_t* obs = w.obs.data() + size_t(i) * t.layout.size;
    big2n::observe(g, t.layout, t.spare, obs);
    Mask hand = g.hands[me], unseen = unseen_of(g, me, t.spare);
    state_features(obs, hand, unseen, t.family, w.state.data() + size_t(i) * kState, t.plain);
    const std::vector<Mask>& legal = w.legal[i];
    float* hint = w.hint.data() + size_t(w.start[i]) * kHints;
    if (!t.plain) {
      int held[4];
      for (int k = 0; k < g.n; ++k) held[k] = popcount(g.hands[(me + k) % g.n]);
      hints(*t.config, t.style, hand, legal.data(), w.count[i], g.has_last ? g.last.mask : 0,
            held, g.n, unseen, hint);
    }
    for (int k = 0; k < w.count[i]; ++k) {
      int j = w.start[i] + k;
      w.row[j] = i;
      play_features(legal[k], hand, unseen, hint + size_t(k) * kHints,
                    w.plays.data() + size_t(j) * kPlay, t.plain);
    }
  }
}

// The logits of every legal play of *games* (w.logits, per w.start/w.count).
inline void logits(const Table& t, big2n::State* const* games, int ng, Work& w) {
  features(t, games, ng, w);
  const Net& net = *t.net;
  w.emb.resize(size_t(ng) * net.P);
  embed(net, w.state.data(), ng, w.emb.data(), w.s);
  int total = int(w.row.size());
  w.logits.resize(total);
  score_pairs(net, w.emb.data(), w.row.data(), w.plays.data(), total, w.logits.data(), w.s);
}

// The index of the play chosen among *n* logits: the first highest, or a draw from the
// softmax (u uniform in [0, 1)), as pnet.sample_plays.
inline int choose(const float* lg, int n, bool sample, double u) {
  int best = 0;
  for (int k = 1; k < n; ++k) if (lg[k] > lg[best]) best = k;
  if (!sample) return best;
  double total = 0, acc = 0;
  for (int k = 0; k < n; ++k) total += std::exp(double(lg[k]) - double(lg[best]));
  double target = u * total;
  for (int k = 0; k < n; ++k) {
    acc += std::exp(double(lg[k]) - double(lg[best]));
    if (acc > target) return k;
  }
  return n - 1;
}

// Every deal of *games* played on by the policy at every seat for *plies* plies
// (negative: to the end), all deals stepped together (one batched forward a ply).
BIG2_HOT inline void policy_plies(const Table& t, std::vector<big2n::State>& games, int plies, bool sample,
                         big2n::Rng& rng, Work& w) {
  std::vector<big2n::State*> live;
  for (auto& g : games) if (g.to_move >= 0) live.push_back(&g);
  for (int ply = 0; (plies < 0 || ply < plies) && !live.empty(); ++ply) {
    logits(t, live.data(), int(live.size()), w);
    for (size_t i = 0; i < live.size(); ++i) {
      int n = w.count[i];
      double u = sample ? double(rng.next() >> 11) * 0x1.0p-53 : 0.0;
      int k = n == 1 ? 0 : choose(w.logits.data() + w.start[i], n, sample, u);
      live[i]->apply(w.legal[i][k]);
    }
    live.erase(std::remove_if(live.begin(), live.end(),
                              [](big2n::State* g) { return g->to_move < 0; }),
               live.end());
  }
}

// The observation of *seat*, to move or not (big2.observation.encode_game): the core's
// observe() is the mover's; another seat sees the mover's relative seat and no must-card.
inline void observe_seat(const big2n::State& g, const ObsLayout& o, Mask spare, int8_t* out,
                         int seat) {
  big2n::observe(g, o, spare, out, seat);
  if (g.to_move == seat) return;
  out[o.to_move] = 0;
  if (g.to_move >= 0) out[o.to_move + (g.to_move - seat + g.n) % g.n] = 1;
  std::fill(out + o.must_contain, out + o.must_contain + 52, int8_t(0));
}

// The critic's value for *seat* of each unfinished deal (scores of a finished one),
// times *scale*: state features of the seat's observation and the hands of the three
// seats after it (pnet.ValueNet, hidden_hands).
BIG2_HOT inline void critic_values(const Table& t, const Mlp& critic, std::vector<big2n::State>& games,
                          int seat, double scale, double* out, Work& w) {
  std::vector<int> open;
  for (size_t i = 0; i < games.size(); ++i) {
    if (games[i].to_move < 0) out[i] = double(games[i].scores[seat]);
    else open.push_back(int(i));
  }
  if (open.empty()) return;
  int in = kState + 3 * 52;
  std::vector<float> x(open.size() * in, 0.0f), y, tmp;
  w.obs.resize(t.layout.size);
  for (size_t j = 0; j < open.size(); ++j) {
    const big2n::State& g = games[open[j]];
    observe_seat(g, t.layout, t.spare, w.obs.data(), seat);
    float* row = x.data() + j * in;
    state_features(w.obs.data(), g.hands[seat], unseen_of(g, seat, t.spare), t.family, row);
    for (int k = 1; k < g.n; ++k)
      for (Mask m = g.hands[(seat + k) % g.n]; m; m &= m - 1)
        row[kState + 52 * (k - 1) + big2n::lowbit(m)] = 1.0f;
  }
  mlp(critic, x.data(), int(open.size()), y, tmp);
  for (size_t j = 0; j < open.size(); ++j) out[open[j]] = double(y[j]) * scale;
}

}  // namespace big2p
