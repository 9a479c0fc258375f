// Python ints read as masks of cards (one deck: 0..51; two decks: 0..51 and 54..105),
// shared by the binding files.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include <cstring>

#include "engine.hpp"
#include "engine_extended.hpp"

namespace big2n {

// A Python int as a mask of cards 0..51, or a Python exception (TypeError for
// a non-int or a bool, ValueError for a negative mask or a card above 51).
inline Mask to_mask(pybind11::handle h, const char* what) {
  namespace py = pybind11;
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr()))
    throw py::type_error(std::string(what) + ": expected an int mask, got " +
                         std::string(py::str(py::type::handle_of(h).attr("__name__"))));
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow > 0 || (overflow == 0 && v >= 0 && (Mask(v) & ~kDeck)))
    throw py::value_error(std::string(what) + ": holds a card number above 51 "
                          "(the native core plays one 52-card deck)");
  if (overflow < 0 || v < 0) throw py::value_error(std::string(what) + ": a negative mask");
  return Mask(v);
}

// A Python int as a two-deck mask (cards 0..51 and 54..105), or false when it is not a
// non-negative int below 2**128 (nothing raised).
inline bool wide_try(PyObject* o, big2w::WMask& out) {
  if (!PyLong_Check(o) || PyBool_Check(o)) return false;
  unsigned char buf[16];
#if PY_VERSION_HEX >= 0x030D0000
  Py_ssize_t got = PyLong_AsNativeBytes(o, buf, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                        Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                        Py_ASNATIVEBYTES_REJECT_NEGATIVE);
  if (got < 0 || got > 16) { PyErr_Clear(); return false; }
#else
  if (_PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(o), buf, 16, 1, 0) < 0) {
    PyErr_Clear();
    return false;
  }
#endif
  uint64_t lo, hi;
  std::memcpy(&lo, buf, 8);  // little-endian hosts (x86-64, aarch64)
  std::memcpy(&hi, buf + 8, 8);
  out = big2w::WMask(lo) | (big2w::WMask(hi) << 64);
  return true;
}

// A Python int as a two-deck mask, or a Python exception (TypeError for a non-int or
// a bool, ValueError for a negative mask or a card outside two decks with jokers; the
// rule set's own deck is checked by the caller).
inline big2w::WMask wide_mask(pybind11::handle h, const char* what) {
  namespace py = pybind11;
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr()))
    throw py::type_error(std::string(what) + ": expected an int mask, got " +
                         std::string(py::str(py::type::handle_of(h).attr("__name__"))));
  py::int_ zero(0);
  if (PyObject_RichCompareBool(h.ptr(), zero.ptr(), Py_LT) == 1)
    throw py::value_error(std::string(what) + ": a negative mask");
  big2w::WMask m = 0;
  if (!wide_try(h.ptr(), m) || (m & ~big2w::kWideAll))
    throw py::value_error(std::string(what) + ": holds a card number outside two decks "
                          "with jokers (0..107)");
  return m;
}

// wide_mask, and a ValueError for a card not in *deck* (the rule set's cards).
inline big2w::WMask wide_mask_in(pybind11::handle h, const char* what, big2w::WMask deck) {
  big2w::WMask m = wide_mask(h, what);
  if (m & ~deck)
    throw pybind11::value_error(std::string(what) + ": holds a card that is not in this rule "
                                "set's deck");
  return m;
}

// A two-deck mask as a new Python int (a new reference, or null with an exception set).
inline PyObject* wide_to_py(big2w::WMask m) {
  unsigned char buf[16];
  uint64_t lo = uint64_t(m), hi = uint64_t(m >> 64);
  std::memcpy(buf, &lo, 8);
  std::memcpy(buf + 8, &hi, 8);
#if PY_VERSION_HEX >= 0x030D0000
  return PyLong_FromUnsignedNativeBytes(buf, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
  return _PyLong_FromByteArray(buf, 16, 1, 0);
#endif
}

constexpr int kPlayShift = 108;  // big2.variant.keys.PLAY_SHIFT

// power << PLAY_SHIFT | mask as a new Python int (a listed play, encoded as the Python
// engines encode it): *lo* and *hi* the mask's low and high 64 bits (below 2**108),
// *power* not negative.
inline PyObject* encoded_play(uint64_t lo, uint64_t hi, int64_t power) {
  unsigned char buf[24] = {};
  std::memcpy(buf, &lo, 8);  // little-endian hosts (x86-64, aarch64)
  std::memcpy(buf + 8, &hi, 8);
  uint64_t pw = uint64_t(power) << (kPlayShift % 8);
  unsigned char pb[8];
  std::memcpy(pb, &pw, 8);
  for (int i = 0; i < 8 && kPlayShift / 8 + i < 24; ++i) buf[kPlayShift / 8 + i] |= pb[i];
#if PY_VERSION_HEX >= 0x030D0000
  return PyLong_FromUnsignedNativeBytes(buf, sizeof buf, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
  return _PyLong_FromByteArray(buf, sizeof buf, 1, 0);
#endif
}

// A hand's plays (HandPlays or big2w::WideHandPlays), groups 1..5, as a list of five
// Python lists, each play made by *encode*.
template <class HP, class Encode>
pybind11::list group_lists(const HP& hp, Encode&& encode) {
  pybind11::list out;
  for (int s = 1; s <= 5; ++s) {
    pybind11::list g(hp.groups[s].size());
    for (size_t i = 0; i < hp.groups[s].size(); ++i) g[i] = encode(hp.groups[s][i]);
    out.append(g);
  }
  return out;
}

}  // namespace big2n
