// The two kinds of deal big2._native.State and WideState bind (state_bindings.cpp): one
// deck on 64-bit masks (deal.hpp's State) and two decks or jokers on 128-bit masks
// (wide_state.hpp's WideState), each as what the binding template needs of it.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "deal.hpp"
#include "py_mask.hpp"
#include "wide_state.hpp"

namespace big2s {

namespace py = pybind11;
using namespace big2n;

// What PyStateT needs of a deck: the core's mask, tables and state types, masks to and
// from Python ints, and how a mask finds its listed play.
struct OneDeck {
  using M = Mask;
  using T = Tables;
  using S = State;
  static constexpr int kSeats = 4;
  static M from_py(py::handle h, const char* what) { return to_mask(h, what); }
  // *o* as a mask, or false (not an int, a bool, negative or too wide): nothing raised
  static bool try_mask(PyObject* o, M& out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) return false;
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) { PyErr_Clear(); return false; }
    out = M(v);
    return true;
  }
  static PyObject* to_py(M m) { return PyLong_FromUnsignedLongLong(m); }
  static int lowest(M m) { return __builtin_ctzll(m); }
  static int count(M m) { return popcount(m); }
  static bool outside(M m) { return m & ~kDeck; }
  static bool off_deck(const T&, M) { return false; }  // to_mask refused cards above 51
  static bool is_play(const T& t, M m) { return t.classify(m).kind != 0; }
  static unsigned finish_barred(const T& t) { return t.finish_barred; }
  // The place of *m* among the listed plays *legal* (the hand *hand*), or -1.
  static long find(const S&, const std::vector<M>& legal, M m, M) {
    auto it = std::find(legal.begin(), legal.end(), m);
    return it == legal.end() ? -1 : long(it - legal.begin());
  }
  // Apply *m*: listed play number *at* (-1: a play checked otherwise).
  static void apply(S& st, const T&, M m, long) { st.apply(m); }
  static py::object last(const S& st) {
    return py::make_tuple(st.last.mask, st.last.kind, st.last.power);
  }
};

// Two decks (engine_extended.hpp): 128-bit masks of cards 0..51 and 54..105.
struct TwoDecks {
  using M = big2w::WMask;
  using T = big2w::WideTables;
  using S = big2w::WideState;
  static constexpr int kSeats = big2w::kSeats;
  static bool try_mask(PyObject* o, M& out) { return wide_try(o, out); }
  static M from_py(py::handle h, const char* what) { return wide_mask(h, what); }
  static PyObject* to_py(M m) { return wide_to_py(m); }
  static int lowest(M m) { return big2w::wlow(m); }
  static int count(M m) { return big2w::wpop(m); }
  static bool outside(M m) { return m & ~big2w::kWideAll; }
  static bool off_deck(const T& t, M m) { return m & ~t.deck; }
  static bool is_play(const T& t, M m) { return t.classify(m).kind != 0; }
  static unsigned finish_barred(const T& t) { return t.base.finish_barred; }
  // A listed play, or one of the same card names with other copies the mover holds.
  static long find(const S& st, const std::vector<M>& legal, M m, M hand) {
    auto it = std::find(legal.begin(), legal.end(), m);
    if (it != legal.end()) return long(it - legal.begin());
    if (!m || (m & ~hand)) return -1;
    uint64_t a = uint64_t(m) & big2w::k54, b = uint64_t(m >> big2w::kCopy) & big2w::k54;
    uint64_t names = a | b, dups = a & b;  // the card names, jokers' included
    if (big2w::wpop(m) != big2n::popcount(names) + big2n::popcount(dups)) return -1;
    for (size_t i = 0; i < st.legal_plays.size(); ++i)
      if (st.legal_plays[i].names == names && st.legal_plays[i].dups == dups) return long(i);
    return -1;
  }
  static void apply(S& st, const T& t, M m, long at) {
    big2w::WPlay p = at >= 0 ? st.legal_plays[size_t(at)]
                     : m ? t.classify_on(m, st.has_last ? &st.last : nullptr) : big2w::WPlay();
    p.mask = m;
    st.apply(p);
  }
  static py::object last(const S& st) {
    return py::make_tuple(py::reinterpret_steal<py::object>(to_py(st.last.mask)), st.last.kind,
                          st.last.power);
  }
};

}  // namespace big2s
