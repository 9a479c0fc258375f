// What batch_bindings.cpp's Batch reads and writes through: a NumPy array's buffer after
// its checks, the observation layout a caller passes (every offset checked), and the
// hand-relative action ids (big2.env.hand_actions) of a game's legal plays.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "batch.hpp"

namespace big2b {

namespace py = pybind11;
using namespace big2n;

// The buffer of *a* as T*, after checking dtype, shape, layout and writeability.
template <class T>
T* buffer(py::handle obj, const char* name, std::initializer_list<py::ssize_t> shape,
          bool write = true) {
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(std::string(name) + ": expected a NumPy array, got " +
                         std::string(py::str(py::type::handle_of(obj).attr("__name__"))));
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (a.dtype().num() != py::dtype::of<T>().num())
    throw py::type_error(std::string(name) + ": expected dtype " +
                         std::string(py::str(py::dtype::of<T>())) + ", got " +
                         std::string(py::str(a.dtype())));
  if (a.ndim() != py::ssize_t(shape.size()))
    throw py::value_error(std::string(name) + ": expected " + std::to_string(shape.size()) +
                          " dimensions, got " + std::to_string(a.ndim()));
  size_t d = 0;
  for (py::ssize_t want : shape) {
    if (want >= 0 && a.shape(d) != want)
      throw py::value_error(std::string(name) + ": dimension " + std::to_string(d) + " is " +
                            std::to_string(a.shape(d)) + ", expected " + std::to_string(want));
    ++d;
  }
  if (!(a.flags() & py::array::c_style)) throw py::value_error(std::string(name) + ": not C-contiguous");
  if (write && !a.writeable()) throw py::value_error(std::string(name) + ": read-only");
  return static_cast<T*>(write ? a.mutable_data() : const_cast<void*>(a.data()));
}

// Hand-relative action ids (big2.env.hand_actions): a play named by the places
// of its cards in the mover's hand sorted by card number; 0 the pass, then every
// set of 1..5 places, each size in colexicographic order.
struct HandIds {
  int hand = 13;
  int64_t offset[7] = {};       // the first id of each play size 1..6
  int64_t binom[64][6] = {};    // C(p, k)
  int64_t size = 0;             // ids in all

  explicit HandIds(int h) : hand(h) {
    if (h < 1 || h > kCards) throw py::value_error("hand_size: 1 to 52 cards, not " + std::to_string(h));
    for (int p = 0; p < 64; ++p) {
      binom[p][0] = 1;
      for (int k = 1; k < 6; ++k) binom[p][k] = p ? binom[p - 1][k - 1] + binom[p - 1][k] : 0;
    }
    offset[1] = 1;
    for (int k = 2; k <= 6; ++k) offset[k] = offset[k - 1] + binom[h][k - 1];
    size = offset[6];
  }
  // The id of *play* (a subset of *held* of at most five cards; 0 the pass).
  int64_t id(Mask play, Mask held) const {
    int64_t rank = 0; int k = 0;
    for (Mask m = play; m; m &= m - 1) rank += binom[popcount(held & ((m & -m) - 1))][++k];
    return offset[k] + rank;
  }
};

// The ids of the plays *l* from *held* into *row* (k wide; -1 after them up to *pad*
// columns, the most any game of the batch has, so a row as wide as the action space is
// not written through) and, given *mrow*, a mask over every id (the vector
// environment's per-step hot loop).
BIG2_HOT inline void id_row(const HandIds& h, const std::vector<Mask>& l, Mask held, int64_t* row,
                     size_t k, size_t pad, bool* mrow) {
  if (mrow) std::memset(mrow, 0, size_t(h.size));
  for (size_t j = 0; j < l.size(); ++j) {
    int64_t id = h.id(l[j], held);
    if (j < k) row[j] = id;
    if (mrow) mrow[id] = true;
  }
  for (size_t j = l.size(); j < std::min(k, pad); ++j) row[j] = -1;
}

}  // namespace big2b
