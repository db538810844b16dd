// One iteration's pool as a packing problem: an item per allocation made and freed within the
// iteration (id = its ordinal), device alignment, live over its lifetime in event positions.
#pragma once

#include "analyzer/iteration/lifetimes.h"
#include "analyzer/packing/problem.h"

namespace tidepool::iteration {

packing::Problem pool_problem(const IterationLifetimes& lifetimes);

}  // namespace tidepool::iteration
