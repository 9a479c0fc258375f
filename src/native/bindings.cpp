// Python bindings of the compiled core (module big2._native), with pybind11.
//
// Every value that crosses the boundary is checked here: a mask must be a
// non-negative int of cards 0..51, a hand list must have one mask per seat, a
// table must have its length; anything else raises TypeError or ValueError
// naming the problem, never a crash.  Loops over many deals release the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "deal.hpp"
#include "py_mask.hpp"

void register_poker(pybind11::module_& parent);  // poker_bindings.cpp: big2._native.poker
void register_bots(pybind11::module_& parent);   // bots_bindings.cpp: big2._native.bots
void register_state(pybind11::module_& m);       // state_bindings.cpp: big2._native.State
void register_wide(pybind11::module_& m);        // wide_bindings.cpp: two decks
void register_batch(pybind11::module_& m);       // batch_bindings.cpp: big2._native.Batch
void register_first_out(pybind11::module_& m);   // first_out_bindings.cpp: big2._native.FirstOut

namespace py = pybind11;
using namespace big2n;

namespace {


// power << PLAY_SHIFT | mask as a Python int (wider than 64 bits).
py::object encode(const Play& p) {
  PyObject* o = encoded_play(p.mask, 0, p.power);
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

template <class T>
void fill(T* dst, const std::vector<int64_t>& src, size_t n, const char* name) {
  if (src.size() != n)
    throw py::value_error(std::string(name) + ": expected " + std::to_string(n) + " values, got " +
                          std::to_string(src.size()));
  for (size_t i = 0; i < n; ++i) dst[i] = T(src[i]);
}

// Tables from the keyword arguments big2.variant.native.compile_tables builds.
std::shared_ptr<Tables> make_tables(py::kwargs kw) {
  auto t = std::make_shared<Tables>();
  auto vec = [&](const char* k) {
    if (!kw.contains(k)) throw py::value_error(std::string("missing table: ") + k);
    try {
      return kw[k].cast<std::vector<int64_t>>();
    } catch (const py::cast_error&) {
      throw py::type_error(std::string(k) + ": expected a list of ints");
    }
  };
  auto flag = [&](const char* k) {
    if (!kw.contains(k)) throw py::value_error(std::string("missing flag: ") + k);
    if (!PyBool_Check(kw[k].ptr())) throw py::type_error(std::string(k) + ": expected a bool");
    return kw[k].cast<bool>();
  };
  auto num = [&](const char* k, int lo, int hi) {
    if (!kw.contains(k)) throw py::value_error(std::string("missing number: ") + k);
    if (!PyLong_Check(kw[k].ptr())) throw py::type_error(std::string(k) + ": expected an int");
    int v = kw[k].cast<int>();
    if (v < lo || v > hi)
      throw py::value_error(std::string(k) + ": " + std::to_string(v) + " is outside " +
                            std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  };
  fill(&t->sub_power[0][0], vec("sub_power"), 13 * 16, "sub_power");
  fill(t->top_power, vec("top_power"), kCards, "top_power");
  t->flush_power = vec("flush_power");
  if (t->flush_power.size() != 4 * 8192) throw py::value_error("flush_power: expected 32768 values");
  auto masks = vec("straight_mask"), decide = vec("straight_decide"), sp = vec("straight_power");
  if (masks.size() > 16 || decide.size() != masks.size() || sp.size() != masks.size() * 8)
    throw py::value_error("straights: inconsistent lengths");
  t->n_straights = int(masks.size());
  for (size_t i = 0; i < masks.size(); ++i) {
    if (masks[i] <= 0 || masks[i] >= 8192 || __builtin_popcountll(masks[i]) != 5 ||
        decide[i] < 0 || decide[i] > 12 || !(masks[i] >> decide[i] & 1))
      throw py::value_error("straights: a sequence is not five ranks with its deciding rank");
    t->straight_mask[i] = uint16_t(masks[i]);
    t->straight_decide[i] = int(decide[i]);
    for (int f = 0; f < 2; ++f)
      for (int s = 0; s < 4; ++s) t->straight_power[f][i][s] = sp[i * 8 + f * 4 + s];
  }
  fill(t->full_house_power, vec("full_house_power"), 13, "full_house_power");
  fill(t->four_kicker_power, vec("four_kicker_power"), 13, "four_kicker_power");
  fill(t->five_trips_power, vec("five_trips_power"), 13, "five_trips_power");
  t->five_trips = flag("five_trips");
  t->five_two_pairs = num("five_two_pairs", 0, 2);
  {
    auto base = vec("five_two_pairs_base");
    if (base.size() != 1) throw py::value_error("five_two_pairs_base: one value");
    t->five_two_pairs_base = base[0];
  }
  t->play_equal = flag("play_equal");
  t->triples = flag("triples"); t->two_pairs = flag("two_pairs");
  t->four_alone = flag("four_alone"); t->four_kicker = flag("four_kicker");
  t->same_kind = flag("same_kind"); t->top_card = flag("top_card");
  t->players = num("players", 2, 4);
  auto after = vec("after");
  if (after.size() != size_t(t->players * t->players)) throw py::value_error("after: players² seats");
  for (int s = 0; s < t->players; ++s)
    for (int k = 0; k < t->players; ++k) {
      int64_t v = after[s * t->players + k];
      if (v < 0 || v >= t->players) throw py::value_error("after: not a seat");
      t->after[s][k] = int(v);
    }
  t->jump_back = flag("jump_back"); t->one_pass = flag("one_pass");
  t->opening_alone = flag("opening_alone");
  t->finish_barred = unsigned(kw.contains("finish_barred") ? num("finish_barred", 0, 15) : 0);
  t->scoring = num("scoring", 0, 3);
  t->twos_each = flag("twos_each"); t->count_twos = flag("count_twos");
  fill(t->multiplier, vec("multiplier"), kCards + 1, "multiplier");
  auto order = vec("by_strength");
  fill(t->by_strength, order, kCards, "by_strength");
  Mask seen = 0;
  for (int c : t->by_strength) {
    if (c < 0 || c >= kCards) throw py::value_error("by_strength: not a card");
    seen |= Mask(1) << c;
  }
  if (seen != kDeck) throw py::value_error("by_strength: not every card once");
  t->per_seat = num("per_seat", 1, kCards);
  t->left_over = num("left_over", 0, kCards);
  if (t->per_seat * t->players + t->left_over != kCards)
    throw py::value_error("per_seat and left_over do not add up to the deck");
  t->spare_to = num("spare_to", 0, 2);
  t->thirteen_each = flag("thirteen_each");
  return t;
}

py::object play_tuple(const Play& p) {
  if (!p.kind) return py::none();
  return py::make_tuple(p.kind, p.power);
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "The compiled core of big2: the standard family on 52-bit masks (see engine.hpp).";
  m.attr("PLAY_SHIFT") = kPlayShift;
#ifndef BIG2_MARCH
#define BIG2_MARCH ""
#endif
  m.def("build_info", []() {
        py::dict d;
        d["march"] = BIG2_MARCH;  // BIG2_NATIVE_MARCH at build time, "" for the portable build
        d["clones"] = bool(BIG2_CLONES);
        d["level"] = big2hot::level();
        return d;
      },
      "How the core was built: {'march': the -march of a BIG2_NATIVE_MARCH build ('' for the "
      "portable one), 'clones': whether the hot loops were built for several x86-64 levels, "
      "'level': the level they run at on this CPU ('x86-64-v4', 'x86-64-v3', 'x86-64-v2', "
      "'x86-64', or 'single' without clones)}.");
  register_poker(m);

  py::class_<Tables, std::shared_ptr<Tables>>(m, "Tables",
      "A rule set compiled for the core (built by big2.variant.native.compile_tables).")
      .def(py::init(&make_tables))
      .def_property_readonly("players", [](const Tables& t) { return t.players; });

  m.def("classify", [](const Tables& t, py::handle mask) {
        return play_tuple(t.classify(to_mask(mask, "mask")));
      }, py::arg("tables"), py::arg("mask"),
      "(kind, power) of the play *mask* makes, or None.");

  m.def("hand_plays", [](const Tables& t, py::handle hand) {
        Mask h = to_mask(hand, "hand");
        HandPlays hp;
        generate(t, h, hp);
        return group_lists(hp, encode);
      }, py::arg("tables"), py::arg("hand"),
      "Every leadable play of *hand* by size 1..5, encoded power << PLAY_SHIFT | mask, sorted.");

  m.def("follows", [](const Tables& t, py::handle hand, py::handle last) {
        Mask h = to_mask(hand, "hand");
        Play l = t.classify(to_mask(last, "last"));
        if (!l.kind) throw py::value_error("last: not a play under these rules");
        HandPlays hp;
        generate(t, h, hp);
        std::vector<Mask> out;
        for_each_follow(t, hp, l, [&](const Play& p) { out.push_back(p.mask); });
        return out;
      }, py::arg("tables"), py::arg("hand"), py::arg("last"),
      "The plays of *hand* that may be played on the play *last* (no pass).");

  m.def("bombs_held", [](const Tables& t, py::handle hand) {
        return bombs_held(t, to_mask(hand, "hand"));
      }, py::arg("tables"), py::arg("hand"));

  m.def("random_deals", [](std::shared_ptr<Tables> t, uint64_t deals, uint64_t seed) {
        LoopCount c;
        {
          py::gil_scoped_release release;
          c = random_deals(*t, deals, seed);
        }
        return py::make_tuple(c.steps, c.deals, c.score_sum);
      }, py::arg("tables"), py::arg("deals"), py::arg("seed"),
      "Play *deals* random deals (uniform legal plays) in the core: (steps, deals, seat 0's "
      "score sum). Releases the GIL.");

  m.def("deal", [](const Tables& t, uint64_t seed, int dealer) {
        if (dealer < 0 || dealer >= t.players) throw py::value_error("dealer: not a seat");
        Rng rng(seed);
        Mask hands[4]; int seat; Mask must;
        deal(t, rng, dealer, hands, seat, must);
        return py::make_tuple(std::vector<Mask>(hands, hands + t.players), seat, must);
      }, py::arg("tables"), py::arg("seed"), py::arg("dealer"),
      "A deal from the core's random stream: (hands, the opening seat, the card its first "
      "play must contain).");

  m.def("shuffle_deal", [](py::handle random, int count, int per, const std::vector<int>& order) {
        // big2.variant.deck's shuffle of one deck: a key from random() for each place, the
        // places sorted by key (ties in place order), seat order[i] dealt places i, i + n, ...
        // of the first per * n
        int n = int(order.size());
        if (count < 1 || count > 64) throw py::value_error("count: 1 to 64 places");
        if (n < 1 || per < 0 || per * n > count) throw py::value_error("per: more cards than places");
        for (int s : order)
          if (s < 0 || s >= n) throw py::value_error("order: seats 0 to len(order) - 1");
        std::pair<double, int> keyed[64];
        for (int i = 0; i < count; ++i) {
          PyObject* key = PyObject_CallNoArgs(random.ptr());
          if (!key) throw py::error_already_set();
          double k = PyFloat_AsDouble(key);
          bool bad = !PyFloat_Check(key);
          Py_DECREF(key);
          if (bad) throw py::type_error("random: expected a float from each call");
          keyed[i] = {k, i};
        }
        std::stable_sort(keyed, keyed + count,
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<uint64_t> hands(size_t(n), 0);
        for (int j = 0; j < per * n; ++j) hands[size_t(order[size_t(j % n)])] |= uint64_t(1) << keyed[j].second;
        std::vector<int> rest;
        for (int j = per * n; j < count; ++j) rest.push_back(keyed[j].second);
        return py::make_tuple(hands, rest);
      }, py::arg("random"), py::arg("count"), py::arg("per"), py::arg("order"),
      "A one-deck shuffle and deal as big2.variant.deck makes it: *count* keys from random() "
      "(one call each, in place order), the places sorted by key (ties in place order), "
      "seat order[i] dealt the places i, i + n, ... of the first per * n: (each seat's mask "
      "of places, the places left over in order).");

  register_batch(m);  // after Tables: a Batch holds one
  register_state(m);
  register_first_out(m);  // after Tables: a FirstOut holds one
  register_wide(m);  // after Tables: WideTables holds one
  register_bots(m);  // after Tables: its Config holds one
}
