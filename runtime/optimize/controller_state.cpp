// The controller's state: made with the first context (the swap space, a plan given or cached),
// where buffers are, and the swap space's finished transfers turned into trace records.
#include "runtime/optimize/controller_state.h"

#include <algorithm>
#include <cstdio>

#include "analyzer/plan/plan_io.h"
#include "runtime/optimize/plan_cache.h"

namespace tidepool::runtime::optimize {

void warn(std::string_view message) {
  std::fprintf(stderr, "tidepool: warning: %.*s\n", static_cast<int>(message.size()),
               message.data());
}

uint32_t intern(std::string_view text) {
  Recorder* rec = Recorder::get();
  return rec != nullptr ? rec->intern(text) : 0;
}

Controller::State::State(const DriverApi& driver, bool (*is_capturing)(CUstream), std::string trace)
    : api(driver),
      capturing(is_capturing),
      settings(runtime::settings()),
      trace_path(std::move(trace)),
      streams(api, is_capturing) {
  const bool modes = settings.optimize_pool || settings.optimize_swap;
  enforce_pool = !modes || settings.optimize_pool;
  enforce_swap = !modes || settings.optimize_swap;
  request_pool = settings.optimize_pool;
  request_swap = settings.optimize_swap;
  next_attempt = kFirstAttemptEvents;
}

void Controller::State::note_context() {
  if (context != nullptr) return;
  if (api.ctx_get_current(&context) != CUDA_SUCCESS || context == nullptr) {
    context = nullptr;
    return;
  }
  if (api.ctx_get_device(&device) != CUDA_SUCCESS) device = 0;
  try {
    swap_space = std::make_unique<SwapSpace>(api, context, settings.pinned_limit_bytes);
    granularity = swap_space->granularity();
    // Timing a transfer the moment it is done may move the host's clock to it (simcuda does):
    // record them a few iterations' worth of swaps late instead (all at exit).
    swap_space->set_report_lag(kSwapReportLag);
    // Reports come late (the lag): each is numbered when its memory went or came back, so that
    // the trace (and the report's replay) has it in its place among the program's events.
    swap_space->set_sequence_source([]() -> uint64_t {
      Recorder* rec = Recorder::get();
      return rec != nullptr ? rec->reserve_sequence() : 0;
    });
  } catch (const std::exception& e) {
    warn(std::string("no swap space (") + e.what() + "): no rescue, no swapping");
  }
  if (!settings.plan_path.empty()) {
    try {
      plan::Plan given = plan::read_plan(settings.plan_path);
      if (!modes_requested()) {
        request_pool = given.pool.has_value();
        request_swap = given.swap.has_value();
      }
      const uint64_t lead = lead_events_of(given);
      arm(std::move(given), PlanOrigin::file, std::nullopt, lead);
    } catch (const std::exception& e) {
      give_up(std::string(e.what()) + "; running unoptimized");
    }
    return;
  }
  if (!settings.plan_cache.empty()) {
    if (auto cached = load_cached_plan(settings.plan_cache, program_key(settings))) {
      const uint64_t lead = lead_events_of(cached->plan);
      arm(std::move(cached->plan), PlanOrigin::cache, cached->first_boundary, lead);
    }
  }
}

bool Controller::State::modes_requested() const {
  return settings.optimize_pool || settings.optimize_swap;
}

uint64_t Controller::State::rounded(uint64_t bytes) const {
  return granularity == 0 ? bytes : (bytes + granularity - 1) / granularity * granularity;
}

// Rounding to the granularity may waste at most 1/16 of the buffer.
bool Controller::State::swappable(uint64_t bytes) const {
  if (swap_space == nullptr || granularity == 0 || bytes < granularity) return false;
  return (rounded(bytes) - bytes) * 16 <= bytes;
}

bool Controller::State::mapped_at_first_use(const AllocOutcome& outcome) const {
  return outcome.in_iteration && plan != nullptr && plan->swaps &&
         plan->swaps->moves_iteration_allocation(outcome.ordinal);
}

uint64_t Controller::State::device_bytes() const {
  uint64_t total = driver_bytes;
  if (plan != nullptr && plan->pool != nullptr) total += plan->pool->arena_bytes();
  for (const auto& retired : retired_pools) total += retired->arena_bytes();
  if (swap_space != nullptr) total += swap_space->device_bytes();
  return total;
}

void Controller::State::make_room(uint64_t bytes) {
  if (plan == nullptr || !plan->swaps || swap_space == nullptr) return;
  const uint64_t ceiling = plan->plan.swap->planned_peak_bytes;
  while (device_bytes() + bytes > ceiling && swap_space->finish_oldest_swap_out() > 0) {
  }
}

void Controller::State::wait_as_cu_mem_free() {
  const std::span<const CUstream> used = streams.all();
  if (std::find(used.begin(), used.end(), CU_STREAM_PER_THREAD) != used.end()) {
    api.ctx_synchronize();
    return;
  }
  for (CUstream stream : used)
    if (!capturing(stream)) api.stream_synchronize(stream);
}

void Controller::State::use_stream(CUstream stream) {
  if (!streams.use(stream)) block_free_arena();
}

void Controller::State::block_free_arena() {
  if (plan != nullptr && plan->pool != nullptr) plan->pool->block_free_slots();
  for (const auto& retired : retired_pools) retired->block_free_slots();
}

ManagedAllocation* Controller::State::buffer(const plan::BufferRef& ref) {
  uint64_t id = 0;
  if (ref.scope == plan::BufferRef::Scope::iteration) {
    if (plan == nullptr || ref.ordinal >= plan->iteration_allocations.size()) return nullptr;
    id = plan->iteration_allocations[ref.ordinal];
  } else if (const auto it = by_program_ordinal.find(ref.ordinal); it != by_program_ordinal.end()) {
    id = it->second;
  }
  const auto it = by_id.find(id);
  if (it == by_id.end() || it->second.source != AllocOutcome::Source::swap_space ||
      it->second.bytes != ref.bytes)
    return nullptr;
  return &it->second;
}

void Controller::State::drain_swap_events(bool everything) {
  if (swap_space == nullptr) return;
  for (const SwapEvent& e : swap_space->poll(everything)) {
    const uint64_t id = e.tag;  // the allocation id (set_tag): the buffer may be gone by now
    switch (e.kind) {
      case SwapEvent::Kind::swap_out:
        record_decision(trace::SwapOut{id, e.bytes, e.start_ns, e.end_ns}, e.sequence);
        break;
      case SwapEvent::Kind::swap_in:
        record_decision(trace::SwapIn{id, e.bytes, e.start_ns, e.end_ns, e.on_demand}, e.sequence);
        break;
      case SwapEvent::Kind::eviction:
        record_decision(trace::Eviction{id, e.bytes}, e.sequence);
        break;
      case SwapEvent::Kind::map_deferred:
        record_decision(trace::MapDeferred{id}, e.sequence);
        break;
      case SwapEvent::Kind::first_map:
        record_decision(trace::MappedAtFirstUse{id}, e.sequence);
        break;
    }
  }
  // Physical memory kept for reuse is device memory the program cannot have: the peak is what the
  // optimizer is for, so it goes back at once (without waiting for any queued work).
  swap_space->trim();
}

}  // namespace tidepool::runtime::optimize
