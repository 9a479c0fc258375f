// A Python int read as a mask of cards 0..51, shared by the binding files.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "engine.hpp"

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

}  // namespace big2n
