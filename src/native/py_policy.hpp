// What the two binding files of big2._policy share (policy_bindings.cpp, collect_bindings.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include "policy.hpp"

namespace big2pb {

// The observation layout a caller passes (big2.observation.observation_layout), checked.
big2n::ObsLayout parse_layout(const pybind11::dict& d);

// big2._policy.Collector (collect_bindings.cpp).
void register_collect(pybind11::module_& m);

}  // namespace big2pb
