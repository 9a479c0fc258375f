// big2._native.State: one deal stepped in the core, with what big2.Game keeps of it.
//
// Game (src/big2/game.py) holds one of these for a rule set the core plays
// whole (no house-rule hooks): the turn, the trick, the passes, the finishing
// order, the scores and the history of plays and passes live here, and Game
// materialises them as Python objects only when asked.  The hot calls are
// cheap on purpose: legal() hands back one list per position (made once),
// try_play() applies a listed play or says it is not one without raising, so
// that Game's Python checks (and their exact messages) run only off the fast
// path.  Undo replays the history from the deal's start, which the core does in
// microseconds.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <structmember.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine.hpp"
#include "py_mask.hpp"

namespace py = pybind11;
using namespace big2n;

namespace {

// -- big2._native.PlaysBase: the C part of big2.position.LegalPlays --------------------
// A position's legal plays kept as their masks; len() and indexing are C slots that
// make a big2.cards.CardSet only for the play read (the class registered with
// set_card_type; plain ints before that). The Python subclass adds membership,
// equality and repr.
struct PlaysObject {
  PyObject_HEAD
  PyObject* masks;    // the plays' masks, a sequence of ints (0: the pass)
  PyObject* variant;  // the rule set (big2.variant.Variant), for membership
  PyObject* hand;     // the mover's hand, to match copies (two decks)
  PyObject* keys;     // the plays' keys, made on the first membership test
};

PyObject* g_card_type = nullptr;   // big2.cards.CardSet
PyObject* g_plays_type = nullptr;  // big2.position.LegalPlays
PyObject* g_zero = nullptr;        // the int 0
PyObject* g_plays_base = nullptr;  // PlaysBase itself

PyObject* card_of(PyObject* mask) {
  if (!g_card_type) { Py_INCREF(mask); return mask; }
  PyObject* args = PyTuple_Pack(1, mask);
  if (!args) return nullptr;
  PyObject* out = PyLong_Type.tp_new(reinterpret_cast<PyTypeObject*>(g_card_type), args, nullptr);
  Py_DECREF(args);
  return out;
}

PyObject* cards_of_list(PyObject* list) {
  Py_ssize_t n = PyList_GET_SIZE(list);
  PyObject* out = PyList_New(n);
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* c = card_of(PyList_GET_ITEM(list, i));
    if (!c) { Py_DECREF(out); return nullptr; }
    PyList_SET_ITEM(out, i, c);
  }
  return out;
}

Py_ssize_t plays_len(PyObject* self) {
  PyObject* masks = reinterpret_cast<PlaysObject*>(self)->masks;
  if (!masks) { PyErr_SetString(PyExc_ValueError, "legal plays without masks"); return -1; }
  return PyObject_Size(masks);
}

PyObject* plays_subscript(PyObject* self, PyObject* key) {
  PyObject* masks = reinterpret_cast<PlaysObject*>(self)->masks;
  if (!masks) { PyErr_SetString(PyExc_ValueError, "legal plays without masks"); return nullptr; }
  PyObject* got = PyObject_GetItem(masks, key);
  if (!got) return nullptr;
  PyObject* out;
  if (PySlice_Check(key)) {  // a slice: a list of card sets
    PyObject* list = PySequence_List(got);
    out = list ? cards_of_list(list) : nullptr;
    Py_XDECREF(list);
  } else {
    out = card_of(got);
  }
  Py_DECREF(got);
  return out;
}

PyObject* plays_iter(PyObject* self) {
  PyObject* masks = reinterpret_cast<PlaysObject*>(self)->masks;
  if (!masks) { PyErr_SetString(PyExc_ValueError, "legal plays without masks"); return nullptr; }
  PyObject* list = PySequence_List(masks);
  if (!list) return nullptr;
  PyObject* cards = cards_of_list(list);
  Py_DECREF(list);
  if (!cards) return nullptr;
  PyObject* it = PyObject_GetIter(cards);
  Py_DECREF(cards);
  return it;
}

int plays_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  Py_VISIT(p->masks); Py_VISIT(p->variant); Py_VISIT(p->hand); Py_VISIT(p->keys);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

int plays_clear(PyObject* self) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  Py_CLEAR(p->masks); Py_CLEAR(p->variant); Py_CLEAR(p->hand); Py_CLEAR(p->keys);
  return 0;
}

void plays_dealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  plays_clear(self);
  tp->tp_free(self);
  Py_DECREF(tp);
}

PyMemberDef plays_members[] = {
    {"_masks", T_OBJECT, offsetof(PlaysObject, masks), 0, "the plays' masks"},
    {"_variant", T_OBJECT, offsetof(PlaysObject, variant), 0, "the rule set"},
    {"_hand", T_OBJECT, offsetof(PlaysObject, hand), 0, "the mover's hand"},
    {"_keys", T_OBJECT, offsetof(PlaysObject, keys), 0, "the plays' keys, once made"},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot plays_slots[] = {
    {Py_tp_doc, const_cast<char*>("The C part of big2.position.LegalPlays: len() and "
                                  "indexing over the masks, a CardSet made per play read.")},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(plays_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(plays_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(plays_clear)},
    {Py_tp_members, plays_members},
    {Py_tp_iter, reinterpret_cast<void*>(plays_iter)},
    {Py_sq_length, reinterpret_cast<void*>(plays_len)},
    {Py_mp_length, reinterpret_cast<void*>(plays_len)},
    {Py_mp_subscript, reinterpret_cast<void*>(plays_subscript)},
    {0, nullptr},
};

PyType_Spec plays_spec = {
    "big2._native.PlaysBase", sizeof(PlaysObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, plays_slots,
};

// A LegalPlays (the registered type) over *masks* of *variant*'s rule set, hand 0.
PyObject* new_plays(PyObject* masks, PyObject* variant) {
  if (!g_plays_type) {
    PyErr_SetString(PyExc_RuntimeError, "set_plays_type() has not been called");
    return nullptr;
  }
  auto* tp = reinterpret_cast<PyTypeObject*>(g_plays_type);
  PyObject* o = tp->tp_alloc(tp, 0);
  if (!o) return nullptr;
  auto* p = reinterpret_cast<PlaysObject*>(o);
  Py_INCREF(masks); p->masks = masks;
  Py_INCREF(variant); p->variant = variant;
  Py_INCREF(g_zero); p->hand = g_zero;
  return o;
}

struct PyState {
  std::shared_ptr<Tables> tables;
  State st;
  Mask start_hands[4] = {};        // the deal's start, for undo by replay
  int start_to_move = 0;
  Mask start_must = 0;
  std::vector<Mask> hist;          // every play and pass (0), in order
  std::vector<int> seats;          // who made each
  size_t trick_start = 0;          // where the current trick starts in hist
  std::vector<Mask> legal;
  bool legal_ok = false;
  py::object legal_list;           // legal as a Python list, made once a position
  py::object variant;              // the rule set, for legal_plays()
  py::object plays;                // legal_plays(), made once a position

  PyState(std::shared_ptr<Tables> t, const std::vector<py::object>& hands, int to_move,
          py::handle must, py::object owner) : tables(std::move(t)), variant(std::move(owner)) {
    if (int(hands.size()) != tables->players)
      throw py::value_error("hands: expected " + std::to_string(tables->players) + " hands, got " +
                            std::to_string(hands.size()));
    Mask h[4] = {}; Mask seen = 0;
    for (size_t i = 0; i < hands.size(); ++i) {
      h[i] = to_mask(hands[i], "hands");
      if (h[i] & seen) throw py::value_error("hands: the same card is in two hands");
      seen |= h[i];
    }
    if (to_move < 0 || to_move >= tables->players) throw py::value_error("to_move: not a seat");
    if (!h[to_move]) throw py::value_error("to_move: that seat holds no cards");
    Mask m = to_mask(must, "must");
    if (popcount(m) > 1 || (m & ~h[to_move]))
      throw py::value_error("must: one card of the leader's hand, or 0");
    std::copy(h, h + 4, start_hands);
    start_to_move = to_move;
    start_must = m;
    st.start(*tables, h, to_move, m);
  }

  const std::vector<Mask>& legal_now() {
    if (!legal_ok) { st.legal(legal); legal_ok = true; }
    return legal;
  }
  py::object legal_py() {
    if (!legal_list) {
      const auto& l = legal_now();
      py::list out(l.size());
      for (size_t i = 0; i < l.size(); ++i) {
        PyObject* v = PyLong_FromUnsignedLongLong(l[i]);
        if (!v) throw py::error_already_set();
        PyList_SET_ITEM(out.ptr(), py::ssize_t(i), v);
      }
      legal_list = std::move(out);
    }
    return legal_list;
  }
  py::object legal_plays() {
    if (!plays) {
      py::object masks = legal_py();
      PyObject* o = new_plays(masks.ptr(), variant.ptr());
      if (!o) throw py::error_already_set();
      plays = py::reinterpret_steal<py::object>(o);
    }
    return plays;
  }
  bool is_legal(Mask m) {
    const auto& l = legal_now();
    return std::find(l.begin(), l.end(), m) != l.end();
  }
  // Apply a play or pass the caller has checked, recording it.
  void record(Mask m) {
    seats.push_back(st.to_move);
    hist.push_back(m);
    st.apply(m);
    legal_ok = false;
    legal_list = py::object();
    plays = py::object();
    if (st.to_move >= 0 && !st.has_last) trick_start = hist.size();  // a new trick is led
  }
  void play(py::handle cards) {
    Mask m = to_mask(cards, "play");
    if (st.to_move < 0) throw py::value_error("the deal is over");
    if (Mask away = m & ~st.hands[st.to_move])
      throw py::value_error("play: seat " + std::to_string(st.to_move) + " does not hold card " +
                            std::to_string(__builtin_ctzll(away)));
    if (!is_legal(m)) throw py::value_error("play: not a legal play now");
    record(m);
  }
  // The fast path: *cards* an int (not a bool) that is one of the listed legal plays is
  // played, and the seat to move next returned (-1: the deal is over); anything else is
  // left alone and -2 returned, for the caller to check and explain.
  int try_play(py::handle cards) {
    PyObject* o = cards.ptr();
    if (st.to_move < 0 || !PyLong_Check(o) || PyBool_Check(o)) return -2;
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();  // negative or too wide: not a listed play
      return -2;
    }
    if (!is_legal(Mask(v))) return -2;
    record(Mask(v));
    return st.to_move;
  }
  // Replay recorded actions without the legality check (a search's guessed deal):
  // each must be the seat to move's, its cards held and a combination (or a pass
  // on a play). Stops at the first that is not; returns how many were applied.
  size_t replay(const std::vector<int>& who, const std::vector<Mask>& masks) {
    if (who.size() != masks.size()) throw py::value_error("replay: one seat per action");
    for (size_t i = 0; i < masks.size(); ++i) {
      Mask m = masks[i];
      if (st.to_move < 0 || who[i] != st.to_move || (m & ~kDeck)) return i;
      if (m ? ((m & ~st.hands[st.to_move]) || !tables->classify(m).kind) : !st.has_last) return i;
      record(m);
    }
    return masks.size();
  }
  py::tuple undo() {
    if (hist.empty()) throw py::index_error("nothing to undo");
    Mask m = hist.back(); int seat = seats.back();
    std::vector<Mask> keep(hist.begin(), hist.end() - 1);
    hist.clear(); seats.clear(); trick_start = 0;
    st.start(*tables, start_hands, start_to_move, start_must);
    legal_ok = false;
    legal_list = py::object();
    plays = py::object();
    for (Mask k : keep) record(k);
    return py::make_tuple(seat, m);
  }
  // The actions from number *from* on as (seat, cards) pairs, each an instance of *record*
  // (a tuple type of two fields, such as big2.view.Action; None: plain tuples).
  py::list actions(size_t from, py::handle record) const {
    PyTypeObject* tp = &PyTuple_Type;
    if (!record.is_none()) {
      if (!PyType_Check(record.ptr()) ||
          !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(record.ptr()), &PyTuple_Type))
        throw py::type_error("record: expected a tuple type");
      tp = reinterpret_cast<PyTypeObject*>(record.ptr());
    }
    size_t n = from < hist.size() ? hist.size() - from : 0;
    py::list out(n);
    for (size_t i = 0; i < n; ++i) {
      // made as the tuple type's own constructor makes it, without its Python __new__
      PyObject* t = tp == &PyTuple_Type ? PyTuple_New(2) : tp->tp_alloc(tp, 2);
      if (!t) throw py::error_already_set();
      PyObject* seat = PyLong_FromLong(seats[from + i]);
      PyObject* cards = PyLong_FromUnsignedLongLong(hist[from + i]);
      if (!seat || !cards) { Py_XDECREF(seat); Py_XDECREF(cards); Py_DECREF(t); throw py::error_already_set(); }
      PyTuple_SET_ITEM(t, 0, seat);
      PyTuple_SET_ITEM(t, 1, cards);
      PyList_SET_ITEM(out.ptr(), py::ssize_t(i), t);
    }
    return out;
  }
  // Game.numbers(): (to_move, last_player, last cards, its kind, passed, trick leader,
  // must, stock size), -1 or 0 where there is none.
  py::tuple numbers() const {
    int to_move = st.to_move;
    if (!st.has_last) return py::make_tuple(to_move, -1, 0, 0, 0, -1, st.must, 0);
    return py::make_tuple(to_move, st.last_player, st.last.mask, st.last.kind, st.passed,
                          st.trick_leader, st.must, 0);
  }
};

py::object seat_or_none(int seat) {
  if (seat < 0) return py::none();
  return py::int_(seat);
}

}  // namespace

void register_state(py::module_& m) {
  g_zero = PyLong_FromLong(0);
  g_plays_base = PyType_FromSpec(&plays_spec);
  if (!g_plays_base || !g_zero) throw py::error_already_set();
  m.add_object("PlaysBase", py::reinterpret_borrow<py::object>(g_plays_base));
  m.def("set_card_type", [](py::object cls) {
        if (!PyType_Check(cls.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), &PyLong_Type))
          throw py::type_error("set_card_type: expected a subclass of int");
        Py_XDECREF(g_card_type);
        g_card_type = cls.release().ptr();
      }, py::arg("cls"), "The card-set class PlaysBase makes its plays of (big2.cards.CardSet).");
  m.def("set_plays_type", [](py::object cls) {
        if (!PyType_Check(cls.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                              reinterpret_cast<PyTypeObject*>(g_plays_base)))
          throw py::type_error("set_plays_type: expected a subclass of PlaysBase");
        Py_XDECREF(g_plays_type);
        g_plays_type = cls.release().ptr();
      }, py::arg("cls"), "The class State.legal_plays() makes (big2.position.LegalPlays).");
  py::class_<PyState>(m, "State",
      "One deal stepped in the core: the turn, the trick, the passes, the finishing order, "
      "the scores and the history of plays and passes (what big2.Game keeps natively).")
      .def(py::init<std::shared_ptr<Tables>, const std::vector<py::object>&, int, py::handle,
                    py::object>(),
           py::arg("tables"), py::arg("hands"), py::arg("to_move"), py::arg("must"),
           py::arg("variant") = py::none(),
           "*variant*: the rule set that legal_plays() hands to its LegalPlays.")
      .def("legal_plays", &PyState::legal_plays,
           "legal() as a big2.position.LegalPlays (the type set_plays_type registered), "
           "one a position.")
      .def("legal", &PyState::legal_py,
           "The legal plays now (0: the pass), in the Python Game's order: one list a "
           "position, shared by the calls until the next action (do not change it).")
      .def("play", &PyState::play, py::arg("cards"),
           "Play (or pass with 0) a legal play; ValueError names what is wrong.")
      .def("try_play", &PyState::try_play, py::arg("cards"),
           "Play *cards* if it is an int listed by legal(), and return the seat to move next "
           "(-1: the deal is over); otherwise change nothing and return -2.")
      .def("replay", &PyState::replay, py::arg("seats"), py::arg("masks"),
           "Apply recorded actions unchecked for legality (each the mover's, held, a "
           "combination or a pass on a play); stop at the first that is not. How many applied.")
      .def("undo", &PyState::undo, "Take back the last action: (seat, cards); IndexError if none.")
      .def("copy", [](const PyState& s) { return PyState(s); }, "An independent copy.")
      .def("actions", &PyState::actions, py::arg("start") = 0, py::arg("record") = py::none(),
           "The actions from number *start* on, as (seat, cards) pairs (cards 0: a pass), each "
           "an instance of *record* (a tuple type of two fields, such as big2.view.Action) or a "
           "plain tuple.")
      .def("numbers", &PyState::numbers, "The table's public state as Game.numbers() gives it.")
      .def_property_readonly("steps", [](const PyState& s) { return s.hist.size(); },
                             "How many actions (plays and passes) so far.")
      .def_property_readonly("start", [](const PyState& s) {
        return py::make_tuple(std::vector<Mask>(s.start_hands, s.start_hands + s.st.n),
                              s.start_to_move, s.start_must);
      }, "The deal's start: (hands, seat to move, must-contain card).")
      .def_property_readonly("to_move", [](const PyState& s) { return seat_or_none(s.st.to_move); })
      .def_property_readonly("hands", [](const PyState& s) {
        return std::vector<Mask>(s.st.hands, s.st.hands + s.st.n);
      })
      .def_property_readonly("last", [](const PyState& s) -> py::object {
        if (!s.st.has_last) return py::none();
        return py::make_tuple(s.st.last.mask, s.st.last.kind, s.st.last.power);
      }, "The play to beat: (cards, kind, power), or None when leading.")
      .def_property_readonly("last_player", [](const PyState& s) {
        return seat_or_none(s.st.last_player);
      })
      .def_property_readonly("passed", [](const PyState& s) { return s.st.passed; })
      .def_property_readonly("must", [](const PyState& s) { return s.st.must; },
                             "The card the next play must contain (the deal's first play), or 0.")
      .def_property_readonly("trick_start", [](const PyState& s) { return s.trick_start; },
                             "Where the current trick starts among the actions.")
      .def_property_readonly("finished", [](const PyState& s) {
        return std::vector<int>(s.st.finished, s.st.finished + s.st.nfinished);
      })
      .def_property_readonly("scores", [](const PyState& s) -> py::object {
        if (s.st.to_move >= 0) return py::none();
        py::tuple out(s.st.n);
        for (int i = 0; i < s.st.n; ++i) out[i] = py::int_(s.st.scores[i]);
        return out;
      });
}
