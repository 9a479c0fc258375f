// Bindings of big2._policy.Collector (collect.hpp): PPO's collection in the core, reached
// from Python through big2.learn.ppo_native alone.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "collect.hpp"
#include "py_policy.hpp"

namespace py = pybind11;

namespace {

template <class T>
py::array_t<T> array_of(const std::vector<T>& v, py::ssize_t rows, py::ssize_t cols) {
  std::vector<py::ssize_t> shape{rows};
  if (cols > 0) shape.push_back(cols);
  py::array_t<T> a(shape);
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

struct PyCollector {
  big2c::Collector c;
  big2c::Out out;

  void add_group(py::object rules, py::object preset, py::object style, const py::dict& layout,
                 int family, py::ssize_t num_envs, uint64_t seed, const std::vector<int>& learners,
                 bool rival, const std::string& bot, bool plain) {
    auto cfg = rules.cast<std::shared_ptr<big2h::Config>>();
    auto hint = preset.cast<std::shared_ptr<big2h::Config>>();
    if (!cfg || !hint) throw py::value_error("rules, preset: None");
    if (num_envs < 1 || num_envs > (1 << 20)) throw py::value_error("num_envs: 1 to 1048576");
    if (family < 0 || family >= big2p::kFamilies) throw py::value_error("family: 0 or 1");
    big2c::Group g;
    g.rules = cfg;
    g.preset = hint;
    g.table.config = hint.get();
    g.table.style = style.cast<big2h::Style>();
    g.table.layout = big2pb::parse_layout(layout);
    g.table.family = family;
    g.table.plain = plain;
    int players = cfg->t().players;
    for (int s : learners) {
      if (s < 0 || s >= players) throw py::value_error("learners: not a seat");
      g.learners |= 1u << s;
    }
    if (!g.learners) throw py::value_error("learners: at least one seat");
    g.rival = rival;
    if (bot.empty()) g.bot = big2c::kNoBot;
    else if (bot == "heuristic") g.bot = big2c::kHeuristic;
    else if (bot == "greedy") g.bot = big2c::kGreedy;
    else throw py::value_error("bot: '', 'heuristic' or 'greedy', not " + bot);
    bool every = g.learners == (1u << players) - 1;
    if (g.bot != big2c::kNoBot && (every || rival))
      throw py::value_error("learners: a bot group leaves the bot some seat, and has no rival");
    if (g.bot == big2c::kNoBot && every == rival)
      throw py::value_error("learners: every seat in self-play, some seats against a rival");
    g.batch.init(cfg->t(), size_t(num_envs), seed);
    for (big2n::Mask s : g.batch.spare)
      if (s) throw py::value_error("rules: the collector plays rule sets without a spare card");
    g.open.assign(size_t(num_envs), {});
    g.order.assign(size_t(num_envs), {0, 0, 0, 0});
    g.norder.assign(size_t(num_envs), 0);
    int64_t scores[4];
    for (size_t i = 0; i < size_t(num_envs); ++i) big2c::settle(g, i, scores);
    c.groups.push_back(std::move(g));
  }

  py::tuple collect(std::shared_ptr<big2p::Net> net, std::shared_ptr<big2p::Net> rival,
                    int64_t samples, py::tuple rng_state) {
    if (!net) throw py::value_error("net: None");
    if (c.groups.empty()) throw py::value_error("no groups to collect from");
    if (rng_state.size() != 4) throw py::value_error("rng_state: (state_hi, state_lo, inc_hi, inc_lo)");
    big2c::Pcg64 rng;
    rng.state = (__uint128_t(rng_state[0].cast<uint64_t>()) << 64) | rng_state[1].cast<uint64_t>();
    rng.inc = (__uint128_t(rng_state[2].cast<uint64_t>()) << 64) | rng_state[3].cast<uint64_t>();
    const big2p::Net& r = rival ? *rival : *net;
    if (net->H == 0 || r.H == 0) throw py::value_error("net: no weights");
    out.clear();
    {
      py::gil_scoped_release release;
      c.collect(*net, r, samples, rng, out);
    }
    py::ssize_t n = py::ssize_t(out.pick.size()), p = py::ssize_t(out.plays.size() / big2p::kPlay);
    py::dict d;
    d["state"] = array_of(out.state, n, big2p::kState);
    d["hidden"] = array_of(out.hidden, n, 3 * 52);
    d["plays"] = array_of(out.plays, p, big2p::kPlay);
    d["counts"] = array_of(out.count, n, 0);
    d["pick"] = array_of(out.pick, n, 0);
    d["logp"] = array_of(out.logp, n, 0);
    py::ssize_t t = py::ssize_t(out.length.size());
    d["lengths"] = array_of(out.length, t, 0);
    d["families"] = array_of(out.family, t, 0);
    d["rewards"] = array_of(out.reward, t, 0);
    out.clear();
    return py::make_tuple(d, py::make_tuple(uint64_t(rng.state >> 64), uint64_t(rng.state)));
  }
};

}  // namespace

namespace big2pb {

void register_collect(py::module_& m) {
  py::class_<PyCollector>(m, "Collector",
      "PPO's collection in the core (collect.hpp): groups of deals stepped together, the "
      "policy's decisions sampled, the samples of finished deals handed over as arrays.")
      .def(py::init<>())
      .def("add_group", &PyCollector::add_group, py::arg("rules"), py::arg("preset"),
           py::arg("style"), py::arg("layout"), py::arg("family"), py::arg("num_envs"),
           py::arg("seed"), py::arg("learners"), py::arg("rival"), py::arg("bot"),
           py::arg("plain") = false,
           "A group of num_envs deals of *rules* (big2._native.bots.Config) dealt from *seed* "
           "as the vector environment deals them, read by the policy of *family* in the "
           "observation *layout*, with the hints of the family's *preset* (a Config) and the "
           "heuristic's *style*; the current policy plays the *learners* seats, a past self "
           "the others (*rival*) or a bot ('heuristic', 'greedy'; '' for none); *plain*: the "
           "plain encoding's inputs alone (the engineered ones and the hints left 0).")
      .def_property_readonly("steps", [](const PyCollector& p) { return p.c.steps; })
      .def_property_readonly("deals", [](const PyCollector& p) { return p.c.deals; })
      .def("collect", &PyCollector::collect, py::arg("net"), py::arg("rival"), py::arg("samples"),
           py::arg("rng_state"),
           "Step every group in turn until at least *samples* decisions of finished deals are "
           "in hand, sampling with NumPy's PCG64 state (state_hi, state_lo, inc_hi, inc_lo); "
           "(arrays by name, the new (state_hi, state_lo)).");
}

}  // namespace big2pb
