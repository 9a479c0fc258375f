// Python bindings of the poker core (big2._native.poker; see poker.hpp).
//
// The per-hand entry points (evaluate5, evaluate7, evaluate) are plain CPython
// METH_FASTCALL functions, not pybind11 ones: ints in, a cached int out, so a
// call costs little more than the interpreter's own dispatch.  The batch and
// equity entry points take NumPy arrays and release the GIL.  Every input is
// checked: a card outside 0..51, a repeated card, a wrong type or shape raises
// TypeError or ValueError naming the problem, never a crash.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "poker_exact.hpp"

namespace py = pybind11;
using namespace big2poker;

namespace big2poker {
const Tables& tables() {
  static const Tables* t = new Tables();  // built on first use (a few ms), never freed
  return *t;
}
}  // namespace big2poker

namespace {

PyObject* g_values[7463];  // the value ints, made once: a call returns one, no allocation

const char* kRangeMsg = "the fast evaluator takes card numbers 0-51 (jokers: see big2.poker.rank_hand)";

// One Python int (or an object with __index__, such as a NumPy integer) as a card
// 0..51, or -1 with a Python exception set.
inline int card_of(PyObject* o) {
  long v;
  if (PyLong_Check(o)) {
    v = PyLong_AsLong(o);
  } else {
    PyObject* i = PyNumber_Index(o);
    if (!i) {
      PyErr_Format(PyExc_TypeError, "a card must be an int 0-51, got %s", Py_TYPE(o)->tp_name);
      return -1;
    }
    v = PyLong_AsLong(i);
    Py_DECREF(i);
  }
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    v = 52;
  }
  if (v < 0 || v > 51) {
    PyErr_SetString(PyExc_ValueError, kRangeMsg);
    return -1;
  }
  return int(v);
}

// Cards of *args* (n of them) into *c*; false with an exception set when one is bad.
inline bool read_cards(PyObject* const* args, Py_ssize_t n, int* c) {
  uint64_t m = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    c[i] = card_of(args[i]);
    if (c[i] < 0) return false;
    m |= 1ull << c[i];
  }
  if (__builtin_popcountll(m) != n) {
    PyErr_SetString(PyExc_ValueError, "the fast evaluator takes distinct cards "
                                      "(repeated cards: see big2.poker.rank_hand)");
    return false;
  }
  return true;
}

inline PyObject* value(int v) {
  Py_INCREF(g_values[v]);
  return g_values[v];
}

template <int N>
PyObject* evaluate_fixed(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != N) {
    PyErr_Format(PyExc_TypeError, "evaluate%d takes %d cards, got %zd", N, N, nargs);
    return nullptr;
  }
  int c[N];
  if (!read_cards(args, N, c)) return nullptr;
  static const Tables& t = tables();
  return value(N == 5 ? t.eval5(c) : N == 6 ? t.eval_n(c, 6) : t.eval7(c));
}

PyObject* evaluate_seq(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_SetString(PyExc_TypeError, "evaluate takes one sequence of cards");
    return nullptr;
  }
  PyObject* seq = PySequence_Fast(args[0], "evaluate takes a sequence of card numbers");
  if (!seq) return nullptr;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n < 5 || n > 9) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError,
                 "the fast evaluator takes 5 to 9 cards, got %zd (see big2.poker.rank_hand)", n);
    return nullptr;
  }
  int c[9];
  bool ok = read_cards(PySequence_Fast_ITEMS(seq), n, c);
  Py_DECREF(seq);
  if (!ok) return nullptr;
  return value(tables().eval_n(c, int(n)));
}

PyMethodDef kScalar[] = {
    {"evaluate5", (PyCFunction)(void (*)(void))evaluate_fixed<5>, METH_FASTCALL,
     "evaluate5(a, b, c, d, e) -> int\n\nValue of five distinct cards (1-7462, higher is "
     "better)."},
    {"evaluate6", (PyCFunction)(void (*)(void))evaluate_fixed<6>, METH_FASTCALL,
     "evaluate6(a, b, c, d, e, f) -> int\n\nValue of the best five of six distinct cards."},
    {"evaluate7", (PyCFunction)(void (*)(void))evaluate_fixed<7>, METH_FASTCALL,
     "evaluate7(a, b, c, d, e, f, g) -> int\n\nValue of the best five of seven distinct cards."},
    {"evaluate", (PyCFunction)(void (*)(void))evaluate_seq, METH_FASTCALL,
     "evaluate(cards) -> int\n\nValue of the best five of 5-9 distinct cards."},
    {nullptr, nullptr, 0, nullptr}};

// A 2-D integer array with *width* columns, as C-contiguous uint8 (values checked later)
// or int64.
py::array as_cards(const py::array& a, int width, const char* what) {
  if (a.ndim() != 2 || a.shape(1) != width)
    throw py::value_error(std::string(what) + ": expected an (n, " + std::to_string(width) +
                          ") array of cards, got shape " +
                          std::string(py::str(a.attr("shape"))));
  char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error(std::string(what) + ": card numbers must be integers, got dtype " +
                         std::string(py::str(a.dtype())));
  if (a.dtype().is(py::dtype::of<uint8_t>()))
    return py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(a);
  if (kind == 'u' && a.dtype().itemsize() == 8) {  // above 2**63 would wrap: check first
    auto u = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>::ensure(a);
    const uint64_t* p = u.data();
    for (py::ssize_t i = 0; i < u.size(); ++i)
      if (p[i] > 51) throw py::value_error(std::string(what) + ": " + kRangeMsg);
  }
  return py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
}

// Whether one row is bad: a card outside 0..51 (a negative one wraps to a huge one) or a
// card given twice.  The plain scalar check, used for the few rows the vector pass leaves
// and to find the first bad row of a block the vector pass flagged.
template <int N, class T>
inline bool row_bad(const T* r) {
  uint64_t m = 0;
  for (int j = 0; j < N; ++j) {
    uint64_t v = uint64_t(r[j]);
    if (v > 51) return true;
    m |= 1ull << v;
  }
  return __builtin_popcountll(m) != N;
}

// The vector pass over rows of uint8 cards (GCC/Clang vector extensions: AVX2 in the
// x86-64-v3 and v4 clones, SSE2 in the others).  A 32-byte window holds R = 32 / N whole
// rows; XOR-ing it with the same bytes loaded s = 1..N-1 further on gives a zero byte for
// every pair of equal cards s apart, of which only the pairs inside one row count
// (pair_mask).  Each shift keeps the byte-wise minimum of its XORs over the windows, and
// the byte-wise maximum of the cards shows any card above 51; the masks and the tests are
// applied once at the end, so a valid row costs about 3.5 vector operations (N = 7)
// beside its evaluation, none of them a compare.
typedef uint8_t U8x32 __attribute__((vector_size(32)));

// (through a reference: a vector passed or returned by value would have an ABI that
// depends on the clone)
inline void load32(U8x32& v, const uint8_t* p) { std::memcpy(&v, p, sizeof v); }

// Byte-wise minimum and maximum: GCC turns the vector ?: into vpminub/vpmaxub; Clang, which
// takes ?: on these vectors only in newer releases, gets the same by masks.
#if defined(__clang__)
#define BIG2_VPICK(a, b, take_a) ((a & U8x32(take_a)) | (b & ~U8x32(take_a)))
#else
#define BIG2_VPICK(a, b, take_a) ((take_a) ? (a) : (b))
#endif
#define BIG2_VMIN(a, b) BIG2_VPICK(a, b, (a) < (b))
#define BIG2_VMAX(a, b) BIG2_VPICK(a, b, (a) > (b))

// masks[s][j]: 0xFF where position j of a window and the byte s further on lie in one row
// (s = 0: position j lies in the window's rows).
template <int N>
struct PairMasks {
  uint8_t masks[N][32] = {};
  PairMasks() {
    for (int s = 0; s < N; ++s)
      for (int j = 0; j < 32 / N * N; ++j)
        if (j % N + s < N) masks[s][j] = 0xFF;
  }
};

// True when rows [0, rows) of *h* are all valid.  *slack*: bytes readable after the
// last row (the vector loads read up to 31 + N - 1 bytes past a window's start).
template <int N>
BIG2_HOT_TEMPLATE bool rows_valid(const uint8_t* h, py::ssize_t rows, py::ssize_t slack) {
  constexpr int R = 32 / N;
  static const PairMasks<N> pm;
  U8x32 near[N], top = {};
  for (auto& x : near) x = U8x32{} + 0xFF;
  py::ssize_t i = 0;
  const py::ssize_t bytes = rows * N + slack;
  for (; i + R <= rows && i * N + 31 + N <= bytes; i += R) {
    const uint8_t* p = h + i * N;
    U8x32 v, w;
    load32(v, p);
    top = BIG2_VMAX(v, top);
    for (int s = 1; s < N; ++s) {
      load32(w, p + s);
      w ^= v;
      near[s] = BIG2_VMIN(w, near[s]);
    }
  }
  U8x32 m;
  load32(m, pm.masks[0]);
  U8x32 any = U8x32(top > U8x32{} + 51) & m;
  for (int s = 1; s < N; ++s) {
    load32(m, pm.masks[s]);
    any |= U8x32(near[s] == U8x32{}) & m;
  }
  uint64_t q[4];
  std::memcpy(q, &any, sizeof q);
  if (q[0] | q[1] | q[2] | q[3]) return false;
  for (; i < rows; ++i)
    if (row_bad<N>(h + i * N)) return false;
  return true;
}

// The plain loop: values of rows of valid uint8 cards.
template <int N>
BIG2_HOT_TEMPLATE void eval_rows(const Tables& t, const uint8_t* h, py::ssize_t n, int32_t* out) {
  for (py::ssize_t i = 0; i < n; ++i, h += N) {
    int c[N];
    for (int j = 0; j < N; ++j) c[j] = h[j];
    out[i] = N == 5 ? t.eval5(c) : t.eval7(c);
  }
}

// Narrows rows of wider cards to uint8 (true when every value is 0..51).
template <int N, class T>
BIG2_HOT_TEMPLATE bool narrow_rows(const T* h, py::ssize_t rows, uint8_t* out) {
  uint64_t big = 0;
  for (py::ssize_t k = 0; k < rows * N; ++k) {
    uint64_t v = uint64_t(h[k]);
    out[k] = uint8_t(v);
    big |= uint64_t(v > 51);
  }
  return !big;
}

// Values of each row, or the index of the first bad row.  Blocks of rows are checked by
// the vector pass (wider cards first narrowed to uint8 in a buffer) and then evaluated
// by the plain loop, so the checks cost a pass over data already in the cache instead
// of work inside the evaluation loop (issue 43: the batch at the plain loop's speed).
// A block that fails is scanned row by row for its first bad row.
template <int N, class T>
py::ssize_t batch_loop(const Tables& t, const T* h, py::ssize_t n, int32_t* out) {
  constexpr py::ssize_t kBlock = 256;
  std::vector<uint8_t> buf;
  if (!std::is_same<T, uint8_t>::value) buf.assign(kBlock * N + 64, 0);
  for (py::ssize_t lo = 0; lo < n; lo += kBlock) {
    py::ssize_t rows = std::min(n - lo, kBlock);
    const T* src = h + lo * N;
    const uint8_t* cards;
    bool ok;
    if constexpr (std::is_same<T, uint8_t>::value) {
      cards = src;
      ok = rows_valid<N>(cards, rows, (n - lo - rows) * N);
    } else {
      cards = buf.data();
      ok = narrow_rows<N>(src, rows, buf.data()) && rows_valid<N>(cards, rows, 64);
    }
    if (!ok)
      for (py::ssize_t i = 0; i < rows; ++i)
        if (row_bad<N>(src + i * N)) return lo + i;
    eval_rows<N>(t, cards, rows, out + lo);
  }
  return -1;
}

// The output array: a new one, or *out* checked to be a writeable C-contiguous int32
// array of n values.
py::array_t<int32_t> output(const py::object& out, py::ssize_t n, const char* what) {
  if (out.is_none()) return py::array_t<int32_t>(n);
  if (!py::isinstance<py::array>(out))
    throw py::type_error(std::string(what) + ": out must be a NumPy int32 array");
  py::array a = py::reinterpret_borrow<py::array>(out);
  if (!a.dtype().is(py::dtype::of<int32_t>()) || a.ndim() != 1 || a.shape(0) != n ||
      !(a.flags() & py::array::c_style) || !a.writeable())
    throw py::value_error(std::string(what) + ": out must be a writeable, contiguous int32 "
                          "array of " + std::to_string(n) + " values, one per row");
  return py::reinterpret_borrow<py::array_t<int32_t>>(out);
}

template <int N>
py::array_t<int32_t> evaluate_batch(const py::array& hands, const py::object& out_arg) {
  const char* what = N == 5 ? "evaluate5_batch" : "evaluate7_batch";
  py::array h = as_cards(hands, N, what);
  const Tables& t = tables();
  py::ssize_t n = h.shape(0);
  py::array_t<int32_t> out = output(out_arg, n, what);
  int32_t* o = out.mutable_data();
  py::ssize_t bad;
  bool narrow = h.dtype().is(py::dtype::of<uint8_t>());
  const void* data = h.data();
  {
    py::gil_scoped_release nogil;
    bad = narrow ? batch_loop<N>(t, static_cast<const uint8_t*>(data), n, o)
                 : batch_loop<N>(t, static_cast<const int64_t*>(data), n, o);
  }
  if (bad >= 0) {
    auto row = [&](int j) {
      return narrow ? int64_t(static_cast<const uint8_t*>(data)[bad * N + j])
                    : static_cast<const int64_t*>(data)[bad * N + j];
    };
    for (int j = 0; j < N; ++j)
      if (row(j) < 0 || row(j) > 51)
        throw py::value_error("row " + std::to_string(bad) + ": card " + std::to_string(row(j)) +
                              " is not a card number 0-51");
    throw py::value_error("row " + std::to_string(bad) + ": a card given twice");
  }
  return out;
}

// Cards of a 1-D array (the board) checked to be 0..51.
std::vector<int> board_cards(const py::array& a, int most) {
  if (a.dtype().kind() != 'i' && a.dtype().kind() != 'u')
    throw py::type_error("board: card numbers must be integers, got dtype " +
                         std::string(py::str(a.dtype())));
  auto b = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!b || b.ndim() != 1 || b.size() > most)
    throw py::value_error("board: expected a 1-D array of at most " + std::to_string(most) +
                          " cards");
  std::vector<int> out;
  for (py::ssize_t i = 0; i < b.size(); ++i) {
    int64_t c = b.data()[i];
    if (c < 0 || c > 51) throw py::value_error("board: a card number outside 0-51");
    out.push_back(int(c));
  }
  return out;
}

uint64_t mask_arg(py::handle h) {
  if (!PyLong_Check(h.ptr())) throw py::type_error("used: expected an int mask of cards");
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow || v < 0 || (uint64_t(v) >> 52))
    throw py::value_error("used: a mask of cards 0-51 is expected");
  return uint64_t(v);
}

py::tuple counts_tuple(const Counts& c) {
  py::array_t<int64_t> ties({c.players, c.players + 1});
  std::copy(c.ties.begin(), c.ties.end(), ties.mutable_data());
  return py::make_tuple(ties, c.deals, c.attempts);
}

// (combos (C, 2) uint8 checked) of one player.
py::array_t<uint8_t> combo_array(const py::handle& h, size_t i) {
  if (!py::isinstance<py::array>(h))
    throw py::type_error("combos " + std::to_string(i) + ": expected a NumPy array, got " +
                         std::string(py::str(py::type::handle_of(h).attr("__name__"))));
  py::array a = py::reinterpret_borrow<py::array>(h);
  py::array c = as_cards(a, 2, ("combos " + std::to_string(i)).c_str());
  auto out = py::array_t<uint8_t, py::array::c_style>(c.shape(0) * 2);
  for (py::ssize_t j = 0; j < c.shape(0); ++j)
    for (int k = 0; k < 2; ++k) {
      int64_t v = c.dtype().is(py::dtype::of<uint8_t>())
                      ? static_cast<const uint8_t*>(c.data())[2 * j + k]
                      : static_cast<const int64_t*>(c.data())[2 * j + k];
      if (v < 0 || v > 51)
        throw py::value_error("combos " + std::to_string(i) + ": a card number outside 0-51");
      out.mutable_data()[2 * j + k] = uint8_t(v);
    }
  for (py::ssize_t j = 0; j < c.shape(0); ++j)
    if (out.data()[2 * j] == out.data()[2 * j + 1])
      throw py::value_error("combos " + std::to_string(i) + ": a combo holds one card twice");
  return out;
}

// holdem_exact / holdem_exact_each: the checked arguments, then the loop.
// kind: 0 hold'em by board class, 1 hold'em board by board, 2 Omaha by board class.
py::tuple exact_counts(const py::array& board, const py::array& holes, py::handle used,
                       int kind) {
  const int width = kind == 2 ? 4 : 2, most = kind == 2 ? 11 : 23;
  std::vector<int> b = board_cards(board, 5);
  py::array h = as_cards(holes, width, "holes");
  int players = int(h.shape(0));
  if (players < 2 || players > most)
    throw py::value_error("holes: 2 to " + std::to_string(most) + " players");
  std::vector<int> hc(size_t(players) * width);
  for (int i = 0; i < width * players; ++i) {
    int64_t v = h.dtype().is(py::dtype::of<uint8_t>())
                    ? static_cast<const uint8_t*>(h.data())[i]
                    : static_cast<const int64_t*>(h.data())[i];
    if (v < 0 || v > 51) throw py::value_error("holes: a card number outside 0-51");
    hc[i] = int(v);
  }
  uint64_t u = mask_arg(used), all = 0;
  for (int c : b) all |= 1ull << c;
  for (int c : hc) {
    if (all >> c & 1) throw py::value_error("holes: a card given twice or on the board");
    all |= 1ull << c;
  }
  if ((all & u) != all) throw py::value_error("used: must hold the board and the holes");
  if (52 - __builtin_popcountll(u) < 5 - int(b.size()))
    throw py::value_error("used: too few cards left to deal the board");
  const Tables& t = tables();
  Counts c(players);
  {
    py::gil_scoped_release nogil;
    if (kind == 0)
      holdem_exact(t, b.data(), int(b.size()), hc.data(), players, u, c);
    else if (kind == 1)
      holdem_exact_each(t, b.data(), int(b.size()), hc.data(), players, u, c);
    else
      omaha_exact(t, b.data(), int(b.size()), hc.data(), players, u, c);
  }
  return counts_tuple(c);
}

}  // namespace

void register_poker(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "poker", "Standard high-poker evaluation and hold'em equity (see src/native/poker.hpp).");
  for (int v = 0; v <= 7462; ++v) g_values[v] = PyLong_FromLong(v);
  PyObject* name = PyUnicode_FromString("big2._native.poker");
  for (PyMethodDef* d = kScalar; d->ml_name; ++d) {
    PyObject* f = PyCFunction_NewEx(d, nullptr, name);
    if (!f) throw py::error_already_set();
    m.add_object(d->ml_name, py::reinterpret_steal<py::object>(f));
  }
  Py_DECREF(name);

  m.def("build", []() { tables(); }, "Build the lookup tables now (else on first use).");
  m.def("table_sizes", []() {
        const Tables& t = tables();
        return py::make_tuple(t.five.value.size(), t.five.offset.size(), t.seven.value.size(),
                              t.seven.offset.size());
      },
      "Entries of the five- and seven-card perfect hashes: (values5, offsets5, values7, "
      "offsets7).");
  m.def("evaluate5_batch", &evaluate_batch<5>, py::arg("hands"), py::arg("out") = py::none(),
        "Values of an (n, 5) integer array of cards (int32 array, or written into *out*; "
        "GIL released).");
  m.def("evaluate7_batch", &evaluate_batch<7>, py::arg("hands"), py::arg("out") = py::none(),
        "Values of the best five of each row of an (n, 7) integer array (int32, or written "
        "into *out*; GIL released).");

  m.def("holdem_exact", [](const py::array& board, const py::array& holes, py::handle used) {
        return exact_counts(board, holes, used, 0);
      }, py::arg("board"), py::arg("holes"), py::arg("used"),
      "Every board completing *board* from the cards outside *used* (which holds the board, "
      "the holes and any dead cards), two fixed hole cards per player (*holes*, (P, 2)).\n"
      "Returns (ties, deals, attempts): ties[i, k] counts the deals on which player i is one "
      "of k players with the best hand.  Boards that differ only in suits nobody can make a "
      "flush in are counted together (poker.hpp); the counts equal holdem_exact_each's.");
  m.def("holdem_exact_each", [](const py::array& board, const py::array& holes, py::handle used) {
        return exact_counts(board, holes, used, 1);
      }, py::arg("board"), py::arg("holes"), py::arg("used"),
      "holdem_exact with one showdown per board (the reference).");
  m.def("omaha_exact", [](const py::array& board, const py::array& holes, py::handle used) {
        return exact_counts(board, holes, used, 2);
      }, py::arg("board"), py::arg("holes"), py::arg("used"),
      "holdem_exact for Omaha high: four fixed hole cards per player (*holes*, (P, 4)), each "
      "hand two of them and three of the board; counted by board class likewise.");

  m.def("holdem_monte_carlo", [](const py::array& board, const py::list& combos, py::handle fixed,
                                 int64_t trials, int64_t max_attempts, uint64_t seed) {
        std::vector<int> b = board_cards(board, 5);
        size_t players = combos.size();
        if (players < 2 || players > 23) throw py::value_error("combos: 2 to 23 players");
        std::vector<py::array_t<uint8_t>> keep;
        std::vector<const uint8_t*> ptrs;
        std::vector<int> sizes;
        for (size_t i = 0; i < players; ++i) {
          keep.push_back(combo_array(combos[i], i));
          if (keep.back().size() == 0) throw py::value_error("combos: a player has none");
          ptrs.push_back(keep.back().data());
          sizes.push_back(int(keep.back().size() / 2));
        }
        uint64_t f = mask_arg(fixed);
        for (int c : b)
          if (!(f >> c & 1)) throw py::value_error("fixed: must hold the board");
        if (52 - __builtin_popcountll(f) < int(2 * players + 5 - b.size()))
          throw py::value_error("fixed: too few cards left to deal");
        if (trials < 0 || max_attempts < 0)
          throw py::value_error("trials and max_attempts must not be negative");
        const Tables& t = tables();
        Counts c{int(players)};
        {
          py::gil_scoped_release nogil;
          holdem_monte_carlo(t, b.data(), int(b.size()), ptrs, sizes, f, trials, max_attempts,
                             seed, c);
        }
        return counts_tuple(c);
      }, py::arg("board"), py::arg("combos"), py::arg("fixed"), py::arg("trials"),
      py::arg("max_attempts"), py::arg("seed"),
      "Monte Carlo: each player's hole cards uniform among its combos ((C, 2) arrays), deals "
      "whose hands clash with each other or *fixed* (board and dead cards) drawn again, the "
      "board completed uniformly.  Returns (ties, deals, attempts) like holdem_exact.");
}
