// Bindings of the two-deck core (engine_wide.hpp): big2._native.WideTables and the
// listing and reading of plays on 128-bit masks (the deal: WideState, in
// state_bindings.cpp).  Every argument is checked, as in bindings.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine_wide.hpp"
#include "py_mask.hpp"

namespace py = pybind11;
using big2n::Tables;
using namespace big2w;

namespace {

constexpr int kPlayShift = 108;  // big2.variant.keys.PLAY_SHIFT

// power << PLAY_SHIFT | mask as a Python int.
py::object encode(const WPlay& p) {
  if (p.power < 0) {  // a valueless joker (power -1): a negative int, made by Python
    PyObject* m = big2n::wide_to_py(p.mask);
    if (!m) throw py::error_already_set();
    py::object mask = py::reinterpret_steal<py::object>(m);
    return (py::int_(p.power).attr("__lshift__")(kPlayShift)).attr("__or__")(mask);
  }
  unsigned char buf[24] = {};
  uint64_t lo = uint64_t(p.mask), hi = uint64_t(p.mask >> 64);
  std::memcpy(buf, &lo, 8);  // little-endian hosts (x86-64, aarch64)
  std::memcpy(buf + 8, &hi, 8);
  uint64_t pw = uint64_t(p.power) << (kPlayShift % 8);
  unsigned char pb[8];
  std::memcpy(pb, &pw, 8);
  for (int i = 0; i < 8 && kPlayShift / 8 + i < 24; ++i) buf[kPlayShift / 8 + i] |= pb[i];
#if PY_VERSION_HEX >= 0x030D0000
  PyObject* o = PyLong_FromUnsignedNativeBytes(buf, sizeof buf, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
  PyObject* o = _PyLong_FromByteArray(buf, sizeof buf, 1, 0);
#endif
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

std::shared_ptr<WideTables> make_wide(const Tables& base, const std::vector<int64_t>& rank_power,
                                      const std::vector<bool>& rank_ok, int players,
                                      const std::vector<int>& after,
                                      const std::vector<int>& multiplier, py::handle deck,
                                      const std::vector<int64_t>& joker_power) {
  auto t = std::make_shared<WideTables>();
  t->base = base;
  t->deck = big2n::wide_mask(deck, "deck");
  if (big2w::first(t->deck) != big2w::k52 || (t->deck & ~big2w::kWideAll))
    throw py::value_error("deck: the 52 cards, with jokers and a second deck or not");
  t->valueless = big2w::joker_names(t->deck) != 0;
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
      "A two-deck or valueless-joker rule set compiled for the core "
      "(big2.variant.native.compile_wide): the one-deck tables of its plays, the powers of "
      "one-rank plays by suit multiset, the deck (jokers are valueless singles of "
      "joker_power), and the seats' order and scoring multipliers for 2 to 8 players.")
      .def(py::init(&make_wide), py::arg("base"), py::arg("rank_power"), py::arg("rank_ok"),
           py::arg("players"), py::arg("after"), py::arg("multiplier"), py::arg("deck"),
           py::arg("joker_power"))
      .def_property_readonly("players", [](const WideTables& t) { return t.players; });

  m.def("wide_classify", [](const WideTables& t, py::handle mask) -> py::object {
        WPlay p = t.classify(big2n::wide_mask_in(mask, "mask", t.deck));
        if (!p.kind) return py::none();
        return py::make_tuple(p.kind, p.power);
      }, py::arg("tables"), py::arg("mask"),
      "(kind, power) of the play two-deck *mask* makes, or None.");

  m.def("wide_hand_plays", [](const WideTables& t, py::handle hand) {
        WMask h = big2n::wide_mask_in(hand, "hand", t.deck);
        WideHandPlays hp;
        generate(t, h, hp);
        py::list out;
        for (int s = 1; s <= 5; ++s) {
          py::list g(hp.groups[s].size());
          for (size_t i = 0; i < hp.groups[s].size(); ++i) g[i] = encode(hp.groups[s][i]);
          out.append(g);
        }
        return out;
      }, py::arg("tables"), py::arg("hand"),
      "Every play of two-deck *hand* by size 1..5, once per set of card names (the lowest "
      "copies held), encoded power << PLAY_SHIFT | mask, in the generic engine's order.");

  m.def("wide_bombs_held", [](const WideTables& t, py::handle hand) {
        return bombs_held(t, big2n::wide_mask_in(hand, "hand", t.deck));
      }, py::arg("tables"), py::arg("hand"));
}
