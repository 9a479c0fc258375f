// Python bindings of the heuristic bot's core (big2._native.bots; see
// heuristic.hpp).  Reached from Python through big2.bots.rules_based.native alone, which
// compiles a rule set's Config once and falls back to Python where the core
// does not play the rule set.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "heuristic.hpp"

namespace py = pybind11;
using big2h::Config;
using big2h::Style;
using big2n::Mask;
using big2n::Tables;

namespace {

Mask mask_of(uint64_t m, const char* what) {
  if (m & ~big2n::kDeck)
    throw py::value_error(std::string(what) + ": holds a card number above 51");
  return m;
}

std::shared_ptr<Config> make_config(std::shared_ptr<Tables> tables, const std::vector<int>& suit_rank,
                                    bool suited, const std::vector<int>& five_kinds, bool hands_grow,
                                    const std::vector<std::string>& barred, int longest_play) {
  if (!tables) throw py::value_error("tables: None");
  if (suit_rank.size() != 4) throw py::value_error("suit_rank: four positions expected");
  auto c = std::make_shared<Config>();
  c->tables = std::move(tables);
  for (int s = 0; s < 4; ++s) {
    if (suit_rank[s] < 0 || suit_rank[s] > 3) throw py::value_error("suit_rank: positions 0..3");
    c->suit_rank[s] = suit_rank[s];
  }
  c->suited = suited;
  c->hands_grow = hands_grow;
  for (const auto& b : barred) {
    if (b == "any-2") c->bar_any2 = true;
    else if (b == "single-2") c->bar_single2 = true;
    else if (b == "pair-2") c->bar_pair2 = true;
    else if (b == "2S") c->bar_2s = true;
    else throw py::value_error("barred: unknown finish restriction " + b);
  }
  c->longest = longest_play;
  c->build(five_kinds);
  return c;
}

std::vector<int> counts_of(const std::vector<int>& counts) {
  if (counts.empty() || counts.size() > 4) throw py::value_error("counts: one count a seat (2-4)");
  return counts;
}

// A deal's position as the core steps it, checked (see big2.bots.rules_based.native.rollout).
big2n::State position(Config& c, const std::vector<uint64_t>& hands, int to_move, uint64_t must,
                      uint64_t last, int last_player, unsigned passed,
                      const std::vector<int>& finished) {
  const Tables& t = c.t();
  if (int(hands.size()) != t.players) throw py::value_error("hands: one mask a seat");
  if (to_move < 0 || to_move >= t.players) throw py::value_error("to_move: not a seat");
  if (int(finished.size()) >= t.players) throw py::value_error("finished: too many seats");
  Mask h[4] = {}; Mask seen = 0;
  for (int s = 0; s < t.players; ++s) {
    h[s] = mask_of(hands[s], "hands");
    if (h[s] & seen) throw py::value_error("hands: the same card is in two hands");
    seen |= h[s];
  }
  if (!h[to_move]) throw py::value_error("to_move: that seat holds no cards");
  big2n::State st;
  st.start(t, h, to_move, mask_of(must, "must"));
  if (last) {
    big2n::Play p = t.classify(mask_of(last, "last"));
    if (!p.kind) throw py::value_error("last: not a play under these rules");
    if (last_player < 0 || last_player >= t.players) throw py::value_error("last_player");
    st.has_last = true; st.last = p; st.last_player = last_player;
  }
  st.passed = passed;
  for (int s : finished) {
    if (s < 0 || s >= t.players || h[s]) throw py::value_error("finished: a seat with cards");
    st.finished[st.nfinished++] = s;
  }
  return st;
}

}  // namespace

void register_bots(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "bots", "The heuristic bot's decision and the expert's play-out (heuristic.hpp).");

  py::class_<Config, std::shared_ptr<Config>>(m, "Config",
      "A rule set as the heuristic reads it (built by big2.bots.rules_based.native).")
      .def(py::init(&make_config), py::arg("tables"), py::arg("suit_rank"), py::arg("suited"),
           py::arg("five_kinds"), py::arg("hands_grow"), py::arg("barred"),
           py::arg("longest_play"))
      .def("cache_size", [](const Config& c) { return c.cache[0].size() + c.cache[1].size(); });

  py::class_<Style>(m, "Style", "The heuristic's switches and thresholds (planning.Style).")
      .def(py::init([](bool all_kinds, bool go_out, int hold_two_above, int hold_two_plays,
                       double break_limit, double break_limit_danger, int low_cards) {
             Style s;
             s.all_kinds = all_kinds; s.go_out = go_out; s.hold_two_above = hold_two_above;
             s.hold_two_plays = hold_two_plays; s.break_limit = break_limit;
             s.break_limit_danger = break_limit_danger; s.low_cards = low_cards;
             return s;
           }),
           py::arg("all_kinds"), py::arg("go_out"), py::arg("hold_two_above"),
           py::arg("hold_two_plays"), py::arg("break_limit"), py::arg("break_limit_danger"),
           py::arg("low_cards"));

  m.def("plan", [](Config& c, uint64_t hand, bool all_kinds) {
        Mask h = mask_of(hand, "hand");
        big2h::Plan p = big2h::plan(c, h, all_kinds);
        Mask combos[52];
        int n = big2h::plan_combos(c, h, p, combos);
        return py::make_tuple(std::vector<Mask>(combos, combos + n), p.cost);
      }, py::arg("config"), py::arg("hand"), py::arg("all_kinds"),
      "(plays, cost) of planning.plan.");

  m.def("heuristic_play", [](Config& c, const Style& style, int seat, uint64_t hand,
                             const std::vector<uint64_t>& legal, uint64_t last,
                             const std::vector<int>& counts, uint64_t unseen) {
        std::vector<int> cs = counts_of(counts);
        if (seat < 0 || seat >= int(cs.size())) throw py::value_error("seat: not a seat");
        mask_of(hand, "hand"); mask_of(last, "last"); mask_of(unseen, "unseen");
        for (uint64_t l : legal) mask_of(l, "legal");
        return big2h::heuristic_play(c, style, seat, hand, legal.data(), int(legal.size()), last,
                                     cs.data(), int(cs.size()), unseen);
      }, py::arg("config"), py::arg("style"), py::arg("seat"), py::arg("hand"), py::arg("legal"),
      py::arg("last"), py::arg("counts"), py::arg("unseen"),
      "planning.heuristic_play on plain values.");

  m.def("rollout", [](Config& c, const Style& style, const std::vector<uint64_t>& hands,
                      int to_move, uint64_t must, uint64_t last, int last_player, unsigned passed,
                      const std::vector<int>& finished, unsigned greedy_seats) {
        big2n::State st = position(c, hands, to_move, must, last, last_player, passed, finished);
        big2h::rollout(c, style, st, greedy_seats);
        return std::vector<int64_t>(st.scores, st.scores + st.n);
      }, py::arg("config"), py::arg("style"), py::arg("hands"), py::arg("to_move"),
      py::arg("must"), py::arg("last"), py::arg("last_player"), py::arg("passed"),
      py::arg("finished"), py::arg("greedy_seats"),
      "Play a position to the end (expert.rollout): the final scores.");

  m.def("play_outs", [](Config& c, const Style& style, const std::vector<uint64_t>& hands,
                        int to_move, uint64_t must, uint64_t last, int last_player,
                        unsigned passed, const std::vector<int>& finished,
                        const std::vector<uint64_t>& firsts, unsigned greedy_seats) {
        big2n::State base = position(c, hands, to_move, must, last, last_player, passed, finished);
        std::vector<Mask> legal;
        base.legal(legal);
        std::vector<std::vector<int64_t>> out;
        for (uint64_t first : firsts) {
          if (std::find(legal.begin(), legal.end(), Mask(first)) == legal.end())
            throw py::value_error("firsts: not a legal play now");
          big2n::State st = base;
          st.apply(first);
          big2h::rollout(c, style, st, greedy_seats);
          out.emplace_back(st.scores, st.scores + st.n);
        }
        return out;
      }, py::arg("config"), py::arg("style"), py::arg("hands"), py::arg("to_move"),
      py::arg("must"), py::arg("last"), py::arg("last_player"), py::arg("passed"),
      py::arg("finished"), py::arg("firsts"), py::arg("greedy_seats"),
      "For each legal play in firsts: make it, play the position to the end "
      "(expert.rollout), and give the final scores.");
}
