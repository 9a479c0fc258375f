// Python bindings of the policy network in the core (big2._policy; see policy.hpp).
// Reached from Python through big2.bots.policy.pnative alone, which checks the
// feature layout and falls back to NumPy where the core cannot play a rule set.
// The rule set's Config and the heuristic's Style are big2._native.bots's objects
// (pybind11 shares the types between the two extensions).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "py_policy.hpp"

namespace py = pybind11;
using big2n::Mask;
using big2p::Net;

namespace big2pb {

big2n::ObsLayout parse_layout(const py::dict& d) {
  big2n::ObsLayout o{};
  auto at = [&](const char* k) {
    if (!d.contains(k)) throw py::value_error(std::string("layout: missing ") + k);
    int v = d[k].cast<int>();
    if (v < 0 || v >= big2p::kObs) throw py::value_error(std::string("layout: ") + k);
    return v;
  };
  o.hand = at("hand"); o.played = at("played"); o.count = at("count"); o.passed = at("passed");
  o.last_play = at("last_play"); o.last_kind = at("last_kind"); o.last_player = at("last_player");
  o.leading = at("leading"); o.trick_leader = at("trick_leader"); o.to_move = at("to_move");
  o.must_contain = at("must_contain"); o.players = at("players"); o.spare = at("spare");
  o.stock = at("stock"); o.count_width = at("count_width");
  o.size = big2p::kObs;
  return o;
}

}  // namespace big2pb

using big2pb::parse_layout;

namespace {

using F32 = py::array_t<float, py::array::c_style | py::array::forcecast>;
using I64 = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;
using U64 = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>;

std::vector<float> take(const py::dict& d, const char* k, std::vector<py::ssize_t> shape) {
  if (!d.contains(k)) throw py::value_error(std::string("weights: missing ") + k);
  F32 a = d[k].cast<F32>();
  if (a.ndim() != py::ssize_t(shape.size()))
    throw py::value_error(std::string("weights: ") + k + " has the wrong number of dimensions");
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] >= 0 && a.shape(i) != shape[i])
      throw py::value_error(std::string("weights: ") + k + " has the wrong shape");
  return std::vector<float>(a.data(), a.data() + a.size());
}

std::shared_ptr<Net> make_net(const py::dict& d) {
  auto n = std::make_shared<Net>();
  if (!d.contains("s0_w") || !d.contains("a_w") || !d.contains("c_w"))
    throw py::value_error("weights: s0_w, a_w and c_w are needed");
  F32 s0 = d["s0_w"].cast<F32>(), a = d["a_w"].cast<F32>(), c = d["c_w"].cast<F32>();
  if (s0.ndim() != 2 || a.ndim() != 2 || c.ndim() != 2)
    throw py::value_error("weights: s0_w, a_w and c_w are matrices");
  n->H = int(s0.shape(1)); n->P = int(a.shape(1)); n->Q = int(c.shape(1));
  n->s0_w = take(d, "s0_w", {n->S, n->H});
  n->s0_b = take(d, "s0_b", {n->H});
  n->s1_w = take(d, "s1_w", {n->H, n->H});
  n->s1_b = take(d, "s1_b", {n->H});
  n->a_w = take(d, "a_w", {n->H, n->P});
  n->b_w = take(d, "b_w", {n->F, n->P});
  n->b_b = take(d, "b_b", {n->P});
  n->c_w = take(d, "c_w", {n->P, n->Q});
  n->c_b = take(d, "c_b", {n->Q});
  n->v_w = take(d, "v_w", {n->Q});
  return n;
}

std::shared_ptr<big2p::Mlp> make_mlp(const std::vector<F32>& ws, const std::vector<F32>& bs) {
  if (ws.empty() || ws.size() != bs.size())
    throw py::value_error("critic: as many bias vectors as weight matrices, at least one");
  auto m = std::make_shared<big2p::Mlp>();
  for (size_t l = 0; l < ws.size(); ++l) {
    if (ws[l].ndim() != 2 || bs[l].ndim() != 1 || bs[l].shape(0) != ws[l].shape(1))
      throw py::value_error("critic: layer " + std::to_string(l) + " has the wrong shape");
    if (l == 0) m->dims.push_back(int(ws[l].shape(0)));
    else if (ws[l].shape(0) != m->dims.back())
      throw py::value_error("critic: layer " + std::to_string(l) + " does not fit the last");
    m->dims.push_back(int(ws[l].shape(1)));
    m->w.emplace_back(ws[l].data(), ws[l].data() + ws[l].size());
    m->b.emplace_back(bs[l].data(), bs[l].data() + bs[l].size());
  }
  if (m->dims[0] != big2p::kState + 3 * 52)
    throw py::value_error("critic: takes " + std::to_string(big2p::kState + 3 * 52) + " inputs");
  if (m->dims.back() != 1) throw py::value_error("critic: one output");
  return m;
}

Mask mask_of(uint64_t m, const char* what) {
  if (m & ~big2n::kDeck)
    throw py::value_error(std::string(what) + ": holds a card number above 51");
  return m;
}

// A position without its hands (big2.bots.rules_based.native.Frame) and the table.
struct Position {
  int to_move = 0, last_player = -1;
  Mask must = 0, last = 0;
  unsigned passed = 0;
  std::vector<int> finished;
};

big2n::State state_of(const big2h::Config& c, const std::vector<uint64_t>& hands,
                      const Position& p) {
  const big2n::Tables& t = c.t();
  if (int(hands.size()) != t.players) throw py::value_error("hands: one mask a seat");
  if (p.to_move < 0 || p.to_move >= t.players) throw py::value_error("to_move: not a seat");
  if (int(p.finished.size()) >= t.players) throw py::value_error("finished: too many seats");
  Mask h[4] = {}; Mask seen = 0;
  for (int s = 0; s < t.players; ++s) {
    h[s] = mask_of(hands[s], "hands");
    if (h[s] & seen) throw py::value_error("hands: the same card is in two hands");
    seen |= h[s];
  }
  if (!h[p.to_move]) throw py::value_error("to_move: that seat holds no cards");
  big2n::State st;
  st.start(t, h, p.to_move, mask_of(p.must, "must"));
  if (p.last) {
    big2n::Play pl = t.classify(mask_of(p.last, "last"));
    if (!pl.kind) throw py::value_error("last: not a play under these rules");
    if (p.last_player < 0 || p.last_player >= t.players) throw py::value_error("last_player");
    st.has_last = true; st.last = pl; st.last_player = p.last_player;
  }
  st.passed = p.passed;
  for (int s : p.finished) {
    if (s < 0 || s >= t.players || h[s]) throw py::value_error("finished: a seat with cards");
    st.finished[st.nfinished++] = s;
  }
  return st;
}

Position position_of(const py::tuple& frame) {
  if (frame.size() != 6) throw py::value_error("frame: (to_move, must, last, last_player, passed, finished)");
  Position p;
  p.to_move = frame[0].cast<int>(); p.must = frame[1].cast<uint64_t>();
  p.last = frame[2].cast<uint64_t>(); p.last_player = frame[3].cast<int>();
  p.passed = frame[4].cast<unsigned>(); p.finished = frame[5].cast<std::vector<int>>();
  return p;
}

// Played cards per seat (the core's State keeps them; the frame does not carry them).
// and who led the trick (-1: none), as the observation reads them.
void set_public(big2n::State& st, const std::vector<uint64_t>& played, int trick_leader) {
  if (int(played.size()) != st.n) throw py::value_error("played: one mask a seat");
  for (int s = 0; s < st.n; ++s) st.played[s] = mask_of(played[s], "played");
  if (trick_leader < -1 || trick_leader >= st.n) throw py::value_error("trick_leader: not a seat");
  st.trick_leader = trick_leader;
}

// The table every call shares: net, rules, style, layout, spare, family.
struct Table {
  std::shared_ptr<Net> net;
  std::shared_ptr<big2h::Config> config;
  big2p::Table t;
};

std::shared_ptr<Table> make_table(std::shared_ptr<Net> net, py::object config, py::object style,
                                  const py::dict& layout, uint64_t spare, int family) {
  if (!net) throw py::value_error("net: None");
  auto tb = std::make_shared<Table>();
  tb->net = std::move(net);
  tb->config = config.cast<std::shared_ptr<big2h::Config>>();
  if (!tb->config) throw py::value_error("config: None");
  tb->t.net = tb->net.get();
  tb->t.config = tb->config.get();
  tb->t.style = style.cast<big2h::Style>();
  tb->t.layout = parse_layout(layout);
  tb->t.spare = mask_of(spare, "spare");
  if (family < 0 || family >= big2p::kFamilies) throw py::value_error("family: 0 or 1");
  tb->t.family = family;
  return tb;
}

}  // namespace

PYBIND11_MODULE(_policy, m) {
  m.doc() = "The policy network's forward pass and the policy play-out in the core (policy.hpp).";
  py::module_::import("big2._native");  // the Config and Style types are registered there
  m.attr("STATE_FEATURES") = big2p::kState;
  m.attr("PLAY_FEATURES") = big2p::kPlay;
  m.attr("OBS_SIZE") = big2p::kObs;
  m.attr("HINT") = big2p::kHint;
  m.attr("ABOVE") = big2p::kAbove;
  m.attr("RAW_STATE") = big2p::kRawState;

  py::class_<Net, std::shared_ptr<Net>>(m, "Net", "The actor's weights (pnet.NAMES, float32).")
      .def(py::init(&make_net), py::arg("weights"))
      .def("embed", [](const Net& n, F32 state) {
             if (state.ndim() != 2 || state.shape(1) != n.S)
               throw py::value_error("state: (N, " + std::to_string(n.S) + ") expected");
             int rows = int(state.shape(0));
             py::array_t<float> out({py::ssize_t(rows), py::ssize_t(n.P)});
             {
               py::gil_scoped_release release;
               big2p::Scratch s;
               big2p::embed(n, state.data(), rows, out.mutable_data(), s);
             }
             return out;
           }, py::arg("state"), "(N, pair): PolicyNet.embed.")
      .def("logits", [](const Net& n, F32 state, F32 plays, I64 rows) {
             if (state.ndim() != 2 || state.shape(1) != n.S)
               throw py::value_error("state: (N, " + std::to_string(n.S) + ") expected");
             if (plays.ndim() != 2 || plays.shape(1) != n.F)
               throw py::value_error("plays: (K, " + std::to_string(n.F) + ") expected");
             if (rows.ndim() != 1 || rows.shape(0) != plays.shape(0))
               throw py::value_error("rows: one a play");
             int ns = int(state.shape(0)), np_ = int(plays.shape(0));
             std::vector<int> r(np_);
             for (int k = 0; k < np_; ++k) {
               int64_t v = rows.data()[k];
               if (v < 0 || v >= ns) throw py::value_error("rows: not a state");
               r[k] = int(v);
             }
             py::array_t<float> out(np_);
             {
               py::gil_scoped_release release;
               big2p::Scratch s;
               std::vector<float> emb(size_t(ns) * n.P);
               big2p::embed(n, state.data(), ns, emb.data(), s);
               big2p::score_pairs(n, emb.data(), r.data(), plays.data(), np_, out.mutable_data(),
                                  s);
             }
             return out;
           }, py::arg("state"), py::arg("plays"), py::arg("rows"),
           "(K,): each play's score against its state's embedding (PolicyNet.embed, "
           "score_pairs).");

  py::class_<big2p::Mlp, std::shared_ptr<big2p::Mlp>>(m, "Critic", "The critic (pnet.ValueNet).")
      .def(py::init(&make_mlp), py::arg("weights"), py::arg("biases"));

  py::class_<Table, std::shared_ptr<Table>>(m, "Table",
      "What a decision's deals share: net, rule set (big2._native.bots.Config), the "
      "heuristic's Style, the observation layout, the spare card, the family.")
      .def(py::init(&make_table), py::arg("net"), py::arg("config"), py::arg("style"),
           py::arg("layout"), py::arg("spare"), py::arg("family"));

  m.def("decide", [](Table& tb, const std::vector<uint64_t>& hands, py::tuple frame,
                     const std::vector<uint64_t>& played, int trick_leader) {
        Position p = position_of(frame);
        big2n::State st = state_of(*tb.config, hands, p);
        set_public(st, played, trick_leader);
        big2p::Work w;
        big2n::State* g = &st;
        {
          py::gil_scoped_release release;
          big2p::logits(tb.t, &g, 1, w);
        }
        int n = w.count[0];
        py::array_t<float> state({py::ssize_t(1), py::ssize_t(big2p::kState)});
        std::copy(w.state.begin(), w.state.end(), state.mutable_data());
        py::array_t<float> plays({py::ssize_t(n), py::ssize_t(big2p::kPlay)});
        std::copy(w.plays.begin(), w.plays.end(), plays.mutable_data());
        py::array_t<float> lg(n);
        std::copy(w.logits.begin(), w.logits.end(), lg.mutable_data());
        return py::make_tuple(w.legal[0], lg, state, plays);
      }, py::arg("table"), py::arg("hands"), py::arg("frame"), py::arg("played"),
      py::arg("trick_leader"), "(legal, logits, state features, play features) of the seat to move.");

  m.def("play_outs", [](Table& tb, const std::vector<std::vector<uint64_t>>& worlds,
                        py::tuple frame, const std::vector<uint64_t>& played,
                        int trick_leader, const std::vector<uint64_t>& cands, int seat, int plies, bool sample,
                        uint64_t seed, const std::vector<unsigned>& greedy,
                        std::shared_ptr<big2p::Mlp> critic, double scale) {
        Position p = position_of(frame);
        if (greedy.size() != worlds.size()) throw py::value_error("greedy: one a world");
        std::vector<big2n::State> games;
        games.reserve(worlds.size() * cands.size());
        std::vector<Mask> legal;
        for (const auto& hands : worlds) {
          big2n::State base = state_of(*tb.config, hands, p);
          set_public(base, played, trick_leader);
          if (seat < 0 || seat >= base.n) throw py::value_error("seat: not a seat");
          base.legal(legal);
          for (uint64_t c : cands) {
            if (std::find(legal.begin(), legal.end(), Mask(c)) == legal.end())
              throw py::value_error("cands: not a legal play now");
            games.push_back(base);
            games.back().apply(c);
          }
        }
        py::array_t<double> out({py::ssize_t(worlds.size()), py::ssize_t(cands.size())});
        double* o = out.mutable_data();
        {
          py::gil_scoped_release release;
          big2p::Work w;
          big2n::Rng rng(seed);
          big2p::policy_plies(tb.t, games, plies, sample, rng, w);
          if (critic) {
            big2p::critic_values(tb.t, *critic, games, seat, scale, o, w);
          } else {
            size_t nc = cands.size();
            for (size_t i = 0; i < games.size(); ++i) {
              if (games[i].to_move >= 0)
                big2h::rollout(*tb.config, tb.t.style, games[i], greedy[i / nc]);
              o[i] = double(games[i].scores[seat]);
            }
          }
        }
        return out;
      }, py::arg("table"), py::arg("worlds"), py::arg("frame"), py::arg("played"),
      py::arg("trick_leader"), py::arg("cands"), py::arg("seat"), py::arg("plies"), py::arg("sample"), py::arg("seed"),
      py::arg("greedy"), py::arg("critic"), py::arg("scale"),
      "(worlds, candidates): *seat*'s value of each candidate in each world: the candidate "
      "made, the policy at every seat for *plies* plies (negative: to the end; sampled or "
      "its most probable play), then the heuristic to the end (greedy seats per world), or "
      "the critic times *scale* (critic given).");

  big2pb::register_collect(m);
}
