// `best`: our anytime portfolio. In turn, until the lower bound is reached or the deadline passes:
//  1. greedy placements (gaps best/first fit and lowest first) over several orders;
//  2. for instances small enough, the exact search (exact_search.h) at doubling node budgets: at
//     each budget it tries the lower bound with each of several preorders, then bisects between
//     the highest capacity that failed and the best height found (with the first few preorders);
//     a capacity the search proves infeasible is never tried again. It gets 70% of the time left;
//  3. then (or at once, for instances too large for the exact search) local search over the
//     order of the best packing so far (local_search.h).
// The first greedy packing is always completed, even past the deadline.
#pragma once

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

Solution solve_best(const Problem& problem, Deadline deadline);

}  // namespace tidepool::packing
