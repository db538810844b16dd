// The solvers, behind one interface and looked up by name:
//   smartpool           the SmartPool heuristic (Zhang et al., arXiv 1903.06631): by size, best fit
//   smartpool-firstfit  the same with first fit
//   tflite-greedy-size  TensorFlow Lite's greedy by size
//   xla-heap            XLA's best-fit heap over several orders, keeping the best
//   online-bestfit      an online best-fit allocator with coalescing (CnMeM-like), in time order
//   best                ours: a portfolio of greedy orders, an exact search (minimalloc-style) and
//                       local search over the order, anytime until the deadline
// Every solver returns a valid solution for a valid problem (see validate). Heuristics ignore the
// deadline; `best` returns the best solution found when it passes (its first greedy answer is
// always completed, even past the deadline).
#pragma once

#include <functional>
#include <span>
#include <string_view>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

using SolveFunction = std::function<Solution(const Problem&, Deadline)>;

struct SolverInfo {
  std::string_view name;
  std::string_view description;
  SolveFunction solve;
};

// All solvers, in the order above.
std::span<const SolverInfo> solvers();

// The solver of that name; throws std::invalid_argument listing the known names otherwise.
const SolverInfo& find_solver(std::string_view name);

// Validates the problem (std::invalid_argument if bad) and solves it with the named solver.
Solution solve(std::string_view name, const Problem& problem, Deadline deadline);

}  // namespace tidepool::packing
