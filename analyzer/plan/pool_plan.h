// The pool section of a plan: one iteration's allocations packed into one arena by a solver of
// analyzer/packing, checked by its independent checker.
#pragma once

#include <cstdint>
#include <set>
#include <string_view>

#include "analyzer/iteration/lifetimes.h"
#include "analyzer/packing/deadline.h"
#include "analyzer/plan/plan.h"

namespace tidepool::plan {

// The allocations whose ordinals are in `excluded` stay out of the arena. Throws
// std::invalid_argument for an unknown solver, std::logic_error if the solver's answer fails the
// checker (a bug, never silently written into a plan).
PoolSection plan_pool(iteration::IterationLifetimes lifetimes, const std::set<std::uint64_t>& excluded,
                      std::string_view solver, packing::Deadline deadline);

}  // namespace tidepool::plan
