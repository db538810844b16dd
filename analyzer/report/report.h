// What `tidepool report` says about one traced process: the data, computed by analyze()
// (analyze.h) and printed by text_report.h / json_report.h. Device memory is counted exactly as
// simcuda's SIMCUDA_STATS counts it (see memory_replay.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/report/runtime_decisions.h"
#include "analyzer/trace/format.h"

namespace tidepool::report {

struct AllocationInfo {
  uint64_t alloc_id = 0;
  trace::AllocKind kind = trace::AllocKind::device;
  uint64_t address = 0;
  uint64_t size = 0;     // requested bytes
  uint64_t time_ns = 0;  // when it was allocated
  uint32_t stack_id = 0;
};

// One allocation kind: how much of it the process used. Device kinds make up the headline peak;
// host-pinned, managed and the others are counted apart.
struct KindTotals {
  trace::AllocKind kind = trace::AllocKind::device;
  uint64_t allocations = 0;
  uint64_t frees = 0;
  uint64_t bytes_allocated = 0;
  uint64_t peak_live_bytes = 0;
  uint64_t live_bytes_at_exit = 0;
};

// Device memory per device (GPU ordinal), counted by the same rules as the process's total.
struct DeviceTotals {
  int32_t device = 0;
  uint64_t peak_requested_bytes = 0;
  uint64_t leaked_bytes = 0;
};

// The kernels that touch the most memory: bytes touched is, per launch, the requested size of
// every distinct allocation its parameters point into, summed over launches.
struct KernelTotals {
  std::string name;
  uint64_t launches = 0;
  uint64_t bytes_touched = 0;
  uint64_t max_bytes_per_launch = 0;
  uint64_t undecoded_launches = 0;  // launches whose parameters could not be read
};

// Device allocations with size in [min_bytes, 2 * min_bytes) (the first bucket starts at 0).
struct SizeBucket {
  uint64_t min_bytes = 0;
  uint64_t allocations = 0;
  uint64_t bytes = 0;
};

// Device allocations made from one call stack (stack id 0: no stack recorded).
struct Site {
  uint32_t stack_id = 0;
  uint64_t allocations = 0;
  uint64_t bytes_allocated = 0;
  uint64_t live_at_peak_bytes = 0;
  uint64_t leaked_bytes = 0;
};

// One pool solver on the iteration: the arena it packs the iteration's allocations into.
struct SolverResult {
  std::string solver;
  uint64_t arena_bytes = 0;
  double seconds = 0;
};

// One swap planner at one allowed slowdown, as the timeline simulator sees it.
struct SwapResult {
  std::string planner;
  double max_slowdown_pct = 0;
  uint64_t peak_bytes = 0;  // device memory, swapped buffers at their 2 MiB-rounded size
  double simulated_slowdown_pct = 0;
  uint64_t bytes_moved = 0;       // both directions, per iteration
  uint64_t floor_bytes = 0;       // the peak if transfers were free
  uint64_t link_bound_bytes = 0;  // the lowest peak the link allows within the slowdown
};

// The trace's iteration and what the pool and swap planners would make of it (iteration_plans.h).
struct IterationPlans {
  std::string no_iteration_reason;  // set when no iteration was found: nothing below is then
  double solver_seconds = 0;        // each pool solver's time limit
  std::string link;
  double link_bytes_per_second = 0;

  std::string boundary;  // period | nvtx_range | kernel
  uint64_t period_events = 0;
  uint64_t allocations_per_iteration = 0;
  uint64_t operations_per_iteration = 0;
  uint64_t iterations_seen = 0;
  double regularity = 0;         // fraction of iterations that matched exactly
  uint64_t first_boundary = 0;   // event position of the first iteration's start
  uint64_t observed_peak_bytes = 0;
  uint64_t live_at_start_bytes = 0;  // outside the pool
  uint64_t escaping_bytes = 0;       // allocated in the iteration, freed after it: outside the pool
  uint64_t lower_bound_bytes = 0;    // the pool's: most of its allocations' bytes live at once
  std::vector<SolverResult> solvers;

  std::string swap_error;  // set when the swap model could not be built: no swap rows then
  bool durations_estimated = false;  // the trace had no device timings; a cost model filled them
  uint64_t unoptimized_peak_bytes = 0;  // the swap simulation's, without swaps
  std::vector<SwapResult> swap;         // per planner, at 0, 1 and 5 % allowed slowdown
};

struct ProcessReport {
  std::string trace_path;
  uint32_t pid = 0;
  int32_t rank = -1;
  std::string host;
  std::string program;
  std::string source;
  bool synthetic = false;
  bool truncated = false;
  uint64_t duration_ns = 0;  // time of the last event

  uint64_t peak_requested_bytes = 0;
  uint64_t peak_time_ns = 0;  // when the peak was first reached
  uint64_t peak_seq = 0;      // the event that reached it
  std::vector<std::string> peak_nvtx_ranges;  // NVTX ranges open on that thread, outermost first
  uint64_t allocations = 0;   // device allocations, as simcuda counts them
  uint64_t frees = 0;
  uint64_t kernel_launches = 0;  // launches that ran (not captured into a graph)
  uint64_t graph_launches = 0;
  uint64_t copies = 0;
  uint64_t sets = 0;
  uint64_t leaked_bytes = 0;  // requested device bytes still live at the end
  uint64_t leaked_allocations = 0;

  std::vector<AllocationInfo> live_at_peak;  // device allocations live at the peak, largest first
  std::vector<AllocationInfo> leaks;         // device allocations live at the end, largest first
  std::vector<KindTotals> kinds;             // the kinds that occur, in enum order
  std::vector<DeviceTotals> devices;         // the devices allocated on, in ordinal order
  std::vector<KernelTotals> kernels;         // by bytes touched, most first
  std::vector<SizeBucket> size_histogram;    // non-empty buckets, smallest first
  std::vector<Site> sites;                   // by bytes allocated, most first
  std::map<uint32_t, std::vector<std::string>> stacks;  // symbolized frames of the stacks used
  std::optional<RuntimeDecisions> runtime;  // absent when the trace has no decision record
  std::optional<IterationPlans> plans;  // absent with --no-plans
};

}  // namespace tidepool::report
