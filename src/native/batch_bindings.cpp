// Bindings of big2._native.Batch (batch.hpp): N deals of one rule set stepped together
// into caller-owned NumPy arrays, for the vector environment (big2.env.native_games).
// Every array is checked (dtype, shape, layout, writeability) before a game moves;
// stepping releases the GIL and splits the games over the batch's threads (pool.hpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "batch.hpp"
#include "batch_arrays.hpp"
#include "pool.hpp"

namespace py = pybind11;
using namespace big2n;
using namespace big2b;  // buffer, parse_layout, HandIds, id_row (batch_arrays.hpp)

namespace {

// N deals stepped together, writing into caller-owned NumPy arrays. Calls on one
// batch from several Python threads take turns (the mutex), since stepping runs
// without the GIL.
// The observation layout a caller passes (every offset checked).
static ObsLayout parse_layout(py::dict layout) {
  ObsLayout o{};
  // every offset an int in 0..65536, so no field can start outside the buffer
  auto at = [&](const char* k) {
    if (!layout.contains(k)) throw py::value_error(std::string("layout: missing ") + k);
    py::handle v = layout[k];
    if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr()))
      throw py::type_error(std::string("layout['") + k + "']: expected an int, got " +
                           std::string(py::str(py::type::handle_of(v).attr("__name__"))));
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow || x < 0 || x > (1 << 16))
      throw py::value_error(std::string("layout['") + k + "']: " +
                            std::string(py::str(v)) + " is outside 0..65536");
    return int(x);
  };
  o.hand = at("hand"); o.played = at("played"); o.count = at("count"); o.passed = at("passed");
  o.last_play = at("last_play"); o.last_kind = at("last_kind");
  o.last_player = at("last_player"); o.leading = at("leading");
  o.trick_leader = at("trick_leader"); o.to_move = at("to_move");
  o.must_contain = at("must_contain"); o.players = at("players"); o.spare = at("spare");
  o.stock = at("stock"); o.size = at("size"); o.count_width = at("count_width");
  int top = std::max({o.hand + 52, o.played + 4 * 52, o.count + 4 * o.count_width,
                      o.passed + 4, o.last_play + 52, o.last_kind + 12, o.last_player + 4,
                      o.leading + 1, o.trick_leader + 4, o.to_move + 1, o.must_contain + 52,
                      o.players + 3, o.spare + 52, o.stock + 1});
  if (o.size < top || o.count_width < 27 || o.size > (1 << 16))
    throw py::value_error("layout: fields outside the observation");
  return o;
}

struct PyBatch {
  std::shared_ptr<Tables> tables;
  Batch batch;
  int threads = 1;
  std::unique_ptr<Pool> pool;  // the threads beside the caller's (threads > 1)
  std::mutex mu;
  ObsLayout layout{};          // step_observe's observation layout (set_layout)
  bool has_layout = false;

  // The pool's call sites (it measures each apart: see pool.hpp).
  enum Site { kStepSite = 1, kStepObserveSite, kObserveSite, kHandIdsSite, kChoicesSite, kRandomSite };

  // f(lo, hi) over the games, split over the pool's threads (hold the lock).
  template <class F>
  void each(F&& f, Site site) {
    if (pool) pool->run(batch.games.size(), f, site); else f(size_t(0), batch.games.size());
  }

  // Each call site's calls so far: (stepped alone, split over the threads); empty
  // without a pool.
  py::list pool_calls() {
    std::lock_guard<std::mutex> lock(mu);
    py::list out;
    for (int i = 0; pool && i < Pool::kSites; ++i)
      out.append(py::make_tuple(pool->site(i).alone_calls, pool->site(i).split_calls));
    return out;
  }

  PyBatch(std::shared_ptr<Tables> t, py::ssize_t num_envs, uint64_t seed, int threads_,
          uint64_t first)
      : tables(std::move(t)), threads(threads_) {
    if (num_envs < 1 || num_envs > (1 << 22)) throw py::value_error("num_envs: 1 to 4194304");
    if (threads < 1 || threads > 256) throw py::value_error("threads: 1 to 256");
    batch.init(*tables, size_t(num_envs), seed, first);
    if (threads > 1) pool = std::make_unique<Pool>(threads);
  }

  py::tuple deal_log(py::ssize_t i) {
    if (i < 0 || i >= n()) throw py::index_error("game: 0 to num_envs - 1");
    std::lock_guard<std::mutex> lock(mu);
    const auto& d = batch.dealt[size_t(i)];
    return py::make_tuple(std::vector<Mask>(d.begin(), d.begin() + tables->players),
                          batch.deal_dealer[size_t(i)], batch.plays[size_t(i)]);
  }
  py::ssize_t n() const { return py::ssize_t(batch.games.size()); }

  size_t legal_into(py::object masks, py::object counts) {
    int64_t* c = buffer<int64_t>(counts, "counts", {n()});
    uint64_t* m = buffer<uint64_t>(masks, "masks", {n(), -1});
    size_t k = size_t(py::reinterpret_borrow<py::array>(masks).shape(1)), most = 0;
    py::gil_scoped_release release;  // the GIL first, then the lock: never one held waiting
    std::lock_guard<std::mutex> lock(mu);
    for (size_t i = 0; i < batch.games.size(); ++i) {
      const auto& l = batch.legal[i];
      c[i] = int64_t(l.size());
      most = std::max(most, l.size());
      size_t j = 0;
      for (; j < l.size() && j < k; ++j) m[i * k + j] = l[j];
      for (; j < k; ++j) m[i * k + j] = 0;
    }
    return most;
  }

  // Games marked in *which* start a deal of the rows of *hands* (N x players).
  void deal_hands(py::object hands, py::object which) {
    int p = tables->players;
    const uint64_t* h = buffer<uint64_t>(hands, "hands", {n(), p}, false);
    const bool* w = buffer<bool>(which, "which", {n()}, false);
    for (py::ssize_t i = 0; i < n(); ++i) {
      if (!w[i]) continue;
      uint64_t seen = 0;
      for (int s = 0; s < p; ++s) {
        uint64_t m = h[i * p + s];
        std::string at = "hands: game " + std::to_string(i) + ", seat " + std::to_string(s);
        if (m == 0) throw py::value_error(at + " holds no card");
        if (m >> kCards) throw py::value_error(at + " holds a card outside 0..51");
        if (m & seen) throw py::value_error(at + " holds a card another seat holds");
        seen |= m;
      }
    }
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mu);
    for (size_t i = 0; i < batch.games.size(); ++i)
      if (w[i]) batch.deal_hands(i, h + i * p);
  }

  void state_into(py::object hands, py::object to_move, py::object last) {
    int p = tables->players;
    uint64_t* h = buffer<uint64_t>(hands, "hands", {n(), p});
    int64_t* tm = buffer<int64_t>(to_move, "to_move", {n()});
    uint64_t* l = buffer<uint64_t>(last, "last", {n()});
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mu);
    for (size_t i = 0; i < batch.games.size(); ++i) {
      const State& g = batch.games[i];
      for (int s = 0; s < p; ++s) h[i * p + s] = g.hands[s];
      tm[i] = g.to_move;
      l[i] = g.has_last ? g.last.mask : 0;
    }
  }

  void step(py::object choices, py::object scores, py::object done, py::object redeal,
            py::object final, py::object layout) {
    const int64_t* ch = buffer<int64_t>(choices, "choices", {n()}, false);
    int64_t* sc = buffer<int64_t>(scores, "scores", {n(), tables->players});
    bool* dn = buffer<bool>(done, "done", {n()});
    const bool* rd = redeal.is_none() ? nullptr : buffer<bool>(redeal, "redeal", {n()}, false);
    ObsLayout o{};
    int8_t* fin = nullptr;
    if (!final.is_none()) {
      if (!py::isinstance<py::dict>(layout))
        throw py::type_error("layout: a dict of offsets is needed with final");
      o = parse_layout(layout.cast<py::dict>());
      fin = buffer<int8_t>(final, "final", {n(), o.size});
    }
    std::string why;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mu);
      why = check_choices(ch, rd);
      if (why.empty()) {
        int p = tables->players;
        each([&](size_t lo, size_t hi) {
          for (size_t i = lo; i < hi; ++i)
            advance(i, ch, rd, sc + i * p, dn + i, o, fin ? fin + i * o.size : nullptr);
        }, kStepSite);
      }
    }
    if (!why.empty()) throw py::value_error(why);
  }

  // Why *ch* cannot be played (a choice outside a game's legal list; games marked in
  // *rd* play nothing), or "" (hold the lock): every game checked before any moves.
  std::string check_choices(const int64_t* ch, const bool* rd) const {
    for (size_t i = 0; i < batch.games.size(); ++i)
      if ((!rd || !rd[i]) && (ch[i] < 0 || size_t(ch[i]) >= batch.legal[i].size()))
        return "choices: game " + std::to_string(i) + " has " +
               std::to_string(batch.legal[i].size()) + " legal plays, not a play " +
               std::to_string(ch[i]);
    return "";
  }

  // Game i plays choice ch[i], or (marked in *rd*) its deal ends unscored and the next is
  // dealt; its scores and done flag go to *sc* and *dn* (hold the lock).
  void advance(size_t i, const int64_t* ch, const bool* rd, int64_t* sc, bool* dn,
               const ObsLayout& o, int8_t* fin) {
    if (rd && rd[i]) {
      int p = tables->players;
      for (int s = 0; s < p; ++s) sc[s] = 0;
      *dn = true;
      batch.dealer[i] = (batch.dealer[i] + 1) % p;
      batch.reset(i);
    } else {
      batch.step(i, size_t(ch[i]), sc, dn, &o, fin);
    }
  }

  // The observation layout step_observe writes in, checked once here.
  void set_layout(py::dict spec) {
    ObsLayout o = parse_layout(spec);
    std::lock_guard<std::mutex> lock(mu);
    layout = o;
    has_layout = true;
  }

  // step, then what observe_into, state_into and hand_ids_into write: one call, one split
  // over the threads instead of four (each thread's chunk of games stepped, then its
  // rows of each array written in a pass of their own, which streams faster than a
  // game's rows of every array in turn).
  // The ids of a row are padded with -1 up to the batch's largest count or *pad*
  // (the caller's last largest count), whichever is more, cut at the row's width;
  // the largest count is returned (more than the width: the caller widens the rows
  // and calls hand_ids_into).  A mover holding more than hand_size cards gets no row
  // and raises after the step (the games have moved).
  size_t step_observe(py::object choices, py::object scores, py::object done,
                      py::object redeal, py::object final, py::object obs, py::object hands,
                      py::object to_move, py::object last, int hand_size, py::object ids,
                      py::object counts, py::object mask, size_t pad) {
    if (!has_layout) throw py::value_error("step_observe: set_layout() first");
    const ObsLayout o = layout;
    int p = tables->players;
    const int64_t* ch = buffer<int64_t>(choices, "choices", {n()}, false);
    int64_t* sc = buffer<int64_t>(scores, "scores", {n(), p});
    bool* dn = buffer<bool>(done, "done", {n()});
    const bool* rd = redeal.is_none() ? nullptr : buffer<bool>(redeal, "redeal", {n()}, false);
    int8_t* fin = final.is_none() ? nullptr : buffer<int8_t>(final, "final", {n(), o.size});
    int8_t* ob = buffer<int8_t>(obs, "observation", {n(), o.size});
    uint64_t* hd = buffer<uint64_t>(hands, "hands", {n(), p});
    int64_t* tm = buffer<int64_t>(to_move, "to_move", {n()});
    uint64_t* ls = buffer<uint64_t>(last, "last", {n()});
    int64_t* c = buffer<int64_t>(counts, "counts", {n()});
    int64_t* d = buffer<int64_t>(ids, "ids", {n(), -1});
    size_t k = size_t(py::reinterpret_borrow<py::array>(ids).shape(1));
    HandIds h(hand_size);
    bool* mk = mask.is_none() ? nullptr : buffer<bool>(mask, "mask", {n(), py::ssize_t(h.size)});
    std::string why;
    std::atomic<size_t> most{0}, over{SIZE_MAX};
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mu);
      why = check_choices(ch, rd);
      if (why.empty()) {
        each([&](size_t lo, size_t hi) {  // a pass over the chunk for each array
          size_t top = 0, first_over = SIZE_MAX;
          for (size_t i = lo; i < hi; ++i)
            advance(i, ch, rd, sc + i * p, dn + i, o, fin ? fin + i * o.size : nullptr);
          for (size_t i = lo; i < hi; ++i)
            observe(batch.games[i], o, batch.spare[i], ob + i * o.size);
          for (size_t i = lo; i < hi; ++i) {
            const State& g = batch.games[i];
            for (int s = 0; s < p; ++s) hd[i * p + s] = g.hands[s];
            tm[i] = g.to_move;
            ls[i] = g.has_last ? g.last.mask : 0;
          }
          for (size_t i = lo; i < hi; ++i) {
            const State& g = batch.games[i];
            const auto& l = batch.legal[i];
            c[i] = int64_t(l.size());
            top = std::max(top, l.size());
            Mask held = g.hands[g.to_move];
            if (popcount(held) > h.hand) { first_over = std::min(first_over, i); continue; }
            id_row(h, l, held, d + i * k, k, pad, mk ? mk + i * h.size : nullptr);
          }
          for (size_t m = most.load(); top > m && !most.compare_exchange_weak(m, top);) {}
          for (size_t m = over.load(); first_over < m && !over.compare_exchange_weak(m, first_over);) {}
        }, kStepObserveSite);
        size_t top = std::min(k, most.load());
        if (top > pad)  // rows padded to *pad* only: on to the largest count
          for (size_t i = 0; i < batch.games.size(); ++i)
            for (size_t j = std::max(size_t(c[i]), pad); j < top; ++j) d[i * k + j] = -1;
      }
    }
    if (!why.empty()) throw py::value_error(why);
    if (size_t i = over.load(); i != SIZE_MAX) {
      const State& g = batch.games[i];
      throw py::value_error("hand_size: game " + std::to_string(i) + "'s mover holds " +
                            std::to_string(popcount(g.hands[g.to_move])) + " cards, more than " +
                            std::to_string(hand_size));
    }
    return most.load();
  }

  void observe_into(py::object out, py::dict layout) {
    ObsLayout o = parse_layout(layout);
    int8_t* dst = buffer<int8_t>(out, "out", {n(), o.size});
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mu);
    each([&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) observe(batch.games[i], o, batch.spare[i], dst + i * o.size);
    }, kObserveSite);
  }

  // Every mover's hand must fit the id space's hand size (hold the lock).
  void check_hands(const HandIds& h) const {
    int hand_size = h.hand;
    for (size_t i = 0; i < batch.games.size(); ++i) {
      const State& g = batch.games[i];
      if (popcount(g.hands[g.to_move]) > hand_size)
        throw py::value_error("hand_size: game " + std::to_string(i) + "'s mover holds " +
                              std::to_string(popcount(g.hands[g.to_move])) + " cards, more than " +
                              std::to_string(hand_size));
    }
  }

  size_t hand_ids_into(int hand_size, py::object ids, py::object counts, py::object mask) {
    int64_t* c = buffer<int64_t>(counts, "counts", {n()});
    int64_t* d = buffer<int64_t>(ids, "ids", {n(), -1});
    size_t k = size_t(py::reinterpret_borrow<py::array>(ids).shape(1));
    HandIds h(hand_size);
    bool* mk = mask.is_none() ? nullptr : buffer<bool>(mask, "mask", {n(), py::ssize_t(h.size)});
    size_t most = 0;
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mu);
    check_hands(h);
    for (size_t i = 0; i < batch.games.size(); ++i) most = std::max(most, batch.legal[i].size());
    each([&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) {
        const State& g = batch.games[i];
        const auto& l = batch.legal[i];
        c[i] = int64_t(l.size());
        id_row(h, l, g.hands[g.to_move], d + i * k, k, most, mk ? mk + i * h.size : nullptr);
      }
    }, kHandIdsSite);
    return most;
  }

  // out[i] = ids[i, int(draw[i] * counts[i])]: a uniform draw among each game's first
  // counts[i] ids (the NumPy sum it replaces, in one pass); IndexError past a row.
  void pick_ids(py::object draw, py::object ids, py::object counts, py::object out) {
    const double* u = buffer<double>(draw, "draw", {n()}, false);
    const int64_t* d = buffer<int64_t>(ids, "ids", {n(), -1}, false);
    const int64_t* c = buffer<int64_t>(counts, "counts", {n()}, false);
    int64_t* o = buffer<int64_t>(out, "out", {n()});
    int64_t k = int64_t(py::reinterpret_borrow<py::array>(ids).shape(1));
    for (py::ssize_t i = 0; i < n(); ++i) {
      int64_t j = int64_t(u[i] * double(c[i]));
      if (j < 0 || j >= k)
        throw py::index_error("pick_ids: game " + std::to_string(i) + " picks place " +
                              std::to_string(j) + " of a row of " + std::to_string(k));
      o[i] = d[i * k + j];
    }
  }

  size_t choices_from_hand_ids(int hand_size, py::object actions, py::object choices) {
    const int64_t* a = buffer<int64_t>(actions, "actions", {n()}, false);
    int64_t* ch = buffer<int64_t>(choices, "choices", {n()});
    HandIds h(hand_size);
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mu);
    check_hands(h);
    std::atomic<size_t> bad_all{0};
    each([&](size_t lo, size_t hi) {
      size_t bad = 0;
      for (size_t i = lo; i < hi; ++i) {
        const State& g = batch.games[i];
        const auto& l = batch.legal[i];
        Mask held = g.hands[g.to_move];
        ch[i] = -1;
        if (a[i] >= 0 && a[i] < h.size)
          for (size_t j = 0; j < l.size(); ++j)
            if (h.id(l[j], held) == a[i]) { ch[i] = int64_t(j); break; }
        bad += ch[i] < 0;
      }
      bad_all += bad;
    }, kChoicesSite);
    return bad_all;
  }

  py::tuple random_steps(uint64_t steps_per_game, uint64_t seed) {
    std::vector<uint64_t> deals(batch.games.size(), 0);
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mu);
      each([&](size_t lo, size_t hi) {
        int64_t scores[4]; bool done;
        for (size_t i = lo; i < hi; ++i) {
          Rng rng(seed * 0x2545F4914F6CDD1DULL + i);
          for (uint64_t k = 0; k < steps_per_game; ++k) {
            batch.step(i, rng.below(uint32_t(batch.legal[i].size())), scores, &done);
            deals[i] += done;
          }
        }
      }, kRandomSite);
    }
    uint64_t total = 0;
    for (auto d : deals) total += d;
    return py::make_tuple(steps_per_game * batch.games.size(), total);
  }
};

}  // namespace

void register_batch(py::module_& m) {
  py::class_<PyBatch>(m, "Batch",
      "N deals of one rule set stepped together (auto-reset), into caller-owned NumPy arrays; "
      "stepping releases the GIL and splits the games over *threads*.")
      .def(py::init<std::shared_ptr<Tables>, py::ssize_t, uint64_t, int, uint64_t>(),
           py::arg("tables"), py::arg("num_envs"), py::arg("seed"), py::arg("threads") = 1,
           py::arg("first") = 0,
           "Game i deals from the stream seeded by seed * 0x9E3779B97F4A7C15 + first + i "
           "(mod 2**64): a share of a larger batch starting at game *first* deals as it would "
           "there.")
      .def_property_readonly("num_envs", &PyBatch::n)
      .def("deal_log", &PyBatch::deal_log, py::arg("game"),
           "Game's current deal so far: (its dealt hands, its dealer, every play and pass (0) "
           "in order).")
      .def("legal_into", &PyBatch::legal_into, py::arg("masks"), py::arg("counts"),
           "Write each game's legal plays (uint64 masks, 0 the pass, zero-padded to the "
           "array's width K, cut at K) and their full counts (int64); return the largest count.")
      .def("state_into", &PyBatch::state_into, py::arg("hands"), py::arg("to_move"),
           py::arg("last"), "Write each game's hands (uint64, N x players), mover and play to beat.")
      .def("step", &PyBatch::step, py::arg("choices"), py::arg("scores"), py::arg("done"),
           py::arg("redeal") = py::none(), py::arg("final") = py::none(),
           py::arg("layout") = py::none(),
           "Each game plays its legal play number choices[i] (int64); a finished deal writes "
           "its scores (int64, N x players, else zeros), sets done (bool) and deals again. "
           "Games marked in redeal (bool, or None) play nothing: their deal ends unscored "
           "(zeros, done set) and the next is dealt. With final (int8, N x size) and layout "
           "(as for observe_into), a deal that ends writes its last observation by the seat "
           "that acted into its row of final (other rows are left as they are).")
      .def("set_layout", &PyBatch::set_layout, py::arg("layout"),
           "Set the observation layout step_observe writes in (as for observe_into).")
      .def("step_observe", &PyBatch::step_observe, py::arg("choices"), py::arg("scores"),
           py::arg("done"), py::arg("redeal"), py::arg("final"), py::arg("observation"),
           py::arg("hands"), py::arg("to_move"), py::arg("last"), py::arg("hand_size"),
           py::arg("ids"), py::arg("counts"), py::arg("mask"), py::arg("pad"),
           "step (final in the layout of set_layout), then what observe_into, state_into "
           "and hand_ids_into write, each game's in one pass: the ids padded with -1 up to "
           "the larger of the batch's largest count and *pad*; return the largest count.")
      .def("deal_hands", &PyBatch::deal_hands, py::arg("hands"), py::arg("which"),
           "Games marked in which (bool, N) start a deal of their row of hands (uint64, "
           "N x players, one card mask a seat); the holder of the lowest card leads it.")
      .def("observe_into", &PyBatch::observe_into, py::arg("out"), py::arg("layout"),
           "Write each game's observation of the seat to move (int8, N x size) in the layout "
           "of big2.observation (offsets by field name, with size and count_width).")
      .def("hand_ids_into", &PyBatch::hand_ids_into, py::arg("hand_size"), py::arg("ids"),
           py::arg("counts"), py::arg("mask") = py::none(),
           "Write each game's legal plays as hand-relative ids (big2.env.hand_actions, for "
           "hands of up to hand_size cards; int64, cut at the array's width K, -1 after a "
           "game's ids up to the batch's largest count), "
           "their full counts (int64) and, unless mask is None, the action mask (bool, N x ids, "
           "whole rows rewritten); return the largest count.")
      .def("pick_ids", &PyBatch::pick_ids, py::arg("draw"), py::arg("ids"), py::arg("counts"),
           py::arg("out"),
           "out[i] = ids[i, int(draw[i] * counts[i])] (float64 draws, int64 ids N x K, counts "
           "and out): one id drawn among each game's; IndexError for a place past a row.")
      .def("choices_from_hand_ids", &PyBatch::choices_from_hand_ids, py::arg("hand_size"),
           py::arg("actions"), py::arg("choices"),
           "Write the place in its legal list of each game's hand-relative action id (int64), "
           "-1 where the id names no legal play now; return how many are -1.")
      .def("pool_calls", &PyBatch::pool_calls,
           "Each of the thread pool's call sites' calls so far: (stepped alone, split over "
           "the threads); empty with one thread.")
      .def("random_steps", &PyBatch::random_steps, py::arg("steps_per_game"), py::arg("seed"),
           "Step every game with random legal plays: (steps, deals finished).");

}
