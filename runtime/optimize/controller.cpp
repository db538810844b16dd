// The controller's entry points: what the hooks call at allocations, frees and work.
#include "runtime/optimize/controller.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "runtime/optimize/controller_state.h"
#include "runtime/thread_scratch.h"
#include "runtime/trace_file.h"

namespace tidepool::runtime::optimize {
namespace {

using Source = AllocOutcome::Source;

Controller::State* g_state = nullptr;  // for the planner's join at exit

// What the calling thread's work in flight was, between before_work and after_work.
struct PendingWork {
  bool trusted = false;
  uint64_t ordinal = 0;
  uint64_t plan_generation = 0;  // what the ordinal was counted under
};
thread_local PendingWork t_pending;

}  // namespace

Controller* Controller::get(void* (*lookup)(const char* symbol),
                            bool (*capturing)(CUstream stream)) {
  static Controller* const instance = [&]() -> Controller* {
    const Settings& s = settings();
    if (s.disabled) return nullptr;
    if (!s.optimizer_error.empty()) {
      warn(s.optimizer_error + "; not optimizing");
      return nullptr;
    }
    if (!s.optimizing()) return nullptr;
    if (Recorder::get() == nullptr) {
      warn("no trace is being recorded, so nothing can be planned; not optimizing");
      return nullptr;
    }
    const DriverApi api = load_driver_api(lookup);
    if (!api.complete()) {
      warn("the driver lacks functions the optimizer needs; not optimizing");
      return nullptr;
    }
    auto* controller = new Controller;
    controller->state_ = new State(api, capturing, trace_file_path(s, make_header(s, 0)));
    g_state = controller->state_;
    std::atexit([] {
      g_state->finish_planning();
      const std::lock_guard lock(g_state->mutex);
      g_state->drain_swap_events(true);  // the transfers held back for timing
    });
    return controller;
  }();
  return instance;
}

CUresult Controller::allocate(const AllocRequest& request, CUdeviceptr* address,
                              AllocOutcome& outcome, DriverCall driver) {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  s.note_context();
  s.poll_planning();
  const bool ours = s.in_our_context(request.context) && !request.captured;
  IterationCursor::Step step;
  Controller::State::PlanMark counted_under{};
  if (!request.captured) {
    outcome.counted = true;
    step = s.count_allocation(request.bytes);
    counted_under = s.plan_mark();
    outcome.in_iteration = step.trusted;
    outcome.ordinal = step.ordinal;
    outcome.plan_generation = counted_under.generation;
  }
  if (ours && request.kind != trace::AllocKind::pool) {
    Recorder* const recorder = Recorder::get();  // the arena's allocations need their ids now
    if (outcome.in_iteration && s.plan != nullptr && s.plan->pool != nullptr && recorder != nullptr) {
      PlannedPool& pool = *s.plan->pool;
      const uint32_t slot = pool.slot_of(outcome.ordinal);
      if (slot != PlannedPool::kNoSlot) {
        std::string_view reason;
        if (const CUdeviceptr served = pool.serve(slot, request.bytes, &reason)) {
          // What allocated() does for the others, here under the same lock (the fast path).
          *address = served;
          outcome.source = Source::arena;
          outcome.slot = slot;
          outcome.pool = &pool;
          outcome.alloc_id = s.take_served_id(*recorder);
          outcome.arena_offset = pool.offset_of(slot);
          outcome.device = s.device;
          s.add_reusing_node(outcome.alloc_id, {served, request.bytes, Source::arena, slot, &pool,
                                                s.next_program_ordinal++, true});
          if (outcome.ordinal < s.plan->iteration_allocations.size())
            s.plan->iteration_allocations[outcome.ordinal] = outcome.alloc_id;
          return CUDA_SUCCESS;
        }
        outcome.miss_reason = reason;
        ++s.plan->misses;
      }
    }
    if (s.swappable(request.bytes)) {
      // A buffer the plan swaps is charged from its first use, as the planner counted it: every
      // access to it passes through before_work (it was never reached by work we cannot decode).
      const SwapSpace::Mapping mapping = s.mapped_at_first_use(outcome) ? SwapSpace::Mapping::at_first_use
                                                                        : SwapSpace::Mapping::now;
      if (mapping == SwapSpace::Mapping::now) s.make_room(s.rounded(request.bytes));
      CUresult r = s.swap_space->allocate(request.bytes, address, mapping);
      if (r == CUDA_ERROR_OUT_OF_MEMORY && s.swap_space->evict(request.bytes) > 0) {
        r = s.swap_space->allocate(request.bytes, address, mapping);
      }
      s.drain_swap_events();
      if (r == CUDA_SUCCESS) outcome.source = Source::swap_space;
      if (r == CUDA_ERROR_OUT_OF_MEMORY && outcome.counted)
        s.note_refused(request.bytes, step, counted_under);
      if (r == CUDA_SUCCESS || r == CUDA_ERROR_OUT_OF_MEMORY) return r;
      outcome.fallback_reason = "the swap space failed; plain driver";
    }
  }
  if (ours) s.make_room(request.bytes);
  lock.unlock();
  CUresult r = driver();
  if (r == CUDA_ERROR_OUT_OF_MEMORY && ours) {
    lock.lock();
    const uint64_t freed = s.swap_space != nullptr ? s.swap_space->evict(request.bytes) : 0;
    s.drain_swap_events();
    lock.unlock();
    if (freed > 0) r = driver();
  }
  if (r != CUDA_SUCCESS && outcome.counted) {
    lock.lock();
    s.note_refused(request.bytes, step, counted_under);
  }
  return r;
}

void Controller::allocated(uint64_t alloc_id, CUdeviceptr address, uint64_t bytes,
                           const AllocOutcome& outcome) {
  if (outcome.source == Source::arena) return;  // allocate() did it
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  if (!outcome.counted && outcome.source == Source::driver) return;
  ManagedAllocation m{address,      bytes, outcome.source, outcome.slot,
                      outcome.pool, 0,     outcome.counted};
  if (outcome.counted) {
    m.program_ordinal = s.next_program_ordinal++;
    if (outcome.source == Source::swap_space) s.by_program_ordinal[m.program_ordinal] = alloc_id;
  }
  s.by_id[alloc_id] = m;
  if (outcome.source == Source::driver) s.driver_bytes += bytes;
  if (outcome.source == Source::swap_space) {
    s.swap_ids[address] = alloc_id;
    s.swap_space->set_tag(address, alloc_id);
  }
  if (outcome.in_iteration && s.plan != nullptr && outcome.plan_generation == s.plan_generation &&
      outcome.ordinal < s.plan->iteration_allocations.size()) {
    s.plan->iteration_allocations[outcome.ordinal] = alloc_id;
  }
  if (!outcome.miss_reason.empty())
    record_decision(trace::PoolMiss{alloc_id, intern(outcome.miss_reason)});
  if (!outcome.fallback_reason.empty())
    record_decision(trace::Fallback{alloc_id, intern(outcome.fallback_reason)});
}

void Controller::allocated_pitched(uint64_t alloc_id, CUdeviceptr address, uint64_t bytes) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  s.poll_planning();
  s.count(State::Counted::alloc, bytes);
  const uint64_t ordinal = s.next_program_ordinal++;
  s.by_id[alloc_id] = ManagedAllocation{
      address, bytes, Source::driver, PlannedPool::kNoSlot, nullptr, ordinal, true};
  s.driver_bytes += bytes;
}

CUresult Controller::free(uint64_t alloc_id, CUdeviceptr address, CUstream stream, bool async,
                          DriverCall driver) {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  const auto it = s.by_id.find(alloc_id);
  if (it == s.by_id.end()) {
    lock.unlock();
    return driver();
  }
  const ManagedAllocation m = s.remove_keeping_node(it);
  if (m.counted) {
    if (m.source == Source::swap_space) s.by_program_ordinal.erase(m.program_ordinal);
    s.count(State::Counted::free);
  }
  switch (m.source) {
    case Source::arena: {
      if (async) s.use_stream(stream);
      const std::span<const CUstream> used = s.streams.all();
      if (s.streams.in_order() && (used.empty() || !s.capturing(used[0]))) {
        m.pool->release_in_order(m.slot);
        s.streams.freed_in_order();
      } else {
        std::vector<CUstream> capturing;
        for (CUstream user : used) {
          if (s.capturing(user)) capturing.push_back(user);
        }
        m.pool->release(m.slot, used, capturing);
      }
      if (m.pool->live_slots() == 0) {
        std::erase_if(s.retired_pools,
                      [&](const auto& retired) { return retired.get() == m.pool; });
      }
      return CUDA_SUCCESS;
    }
    case Source::swap_space:
      s.swap_ids.erase(address);
      if (!async) s.wait_as_cu_mem_free();
      s.swap_space->release(address, async ? stream : nullptr);
      s.drain_swap_events();
      return CUDA_SUCCESS;
    case Source::driver:
      s.driver_bytes -= m.bytes;
      break;
  }
  lock.unlock();
  return driver();
}

CUresult Controller::before_work(const Work& work) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  s.poll_planning();
  t_pending = {};
  if (work.captured) {
    // Nothing of ours goes to a capturing stream; what the graph touches must stay where it is.
    for (uint64_t id : work.touched) {
      const auto it = s.by_id.find(id);
      if (it != s.by_id.end() && it->second.source == Source::swap_space)
        s.swap_space->keep_resident(it->second.base);
    }
    return CUDA_SUCCESS;
  }
  s.use_stream(work.stream);
  const IterationCursor::Step step = work.launch ? s.count(State::Counted::launch, 0, work.kernel)
                                                 : s.count(State::Counted::transfer);
  if (step.trusted && s.plan != nullptr) t_pending = {true, step.ordinal, s.plan_generation};
  if (step.trusted && s.plan != nullptr && s.plan->swaps) {
    // The memory the plan's swap-outs give back is waited for where it is needed, at each mapping
    // (make_room), not at the plan's release points: the device overlaps those copies with work
    // the host would otherwise hold back.
    for (const plan::SwapOperation* op : s.plan->swaps->ins_at(step.ordinal)) {
      if (ManagedAllocation* m = s.buffer(op->buffer)) {
        if (s.swap_space->is_out(m->base)) s.make_room(s.rounded(m->bytes));
        s.swap_space->swap_in(m->base);
      }
    }
  }
  // The swap-space buffers it touches come back together: bringing one back never evicts another.
  struct Needed {};
  const auto lease = ThreadScratch<std::vector<CUdeviceptr>, Needed>::get();
  std::vector<CUdeviceptr>& needed = *lease;
  needed.clear();
  CUdeviceptr only_read = 0;
  for (uint64_t id : work.touched) {
    const auto it = s.by_id.find(id);
    if (it == s.by_id.end()) continue;
    const ManagedAllocation& m = it->second;
    if (m.source == Source::arena) m.pool->before_work(m.slot, work.stream);
    if (m.source == Source::swap_space) {
      needed.push_back(m.base);
      if (id == work.only_read) only_read = m.base;
    }
  }
  if (!work.decoded && s.swap_space != nullptr) {
    // Whatever it touches is unknown: everything must be there.
    for (const auto& [base, id] : s.swap_ids) needed.push_back(base);
  }
  // Buffers mapped at their first use, and misses, take device memory now: within the plan's peak.
  if (const uint64_t mapping = needed.empty() ? 0 : s.swap_space->bytes_to_map(needed); mapping > 0)
    s.make_room(mapping);
  const CUresult result =
      needed.empty() ? CUDA_SUCCESS
                     : s.swap_space->ensure_resident(needed, work.stream, nullptr,
                                                     {&only_read, only_read != 0 ? 1u : 0u});
  s.drain_swap_events();
  return result;
}

void Controller::after_work(bool issued) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  const PendingWork pending = t_pending;
  t_pending = {};
  if (issued && pending.trusted && s.plan != nullptr &&
      pending.plan_generation == s.plan_generation && s.plan->swaps) {
    for (const plan::SwapOperation* op : s.plan->swaps->outs_after(pending.ordinal)) {
      if (ManagedAllocation* m = s.buffer(op->buffer))
        s.swap_space->swap_out(m->base, op->copy_out);
    }
  }
  s.drain_swap_events();
}

void Controller::keep_resident(uint64_t alloc_id) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  const auto it = s.by_id.find(alloc_id);
  if (it != s.by_id.end() && it->second.source == Source::swap_space)
    s.swap_space->keep_resident(it->second.base);
}

void Controller::range_push(std::string_view name) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  if (s.plan != nullptr) s.after_boundary(s.plan->cursor.on_range_push(name), false);
}

void Controller::stream_destroyed(CUstream stream) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  if (!s.streams.forget(stream)) s.block_free_arena();
  if (s.swap_space != nullptr) s.swap_space->forget_stream(stream);
}

}  // namespace tidepool::runtime::optimize
