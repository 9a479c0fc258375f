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
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "deal.hpp"
#include "plays_base.hpp"
#include "py_mask.hpp"
#include "state_decks.hpp"
#include "wide_state.hpp"

namespace py = pybind11;
using namespace big2n;
using namespace big2s;  // PlaysBase (plays_base.hpp)

namespace {

PyObject* g_zero = nullptr;  // the int 0

template <class K>
py::object mask_obj(typename K::M m) {
  PyObject* o = K::to_py(m);
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

template <class K>
py::list mask_list(const typename K::M* m, int n) {
  py::list out(n);
  for (int i = 0; i < n; ++i) {
    PyObject* o = K::to_py(m[i]);
    if (!o) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), py::ssize_t(i), o);
  }
  return out;
}

template <class K>
struct PyStateT {
  using M = typename K::M;
  std::shared_ptr<typename K::T> tables;
  typename K::S st;
  M start_hands[K::kSeats] = {};   // the deal's start, for undo by replay
  int start_to_move = 0;
  M start_must = 0;
  std::vector<M> hist;             // every play and pass (0), in order
  std::vector<int> seats;          // who made each
  size_t trick_start = 0;          // where the current trick starts in hist
  std::vector<M> legal;
  bool legal_ok = false;
  py::object legal_list;           // legal as a Python list, made once a position
  py::object variant;              // the rule set, for legal_plays()
  py::object plays;                // legal_plays(), made once a position

  PyStateT(std::shared_ptr<typename K::T> t, const std::vector<py::object>& hands, int to_move,
           py::handle must, py::object owner) : tables(std::move(t)), variant(std::move(owner)) {
    if (int(hands.size()) != tables->players)
      throw py::value_error("hands: expected " + std::to_string(tables->players) + " hands, got " +
                            std::to_string(hands.size()));
    M h[K::kSeats] = {}; M seen = 0;
    for (size_t i = 0; i < hands.size(); ++i) {
      h[i] = K::from_py(hands[i], "hands");
      if (K::off_deck(*tables, h[i]))
        throw py::value_error("hands: holds a card that is not in this rule set's deck");
      if (h[i] & seen) throw py::value_error("hands: the same card is in two hands");
      seen |= h[i];
    }
    if (to_move < 0 || to_move >= tables->players) throw py::value_error("to_move: not a seat");
    if (!h[to_move]) throw py::value_error("to_move: that seat holds no cards");
    M m = K::from_py(must, "must");
    if (K::count(m) > 1 || (m & ~h[to_move]))
      throw py::value_error("must: one card of the leader's hand, or 0");
    std::copy(h, h + K::kSeats, start_hands);
    start_to_move = to_move;
    start_must = m;
    st.start(*tables, h, to_move, m);
  }

  const std::vector<M>& legal_now() {
    if (!legal_ok) { st.legal(legal); legal_ok = true; }
    return legal;
  }
  M mover_hand() const { return st.to_move >= 0 ? st.hands[st.to_move] : M(0); }
  py::object legal_py() {
    if (!legal_list) {
      const auto& l = legal_now();
      legal_list = mask_list<K>(l.data(), int(l.size()));
    }
    return legal_list;
  }
  py::object legal_plays() {
    if (!plays) {
      PyObject* o;
      if constexpr (std::is_same_v<M, uint64_t>) {  // one deck: the masks kept in the object
        const auto& l = legal_now();
        o = new_plays_raw(l.data(), py::ssize_t(l.size()), variant.ptr(), mover_hand());
      } else {
        py::object masks = legal_py();
        py::object hand = mask_obj<K>(mover_hand());
        o = new_plays(masks.ptr(), variant.ptr(), hand.ptr());
      }
      if (!o) throw py::error_already_set();
      plays = py::reinterpret_steal<py::object>(o);
    }
    return plays;
  }
  long find(M m) { return K::find(st, legal_now(), m, mover_hand()); }
  // Apply a play or pass the caller has checked (*at*: its place in legal, or -1),
  // recording it.
  void record(M m, long at) {
    seats.push_back(st.to_move);
    hist.push_back(m);
    bool had = st.has_last;
    K::apply(st, *tables, m, at);
    legal_ok = false;
    legal_list = py::object();
    plays = py::object();
    // a new trick is led (a leader's pass, under finish restrictions, stays in the trick)
    if (st.to_move >= 0 && !st.has_last && (had || m)) trick_start = hist.size();
  }
  void play(py::handle cards) {
    M m = K::from_py(cards, "play");
    if (st.to_move < 0) throw py::value_error("the deal is over");
    if (M away = m & ~st.hands[st.to_move])
      throw py::value_error("play: seat " + std::to_string(st.to_move) + " does not hold card " +
                            std::to_string(K::lowest(away)));
    long at = find(m);
    if (at < 0) throw py::value_error("play: not a legal play now");
    record(m, at);
  }
  // The fast path: *cards* an int (not a bool) that is one of the listed legal plays (two
  // decks: or the same card names, held) is played, and the seat to move next returned
  // (-1: the deal is over); anything else is left alone and -2 returned, for the caller
  // to check and explain.
  int try_play(py::handle cards) {
    M m = 0;
    if (st.to_move < 0 || !K::try_mask(cards.ptr(), m)) return -2;
    long at = find(m);
    if (at < 0) return -2;
    record(m, at);
    return st.to_move;
  }
  // Replay recorded actions without the legality check (a search's guessed deal):
  // each must be the seat to move's, its cards held and a combination (or a pass
  // on a play, or a leader's under finish restrictions). Stops at the first that is
  // not; returns how many were applied.
  size_t replay(const std::vector<int>& who, const std::vector<py::object>& masks) {
    if (who.size() != masks.size()) throw py::value_error("replay: one seat per action");
    for (size_t i = 0; i < masks.size(); ++i) {
      M m = 0;
      if (!K::try_mask(masks[i].ptr(), m)) return i;
      if (st.to_move < 0 || who[i] != st.to_move || K::outside(m)) return i;
      if (m ? ((m & ~st.hands[st.to_move]) || !K::is_play(*tables, m))
            : (!st.has_last && !K::finish_barred(*tables)))
        return i;
      record(m, -1);
    }
    return masks.size();
  }
  py::tuple undo() {
    if (hist.empty()) throw py::index_error("nothing to undo");
    M m = hist.back(); int seat = seats.back();
    std::vector<M> keep(hist.begin(), hist.end() - 1);
    hist.clear(); seats.clear(); trick_start = 0;
    st.start(*tables, start_hands, start_to_move, start_must);
    legal_ok = false;
    legal_list = py::object();
    plays = py::object();
    for (M k : keep) record(k, -1);
    return py::make_tuple(seat, mask_obj<K>(m));
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
      PyObject* cards = K::to_py(hist[from + i]);
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
    py::object must = mask_obj<K>(st.must);
    if (!st.has_last) return py::make_tuple(to_move, -1, 0, 0, 0, -1, must, 0);
    return py::make_tuple(to_move, st.last_player, mask_obj<K>(st.last.mask), st.last.kind,
                          st.passed, st.trick_leader, must, 0);
  }
};

// The calls a random player makes each turn (try_play, legal_plays, legal) as plain C
// methods of the class (METH_O, METH_NOARGS): pybind11's dispatch cost about as much as
// the calls themselves.
template <class K>
PyStateT<K>* state_of(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  auto* s = static_cast<PyStateT<K>*>(inst->get_value_and_holder().value_ptr());
  if (!s) PyErr_SetString(PyExc_TypeError, "the state is not initialised");
  return s;
}

// f(state) as a method's result (a new reference, or null with the exception set).
template <class K, class F>
PyObject* call_state(PyObject* self, F&& f) {
  PyStateT<K>* s = state_of<K>(self);
  if (!s) return nullptr;
  try {
    return f(*s);
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

template <class K>
PyObject* state_try_play(PyObject* self, PyObject* cards) {
  return call_state<K>(self, [&](PyStateT<K>& s) { return PyLong_FromLong(s.try_play(cards)); });
}

template <class K>
PyObject* state_legal_plays(PyObject* self, PyObject*) {
  return call_state<K>(self, [](PyStateT<K>& s) { return s.legal_plays().release().ptr(); });
}

template <class K>
PyObject* state_legal(PyObject* self, PyObject*) {
  return call_state<K>(self, [](PyStateT<K>& s) { return s.legal_py().release().ptr(); });
}

template <class K>
void add_hot_methods(py::handle cls) {
  static PyMethodDef methods[] = {
      {"legal_plays", state_legal_plays<K>, METH_NOARGS,
       "legal() as a big2.position.LegalPlays (the type set_plays_type registered), one a "
       "position."},
      {"legal", state_legal<K>, METH_NOARGS,
       "The legal plays now (0: the pass), in the Python Game's order: one list a position, "
       "shared by the calls until the next action (do not change it)."},
      {"try_play", state_try_play<K>, METH_O,
       "Play *cards* if it is an int listed by legal(), and return the seat to move next "
       "(-1: the deal is over); otherwise change nothing and return -2."},
      {nullptr, nullptr, 0, nullptr}};
  for (PyMethodDef* d = methods; d->ml_name; ++d) {
    PyObject* method = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), d);
    if (!method) throw py::error_already_set();
    int bad = PyObject_SetAttrString(cls.ptr(), d->ml_name, method);
    Py_DECREF(method);
    if (bad) throw py::error_already_set();
  }
}

py::object seat_or_none(int seat) {
  if (seat < 0) return py::none();
  return py::int_(seat);
}

}  // namespace

template <class K>
void register_state_class(py::module_& m, const char* name, const char* doc) {
  using S = PyStateT<K>;
  py::class_<S> cls(m, name, doc);
  add_hot_methods<K>(cls);  // legal_plays, legal, try_play
  cls.def(py::init<std::shared_ptr<typename K::T>, const std::vector<py::object>&, int, py::handle,
                    py::object>(),
           py::arg("tables"), py::arg("hands"), py::arg("to_move"), py::arg("must"),
           py::arg("variant") = py::none(),
           "*variant*: the rule set that legal_plays() hands to its LegalPlays.")
      .def("play", &S::play, py::arg("cards"),
           "Play (or pass with 0) a legal play; ValueError names what is wrong.")
      .def("replay", &S::replay, py::arg("seats"), py::arg("masks"),
           "Apply recorded actions unchecked for legality (each the mover's, held, a "
           "combination or a pass on a play); stop at the first that is not. How many applied.")
      .def("undo", &S::undo, "Take back the last action: (seat, cards); IndexError if none.")
      .def("copy", [](const S& s) { return S(s); }, "An independent copy.")
      .def("actions", &S::actions, py::arg("start") = 0, py::arg("record") = py::none(),
           "The actions from number *start* on, as (seat, cards) pairs (cards 0: a pass), each "
           "an instance of *record* (a tuple type of two fields, such as big2.view.Action) or a "
           "plain tuple.")
      .def("numbers", &S::numbers, "The table's public state as Game.numbers() gives it.")
      .def_property_readonly("steps", [](const S& s) { return s.hist.size(); },
                             "How many actions (plays and passes) so far.")
      .def_property_readonly("start", [](const S& s) {
        return py::make_tuple(mask_list<K>(s.start_hands, s.st.n), s.start_to_move,
                              mask_obj<K>(s.start_must));
      }, "The deal's start: (hands, seat to move, must-contain card).")
      .def_property_readonly("to_move", [](const S& s) { return seat_or_none(s.st.to_move); })
      .def_property_readonly("waive", [](const S& s) { return s.st.waive; },
                             "Every seat holding cards passed the lead (finish restrictions): "
                             "the restriction is waived until the next play.")
      .def_property_readonly("lead_passes", [](const S& s) { return s.st.lead_passes; },
                             "Leaders in a row who had no legal play and passed.")
      .def_property_readonly("hands", [](const S& s) {
        return mask_list<K>(s.st.hands, s.st.n);
      })
      .def_property_readonly("last", [](const S& s) -> py::object {
        if (!s.st.has_last) return py::none();
        return K::last(s.st);
      }, "The play to beat: (cards, kind, power), or None when leading.")
      .def_property_readonly("last_player", [](const S& s) {
        return seat_or_none(s.st.last_player);
      })
      .def_property_readonly("passed", [](const S& s) { return s.st.passed; })
      .def_property_readonly("must", [](const S& s) { return mask_obj<K>(s.st.must); },
                             "The card the next play must contain (the deal's first play), or 0.")
      .def_property_readonly("trick_start", [](const S& s) { return s.trick_start; },
                             "Where the current trick starts among the actions.")
      .def_property_readonly("finished", [](const S& s) {
        return std::vector<int>(s.st.finished, s.st.finished + s.st.nfinished);
      })
      .def_property_readonly("scores", [](const S& s) -> py::object {
        if (s.st.to_move >= 0) return py::none();
        py::tuple out(s.st.n);
        for (int i = 0; i < s.st.n; ++i) out[i] = py::int_(s.st.scores[i]);
        return out;
      });
}

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
        forget_small_cards();
      }, py::arg("cls"), "The card-set class PlaysBase makes its plays of (big2.cards.CardSet).");
  m.def("set_plays_type", [](py::object cls) {
        if (!PyType_Check(cls.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                              reinterpret_cast<PyTypeObject*>(g_plays_base)))
          throw py::type_error("set_plays_type: expected a subclass of PlaysBase");
        Py_XDECREF(g_plays_type);
        g_plays_type = cls.release().ptr();
      }, py::arg("cls"), "The class State.legal_plays() makes (big2.position.LegalPlays).");
  register_state_class<big2s::OneDeck>(m, "State",
      "One deal stepped in the core: the turn, the trick, the passes, the finishing order, "
      "the scores and the history of plays and passes (what big2.Game keeps natively).");
  register_state_class<big2s::TwoDecks>(m, "WideState",
      "State for two decks (104 cards, 2-8 players; engine_extended.hpp): masks are ints of "
      "cards 0..51 and 54..105, a play of the listed card names may name other copies held.");
}
