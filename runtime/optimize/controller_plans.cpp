// The controller's plans: how one is armed and followed from boundary to boundary, and when it
// is left (back to recording) or given up.
#include <algorithm>
#include <cstdio>

#include "runtime/optimize/controller_state.h"

namespace tidepool::runtime::optimize {
namespace {

constexpr uint32_t kStrayedIterationsToLeave = 2;
constexpr double kMissRateToStray = 0.25;  // pool misses per planned slot in one iteration

}  // namespace

IterationCursor::Step Controller::State::count_allocation(uint64_t bytes) {
  if (refused && refused->plan_generation == plan_generation && refused->bytes == bytes) {
    const IterationCursor::Step step = refused->step;
    refused.reset();
    return step;
  }
  return count(Counted::alloc, bytes);
}

void Controller::State::note_refused(uint64_t bytes, const IterationCursor::Step& step,
                                     PlanMark counted_under) {
  if (counted_under.generation == plan_generation) {
    if (plan != nullptr) {
      refused = RefusedAllocation{plan_generation, bytes, step};
    } else {
      --events;  // recording: the trace will not hold it
    }
    return;
  }
  // Another thread armed or left a plan while the driver answered: the step belongs to a plan no
  // longer in force. A plan armed over a refusal counted while recording placed its next boundary
  // one event too early; it moves back while the plan still waits for it (else the iteration
  // differs from the plan and the runtime falls back).
  if (counted_under.recording && plan != nullptr &&
      counted_under.generation + 1 == plan_generation) {
    --events;
    plan->cursor.delay_start(1);
  }
}

IterationCursor::Step Controller::State::count(Counted kind, uint64_t bytes,
                                               std::string_view kernel) {
  if (kind != Counted::free) refused.reset();  // not made again: the refusal stays an event
  ++events;
  if (plan == nullptr) {
    if (!gave_up && !exiting && (request_pool || request_swap) &&
        events - events_at_cut >= next_attempt && !result_ready.load(std::memory_order_acquire)) {
      start_planning();
    }
    return {};
  }
  IterationCursor::Step step;
  switch (kind) {
    case Counted::alloc:
      step = plan->cursor.on_alloc(bytes);
      break;
    case Counted::free:
      step = plan->cursor.on_free();
      break;
    case Counted::launch:
      step = plan->cursor.on_launch(kernel);
      break;
    case Counted::transfer:
      step = plan->cursor.on_transfer();
      break;
  }
  after_boundary(step, true);
  return step;
}

void Controller::State::after_boundary(const IterationCursor::Step& step, bool inside_event) {
  if (plan == nullptr) return;
  if (step.finished) {
    const uint64_t slots = plan->pool ? plan->plan.pool->slots.size() : 0;
    const bool missed_much =
        static_cast<double>(plan->misses) > kMissRateToStray * static_cast<double>(slots) &&
        slots > 0;
    plan->misses = 0;
    if (*step.finished && !missed_much) {
      plan->strayed = 0;
      plan->ever_matched = true;
    } else if (plan->origin == PlanOrigin::file && !plan->ever_matched) {
      give_up("the program does not match the plan " + settings.plan_path + " (its fingerprint " +
              plan->plan.fingerprint + "); running unoptimized");
      return;
    } else if (++plan->strayed >= kStrayedIterationsToLeave) {
      return_to_recording("the program strayed from the plan", inside_event);
      return;
    }
  }
  if (step.started) {
    std::fill(plan->iteration_allocations.begin(), plan->iteration_allocations.end(), 0);
    if (plan->pool_wanted && plan->pool == nullptr) make_pool();
    // A buffer whose swap wraps around the iteration's end is out when one starts (from the
    // first enforced iteration on, rather than after its first planned swap-out).
    if (step.trusted && plan->swaps) {
      for (const plan::SwapOperation* op : plan->swaps->out_at_start()) {
        if (ManagedAllocation* m = buffer(op->buffer)) swap_space->swap_out(m->base, op->copy_out);
      }
    }
  }
  // Out of step for long: the program no longer does the plan's iteration. A given plan not yet
  // matched keeps being looked for (a program's set-up may be long); a mismatch refuses it.
  if (step.trusted) {
    plan->events_untrusted = 0;
  } else if (++plan->events_untrusted > 3 * plan->plan.iteration.events + kFirstAttemptEvents &&
             (plan->origin != PlanOrigin::file || plan->ever_matched)) {
    return_to_recording("the program no longer does the plan's iteration", inside_event);
  }
}

void Controller::State::retire(std::unique_ptr<PlannedPool> pool) {
  if (pool != nullptr && pool->live_slots() > 0) retired_pools.push_back(std::move(pool));
}

// The arena, evicting idle buffers once if the driver is out of memory; refused, it is asked for
// again at the next iteration starts (without evicting), kArenaAttempts times in all.
void Controller::State::make_pool() {
  plan->pool_wanted = false;
  const plan::PoolSection& section = *plan->plan.pool;
  // The physical memory the swap space keeps for reuse served the allocations the arena now takes:
  // give it back first.
  if (swap_space != nullptr) swap_space->trim();
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      plan->pool = std::make_unique<PlannedPool>(api, section, plan->plan.iteration.allocations);
      return;
    } catch (const std::exception& e) {
      const bool evicted = attempt == 0 && plan->arena_refusals == 0 && swap_space != nullptr &&
                           swap_space->evict(section.arena_bytes) > 0;
      drain_swap_events();
      if (!evicted) {
        if (++plan->arena_refusals < kArenaAttempts) {
          plan->pool_wanted = true;
          return;
        }
        if (!pool_warned)
          warn(std::string("no planned pool: ") + e.what() + ", at " +
               std::to_string(kArenaAttempts) + " iteration starts");
        pool_warned = true;
        return;
      }
    }
  }
}

void Controller::State::return_to_recording(std::string_view reason, bool inside_event) {
  retire(std::move(plan->pool));
  set_plan(nullptr);
  trace::Event event{0, 0, 0, trace::ReturnToRecording{intern(reason)}};
  if (Recorder* rec = Recorder::get()) rec->record(event);
  cut_seq = event.seq;
  // The event being counted now is recorded after the cut: it belongs to the new window.
  events_at_cut = inside_event ? events - 1 : events;
  next_attempt = kFirstAttemptEvents;
  // Program ordinals restart at the cut, the allocations still live first, in allocation order.
  std::vector<uint64_t> live;
  for (const auto& [id, m] : by_id) {
    if (m.counted) live.push_back(id);
  }
  std::sort(live.begin(), live.end());
  by_program_ordinal.clear();
  next_program_ordinal = 0;
  for (uint64_t id : live) {
    ManagedAllocation& m = by_id[id];
    m.program_ordinal = next_program_ordinal++;
    if (m.source == AllocOutcome::Source::swap_space) by_program_ordinal[m.program_ordinal] = id;
  }
}

void Controller::State::give_up(std::string_view warning) {
  warn(warning);
  if (plan != nullptr) retire(std::move(plan->pool));
  set_plan(nullptr);
  gave_up = true;
}

void Controller::State::arm(plan::Plan given, PlanOrigin origin,
                            std::optional<uint64_t> next_boundary, uint64_t lead) {
  const uint64_t period = given.iteration.events;
  IterationCursor cursor(given.iteration, fingerprint_value(given.fingerprint), lead);
  if (next_boundary && period > 0) {
    uint64_t boundary = *next_boundary;
    if (boundary < events) boundary += (events - boundary + period - 1) / period * period;
    cursor.start_after(boundary - events);
  }
  auto armed = std::make_unique<Enforcement>(std::move(given), origin, std::move(cursor));
  const plan::Plan& p = armed->plan;
  armed->pool_wanted = p.pool && enforce_pool;
  if (p.swap && enforce_swap && swap_space != nullptr)
    armed->swaps.emplace(*p.swap, p.iteration.operations);
  armed->iteration_allocations.assign(p.iteration.allocations, 0);
  trace::PlanInstalled installed;
  installed.fingerprint_id = intern(p.fingerprint);
  installed.arena_bytes = armed->pool_wanted ? p.pool->arena_bytes : 0;
  installed.planned_peak_bytes = p.swap && armed->swaps ? p.swap->planned_peak_bytes
                                 : armed->pool_wanted
                                     ? p.pool->persistent_bytes + p.pool->arena_bytes
                                     : 0;
  installed.swaps = armed->swaps ? static_cast<uint32_t>(p.swap->operations.size()) : 0;
  record_decision(installed);
  set_plan(std::move(armed));
}

}  // namespace tidepool::runtime::optimize
