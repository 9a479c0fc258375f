// Bindings of the two-deck core (engine_extended.hpp): big2._native.WideTables and the
// listing and reading of plays on 128-bit masks (the deal: WideState, in
// state_bindings.cpp).  Every argument is checked, as in bindings.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "wide_state.hpp"
#include "py_mask.hpp"

namespace py = pybind11;
using big2n::Tables;
using namespace big2w;

namespace {

using big2n::kPlayShift;

// power << PLAY_SHIFT | mask as a Python int.
py::object encode(const WPlay& p) {
  if (p.power < 0) {  // a valueless joker (power -1): a negative int, made by Python
    PyObject* m = big2n::wide_to_py(p.mask);
    if (!m) throw py::error_already_set();
    py::object mask = py::reinterpret_steal<py::object>(m);
    return (py::int_(p.power).attr("__lshift__")(kPlayShift)).attr("__or__")(mask);
  }
  PyObject* o = big2n::encoded_play(uint64_t(p.mask), uint64_t(p.mask >> 64), p.power);
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

std::shared_ptr<WideTables> make_wide(const Tables& base, const std::vector<int64_t>& rank_power,
                                      const std::vector<bool>& rank_ok, int players,
                                      const std::vector<int>& after,
                                      const std::vector<int>& multiplier, py::handle deck,
                                      const std::vector<int64_t>& joker_power, bool wild,
                                      const std::vector<int64_t>& kind_base,
                                      const std::vector<int>& kind_order,
                                      const std::vector<int>& suit_pos, bool suited,
                                      bool five_of_a_kind) {
  auto t = std::make_shared<WideTables>();
  t->base = base;
  t->deck = big2n::wide_mask(deck, "deck");
  if (big2w::first(t->deck) != big2w::k52 || (t->deck & ~big2w::kWideAll))
    throw py::value_error("deck: the 52 cards, with jokers and a second deck or not");
  t->valueless = big2w::joker_names(t->deck) != 0 && !wild;
  t->one_deck = big2w::second(t->deck) == 0;
  if (wild) {
    if (!big2w::joker_names(t->deck)) throw py::value_error("wild: the deck holds no jokers");
    if (kind_base.size() != 16 || kind_order.size() != 16 || suit_pos.size() != 4)
      throw py::value_error("kind_base, kind_order: 16 values; suit_pos: 4");
    auto& w = t->wk;
    w.on = true; w.suited = suited; w.five_kind = five_of_a_kind;
    for (int i = 0; i < 16; ++i) { w.kind_base[i] = kind_base[size_t(i)]; w.kind_order[i] = kind_order[size_t(i)]; }
    for (int s = 0; s < 4; ++s) {
      if (suit_pos[size_t(s)] < 0 || suit_pos[size_t(s)] > 3) throw py::value_error("suit_pos: 0 to 3");
      w.pos[s] = suit_pos[size_t(s)];
    }
  }
  if (joker_power.size() != 2) throw py::value_error("joker_power: expected 2 values");
  t->joker_power[0] = joker_power[0];
  t->joker_power[1] = joker_power[1];
  if (rank_power.size() != 13 * 256 || rank_ok.size() != 13 * 256)
    throw py::value_error("rank_power, rank_ok: expected 13 * 256 values");
  for (int r = 0; r < 13; ++r)
    for (int i = 0; i < 256; ++i) {
      t->rank_power[r][i] = rank_power[size_t(r * 256 + i)];
      t->rank_ok[r][i] = rank_ok[size_t(r * 256 + i)];
    }
  if (players < 2 || players > kSeats) throw py::value_error("players: 2 to 8");
  t->players = players;
  if (after.size() != size_t(players * players)) throw py::value_error("after: players² seats");
  for (int s = 0; s < players; ++s)
    for (int k = 0; k < players; ++k) {
      int v = after[size_t(s * players + k)];
      if (v < 0 || v >= players) throw py::value_error("after: not a seat");
      t->after[s][k] = v;
    }
  if (multiplier.size() != size_t(kWideCards + 1))
    throw py::value_error("multiplier: expected 105 values");
  std::copy(multiplier.begin(), multiplier.end(), t->multiplier);
  return t;
}

}  // namespace

void register_wide(py::module_& m) {
  py::class_<WideTables, std::shared_ptr<WideTables>>(m, "WideTables",
      "A two-deck or joker rule set compiled for the core "
      "(big2.variant.native.compile_wide): the one-deck tables of its plays, the powers of "
      "one-rank plays by suit multiset, the deck (a joker alone is a single of "
      "joker_power; wild ones read by kind_base, kind_order, suit_pos, suited and "
      "five_of_a_kind), and the seats' order and scoring multipliers for 2 to 8 players.")
      .def(py::init(&make_wide), py::arg("base"), py::arg("rank_power"), py::arg("rank_ok"),
           py::arg("players"), py::arg("after"), py::arg("multiplier"), py::arg("deck"),
           py::arg("joker_power"), py::arg("wild") = false,
           py::arg("kind_base") = std::vector<int64_t>(16), py::arg("kind_order") = std::vector<int>(16),
           py::arg("suit_pos") = std::vector<int>{0, 1, 2, 3}, py::arg("suited") = true,
           py::arg("five_of_a_kind") = false)
      .def_property_readonly("players", [](const WideTables& t) { return t.players; });

  m.def("wide_classify", [](const WideTables& t, py::handle mask) -> py::object {
        WPlay p = t.classify(big2n::wide_mask_in(mask, "mask", t.deck));
        if (!p.kind) return py::none();
        return py::make_tuple(p.kind, p.power);
      }, py::arg("tables"), py::arg("mask"),
      "(kind, power) of the play two-deck *mask* makes, or None.");

  m.def("wide_readings", [](const WideTables& t, py::handle mask) {
        WPlay p; p.mask = big2n::wide_mask_in(mask, "mask", t.deck);
        py::list out;
        if (!t.wk.on || !big2w::joker_names(p.mask) || wpop(p.mask) == 1) {
          p = t.classify(p.mask);
          if (p.kind) out.append(py::make_tuple(p.kind, p.power));
          return out;
        }
        Reading rd[kMaxReads];
        int k = t.read_wild(p, rd);
        for (int i = 0; i < k; ++i) out.append(py::make_tuple(rd[i].kind, rd[i].power));
        return out;
      }, py::arg("tables"), py::arg("mask"),
      "Every reading (kind, power) of *mask*, strongest first: with wild jokers a set may "
      "read as several plays; otherwise classify()'s one, or none.");

  m.def("wide_hand_plays", [](const WideTables& t, py::handle hand) {
        WMask h = big2n::wide_mask_in(hand, "hand", t.deck);
        WideHandPlays hp;
        generate(t, h, hp);
        return big2n::group_lists(hp, encode);
      }, py::arg("tables"), py::arg("hand"),
      "Every play of two-deck *hand* by size 1..5, once per set of card names (the lowest "
      "copies held), encoded power << PLAY_SHIFT | mask, in the generic engine's order.");

  m.def("wide_follows", [](const WideTables& t, py::handle hand, py::handle mask, int kind,
                           int64_t power) {
        WideHandPlays hp;
        generate(t, big2n::wide_mask_in(hand, "hand", t.deck), hp);
        WPlay last; last.mask = big2n::wide_mask_in(mask, "mask", t.deck);
        last.kind = kind; last.power = power;
        py::list out;
        for_each_follow(t, hp, last, [&](const WPlay& p) {
          out.append(py::make_tuple(py::reinterpret_steal<py::object>(big2n::wide_to_py(p.mask)),
                                    p.kind, p.power));
        });
        return out;
      }, py::arg("tables"), py::arg("hand"), py::arg("mask"), py::arg("kind"), py::arg("power"),
      "The plays of *hand* that may follow *mask* read as (*kind*, *power*), in listing "
      "order, each as (cards, kind, power): with wild jokers the reading it is played as.");

  m.def("wide_bombs_held", [](const WideTables& t, py::handle hand) {
        return bombs_held(t, big2n::wide_mask_in(hand, "hand", t.deck));
      }, py::arg("tables"), py::arg("hand"));
}
