// big2._native.FirstOut: the first-out AND-OR search (first_out.hpp) for Python
// (big2.variant.native.first_out, big2.puzzles.solve).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "first_out.hpp"
#include "py_mask.hpp"

namespace py = pybind11;
using namespace big2n;

namespace {

// A position as Python states it: (hands, to_move, last, last_player, passed, must,
// lead_passes, waive), -1 / 0 where there is none.
using Spot = std::tuple<std::vector<py::object>, int, py::object, int, unsigned, py::object, int,
                        bool>;

OutNode node_of(const Tables& t, const Spot& spot) {
  const auto& [hands, to_move, last, last_player, passed, must, lead_passes, waive] = spot;
  OutNode s;
  s.t = &t; s.n = t.players;
  if (int(hands.size()) != t.players)
    throw py::value_error("hands: " + std::to_string(t.players) + " expected, got " +
                          std::to_string(hands.size()));
  Mask seen = 0;
  for (int i = 0; i < t.players; ++i) {
    s.hands[i] = to_mask(hands[i], "hands");
    if (s.hands[i] & seen) throw py::value_error("hands: a card held twice");
    seen |= s.hands[i];
  }
  if (to_move < 0 || to_move >= t.players || !s.hands[to_move])
    throw py::value_error("to_move: not a seat holding cards");
  Mask l = to_mask(last, "last");
  if (l) {
    s.last = t.classify(l);
    if (!s.last.kind) throw py::value_error("last: not a play under these rules");
    if (last_player < 0 || last_player >= t.players)
      throw py::value_error("last_player: not a seat");
    s.has_last = true; s.last_player = last_player;
  }
  if (passed >> t.players) throw py::value_error("passed: a bit beyond the seats");
  s.to_move = to_move; s.passed = passed; s.must = to_mask(must, "must");
  s.lead_passes = lead_passes; s.waive = waive;
  return s;
}

unsigned side_of(const Tables& t, unsigned side) {
  if (!side || side >> t.players) throw py::value_error("side: a non-empty set of seats");
  return side;
}

struct Solver {
  std::shared_ptr<Tables> tables;
  FirstOut search;
  Solver(std::shared_ptr<Tables> t, int bits) : tables(std::move(t)), search(*tables, bits) {}
};

}  // namespace

void register_first_out(py::module_& m) {
  py::class_<Solver>(m, "FirstOut",
      "Who goes out first, every hand known: an AND-OR search with a transposition table "
      "(first_out.hpp; big2.puzzles.solve holds the Python reference).  A position is "
      "(hands, to_move, last, last_player, passed, must, lead_passes, waive); a side is a "
      "bit per seat.  A method past the node budget raises RuntimeError.")
      .def(py::init([](std::shared_ptr<Tables> t, int table_bits) {
             if (table_bits < 8 || table_bits > 28)
               throw py::value_error("table_bits: 8 to 28");
             return new Solver(std::move(t), table_bits);
           }), py::arg("tables"), py::arg("table_bits") = 20)
      .def_property("budget", [](const Solver& s) { return s.search.budget; },
                    [](Solver& s, uint64_t b) { s.search.budget = b; },
                    "The most positions one call may expand (0: no limit).")
      .def_property_readonly("nodes", [](const Solver& s) { return s.search.nodes; },
                             "Positions expanded by this solver so far.")
      .def("clear", [](Solver& s) { s.search.clear(); }, "Empty the transposition table.")
      .def("wins", [](Solver& s, const Spot& spot, unsigned side, int depth) {
             OutNode n = node_of(*s.tables, spot);
             side = side_of(*s.tables, side);
             bool got;
             {
               py::gil_scoped_release release;
               got = s.search.wins(n, side, depth);
             }
             if (s.search.aborted) throw std::runtime_error("past the node budget");
             return got;
           }, py::arg("spot"), py::arg("side"), py::arg("depth") = int(FirstOut::kUnbounded),
           "Whether *side* goes out first from *spot* within *depth* actions, whatever the "
           "other seats do.")
      .def("after_each", [](Solver& s, const Spot& spot, unsigned side) {
             OutNode n = node_of(*s.tables, spot);
             side = side_of(*s.tables, side);
             std::vector<Play> plays;
             s.search.legal(n, plays);
             std::vector<std::pair<Mask, bool>> out;
             {
               py::gil_scoped_release release;
               for (const Play& p : plays) {
                 OutNode c = n; c.apply(p);
                 bool won = c.first_out >= 0 ? (side >> c.first_out & 1)
                                             : s.search.wins(c, side, FirstOut::kUnbounded);
                 if (s.search.aborted) break;
                 out.emplace_back(p.mask, won);
               }
             }
             if (s.search.aborted) throw std::runtime_error("past the node budget");
             return out;
           }, py::arg("spot"), py::arg("side"),
           "Each legal play of the seat to move (the Game's order) with whether *side* goes "
           "out first after it.")
      .def("hidden", [](Solver& s, const Spot& spot, unsigned side, int64_t max_deals) {
             OutNode n = node_of(*s.tables, spot);
             side = side_of(*s.tables, side);
             std::vector<Play> plays;
             s.search.legal(n, plays);
             std::vector<char> alive;
             std::vector<std::vector<Mask>> counter;
             int64_t tried;
             {
               py::gil_scoped_release release;
               tried = s.search.hidden(n, side, plays, alive, counter, max_deals);
             }
             if (tried < 0) throw std::runtime_error("past the node budget or max_deals");
             py::list out;
             for (size_t k = 0; k < plays.size(); ++k)
               out.append(py::make_tuple(plays[k].mask, bool(alive[k]), counter[k]));
             return py::make_tuple(tried, out);
           }, py::arg("spot"), py::arg("side"), py::arg("max_deals"),
           "The seat to move sees its own hand and the others' counts: (deals tried, [(play, "
           "wins in every deal tried, the first deal's hands where it does not)]) over the "
           "deals of the others' cards (together) with their counts, stopping once no play "
           "wins in all.")
      .def("distance", [](Solver& s, const Spot& spot, unsigned side) {
             OutNode n = node_of(*s.tables, spot);
             side = side_of(*s.tables, side);
             int d;
             {
               py::gil_scoped_release release;
               d = s.search.distance(n, side);
             }
             if (d == -2) throw std::runtime_error("past the node budget");
             return d;
           }, py::arg("spot"), py::arg("side"),
           "The fewest actions in which *side* goes out first against the longest "
           "resistance, or -1 when it does not.")
      .def("line", [](Solver& s, const Spot& spot, unsigned side) {
             OutNode n = node_of(*s.tables, spot);
             side = side_of(*s.tables, side);
             std::vector<std::pair<int, Mask>> out;
             bool ok;
             {
               py::gil_scoped_release release;
               ok = s.search.line(n, side, out);
             }
             if (!ok) throw std::runtime_error("past the node budget");
             return out;
           }, py::arg("spot"), py::arg("side"),
           "The line (seat, mask) by which *side* goes out first: its seats the quickest "
           "win, the others the longest resistance; empty when it does not win.");
}
