// For reports: the trace's iteration, its observed peak, the pool's lower bound, and the arena
// each packing solver would give it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/iteration/detection.h"
#include "analyzer/iteration/event_stream.h"
#include "analyzer/plan/iteration_choice.h"

namespace tidepool::plan {

struct SolverArena {
  std::string solver;
  std::uint64_t arena_bytes = 0;
  double seconds = 0;  // wall-clock time the solver took
};

struct PoolComparison {
  IterationDescription iteration;
  std::uint64_t first_boundary = 0;         // event position (in the iteration event stream)
  std::uint64_t observed_peak_bytes = 0;    // most device bytes live during the iteration
  std::uint64_t live_at_start_bytes = 0;    // live at its start: outside the pool
  std::uint64_t escaping_bytes = 0;         // allocated in it, freed after it: outside the pool
  std::uint64_t lower_bound_bytes = 0;      // most bytes of the pool's allocations live at once
  std::vector<SolverArena> solvers;         // every solver of analyzer/packing, in its order
};

// The iterations `detection` found in `stream` (find_iterations), its reference one packed by each
// solver. Throws std::runtime_error (one line) when the iteration cannot be planned.
PoolComparison compare_pool_solvers(const iteration::EventStream& stream,
                                    const iteration::Detection& detection,
                                    double seconds_per_solver);

}  // namespace tidepool::plan
