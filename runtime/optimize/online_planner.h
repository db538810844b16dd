// Planning inside the running program: the trace written so far (from the last cut on) is read
// back, its iteration found, and, once it is stable (at least three iterations, two of them
// identical), planned with analyzer/plan. Runs on the controller's background thread (and at exit).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/plan/trace_plan.h"
#include "runtime/optimize/trace_window.h"

namespace tidepool::runtime::optimize {

struct PlanningJob {
  std::string trace_path;
  uint64_t after_seq = 0;      // the cut (0: the whole trace)
  uint64_t events_at_cut = 0;  // the runtime's event count at the cut
  plan::PlanRequest request;
  // Planned as the program exits, for its next run: its iterations need not go on to the end.
  bool at_exit = false;
};

struct OnlinePlan {
  plan::Plan plan;
  uint64_t next_boundary = 0;   // the runtime's event count at which an iteration starts
  uint64_t first_boundary = 0;  // ... at which the first planned iteration started
  uint64_t lead_events = 0;     // events of the iteration before its first allocation or launch
};

// nullopt: no stable iteration yet. Throws (one line) when planning failed. `reader` reads the
// job's window (its trace and cut); kept from one attempt to the next, it reads only what the
// program wrote in between.
std::optional<OnlinePlan> plan_online(const PlanningJob& job, WindowReader& reader);

// "fnv1a64:0123456789abcdef" -> its value; 0 when malformed.
uint64_t fingerprint_value(const std::string& text);

// Events of the plan's iteration before its first allocation or launch, as far as the plan tells
// (the first slot's start when the anchor opens with an allocation), else 0.
uint64_t lead_events_of(const plan::Plan& plan);

}  // namespace tidepool::runtime::optimize
