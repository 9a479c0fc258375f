// big2._native.PlaysBase: the C part of big2.position.LegalPlays (state_bindings.cpp's
// State.legal_plays() makes one a position, and a random player reads one a turn).
// A position's legal plays kept as their masks; len() and indexing are C slots that
// make a big2.cards.CardSet only for the play read (the class registered with
// set_card_type; plain ints before that). The Python subclass adds membership,
// equality and repr.
// A one-deck State keeps the masks in the object itself (new_plays_raw): the list of
// Python ints and the hand's int are made only when _masks or _hand is read (membership,
// equality, a Python engine's LegalPlays), so listing the plays and drawing one makes
// one object and the CardSet drawn (the pass and single cards made once: g_small_cards). Elsewhere (two decks; LegalPlays made in Python) the
// masks are a sequence of ints given (new_plays, or _masks set).
#pragma once

#include <pybind11/pybind11.h>
#include <structmember.h>

#include <cstddef>
#include <cstdint>

namespace big2s {

struct PlaysObject {
  PyObject_VAR_HEAD   // ob_size: the masks kept in raw
  PyObject* masks;    // the plays' masks, a sequence of ints (0: the pass); null until read
                      // while the masks are raw
  PyObject* variant;  // the rule set (big2.variant.Variant), for membership
  PyObject* hand;     // the mover's hand, to match copies (two decks); null until read
  PyObject* keys;     // the plays' keys, made on the first membership test
  int from_raw;       // the masks are raw's (else masks's)
  uint64_t raw_hand;  // the mover's hand while hand is null
  uint64_t raw[1];    // ob_size masks, when from_raw
};

inline PyObject* g_card_type = nullptr;   // big2.cards.CardSet
inline PyObject* g_plays_type = nullptr;  // big2.position.LegalPlays
inline PyObject* g_plays_base = nullptr;  // PlaysBase itself

// *mask* (an int) as a CardSet (a new reference).
inline PyObject* card_of(PyObject* mask) {
  if (!g_card_type) { Py_INCREF(mask); return mask; }
  PyObject* args = PyTuple_Pack(1, mask);
  if (!args) return nullptr;
  PyObject* out = PyLong_Type.tp_new(reinterpret_cast<PyTypeObject*>(g_card_type), args, nullptr);
  Py_DECREF(args);
  return out;
}

// The CardSet of no card (the pass) and of each single card, made once each: a random
// player draws one of these in most turns (a CardSet is immutable, so one object serves).
inline PyObject* g_small_cards[65] = {};

inline PyObject* card_of_mask(uint64_t m) {
  bool small = !(m & (m - 1));  // the pass or one card
  size_t at = m ? size_t(__builtin_ctzll(m)) + 1 : 0;
  if (small && g_small_cards[at]) {
    Py_INCREF(g_small_cards[at]);
    return g_small_cards[at];
  }
  PyObject* mask = PyLong_FromUnsignedLongLong(m);
  if (!mask) return nullptr;
  PyObject* out = card_of(mask);
  Py_DECREF(mask);
  if (out && small && g_card_type) {  // kept for the next time (a reference of its own)
    Py_INCREF(out);
    g_small_cards[at] = out;
  }
  return out;
}

// Forget the kept CardSets (a new card type was registered).
inline void forget_small_cards() {
  for (PyObject*& c : g_small_cards) Py_CLEAR(c);
}

inline PyObject* cards_of_list(PyObject* list) {
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

// The masks as a Python sequence (borrowed; made from raw on the first call), or null
// with an exception.
inline PyObject* plays_masks(PyObject* self) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  if (!p->masks && p->from_raw) {
    Py_ssize_t n = Py_SIZE(self);
    PyObject* list = PyList_New(n);
    if (!list) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* o = PyLong_FromUnsignedLongLong(p->raw[i]);
      if (!o) { Py_DECREF(list); return nullptr; }
      PyList_SET_ITEM(list, i, o);
    }
    p->masks = list;
  }
  if (!p->masks) PyErr_SetString(PyExc_ValueError, "legal plays without masks");
  return p->masks;
}

inline Py_ssize_t plays_len(PyObject* self) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  if (p->from_raw) return Py_SIZE(self);
  PyObject* masks = plays_masks(self);
  return masks ? PyObject_Size(masks) : -1;
}

inline PyObject* plays_subscript(PyObject* self, PyObject* key) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  if (p->from_raw && PyIndex_Check(key)) {  // a play read from raw: its CardSet alone
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return nullptr;
    Py_ssize_t n = Py_SIZE(self);
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      PyErr_SetString(PyExc_IndexError, "list index out of range");
      return nullptr;
    }
    return card_of_mask(p->raw[i]);
  }
  PyObject* masks = plays_masks(self);
  if (!masks) return nullptr;
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

inline PyObject* plays_iter(PyObject* self) {
  PyObject* masks = plays_masks(self);
  if (!masks) return nullptr;
  PyObject* list = PySequence_List(masks);
  if (!list) return nullptr;
  PyObject* cards = cards_of_list(list);
  Py_DECREF(list);
  if (!cards) return nullptr;
  PyObject* it = PyObject_GetIter(cards);
  Py_DECREF(cards);
  return it;
}

inline PyObject* plays_get_masks(PyObject* self, void*) {
  PyObject* masks = plays_masks(self);
  Py_XINCREF(masks);
  return masks;
}

inline int plays_set_masks(PyObject* self, PyObject* value, void*) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  Py_XINCREF(value);
  Py_XSETREF(p->masks, value);
  p->from_raw = 0;  // the masks are these now
  return 0;
}

inline PyObject* plays_get_hand(PyObject* self, void*) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  if (!p->hand) {
    p->hand = PyLong_FromUnsignedLongLong(p->raw_hand);
    if (!p->hand) return nullptr;
  }
  Py_INCREF(p->hand);
  return p->hand;
}

inline int plays_set_hand(PyObject* self, PyObject* value, void*) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "_hand cannot be deleted");
    return -1;
  }
  Py_INCREF(value);
  Py_XSETREF(p->hand, value);
  return 0;
}

inline int plays_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  Py_VISIT(p->masks); Py_VISIT(p->variant); Py_VISIT(p->hand); Py_VISIT(p->keys);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

inline int plays_clear(PyObject* self) {
  auto* p = reinterpret_cast<PlaysObject*>(self);
  Py_CLEAR(p->masks); Py_CLEAR(p->variant); Py_CLEAR(p->hand); Py_CLEAR(p->keys);
  return 0;
}

inline void plays_dealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  plays_clear(self);
  tp->tp_free(self);
  Py_DECREF(tp);
}

inline PyMemberDef plays_members[] = {
    {"_variant", T_OBJECT, offsetof(PlaysObject, variant), 0, "the rule set"},
    {"_keys", T_OBJECT, offsetof(PlaysObject, keys), 0, "the plays' keys, once made"},
    {nullptr, 0, 0, 0, nullptr},
};

inline PyGetSetDef plays_getset[] = {
    {"_masks", plays_get_masks, plays_set_masks, "the plays' masks", nullptr},
    {"_hand", plays_get_hand, plays_set_hand, "the mover's hand", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

inline PyType_Slot plays_slots[] = {
    {Py_tp_doc, const_cast<char*>("The C part of big2.position.LegalPlays: len() and "
                                  "indexing over the masks, a CardSet made per play read.")},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(plays_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(plays_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(plays_clear)},
    {Py_tp_members, plays_members},
    {Py_tp_getset, plays_getset},
    {Py_tp_iter, reinterpret_cast<void*>(plays_iter)},
    {Py_sq_length, reinterpret_cast<void*>(plays_len)},
    {Py_mp_length, reinterpret_cast<void*>(plays_len)},
    {Py_mp_subscript, reinterpret_cast<void*>(plays_subscript)},
    {0, nullptr},
};

inline PyType_Spec plays_spec = {
    "big2._native.PlaysBase", int(offsetof(PlaysObject, raw)), int(sizeof(uint64_t)),
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, plays_slots,
};

inline PyTypeObject* plays_type() {
  if (!g_plays_type) {
    PyErr_SetString(PyExc_RuntimeError, "set_plays_type() has not been called");
    return nullptr;
  }
  return reinterpret_cast<PyTypeObject*>(g_plays_type);
}

// A LegalPlays (the registered type) over *masks* of *variant*'s rule set, the mover's
// *hand* (for matching copies).
inline PyObject* new_plays(PyObject* masks, PyObject* variant, PyObject* hand) {
  PyTypeObject* tp = plays_type();
  if (!tp) return nullptr;
  PyObject* o = tp->tp_alloc(tp, 0);
  if (!o) return nullptr;
  auto* p = reinterpret_cast<PlaysObject*>(o);
  Py_INCREF(masks); p->masks = masks;
  Py_INCREF(variant); p->variant = variant;
  Py_INCREF(hand); p->hand = hand;
  return o;
}

// The same over the *n* one-deck masks at *masks*, kept in the object (see the top).
inline PyObject* new_plays_raw(const uint64_t* masks, Py_ssize_t n, PyObject* variant,
                               uint64_t hand) {
  PyTypeObject* tp = plays_type();
  if (!tp) return nullptr;
  PyObject* o = tp->tp_alloc(tp, n);
  if (!o) return nullptr;
  auto* p = reinterpret_cast<PlaysObject*>(o);
  for (Py_ssize_t i = 0; i < n; ++i) p->raw[i] = masks[i];
  p->from_raw = 1;
  p->raw_hand = hand;
  Py_INCREF(variant); p->variant = variant;
  return o;
}

}  // namespace big2s
