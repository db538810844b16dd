// The controller's state, shared by its entry points (controller.cpp) and its plan handling
// (controller_plans.cpp). Guarded by `mutex` unless a member says otherwise.
#pragma once

#include <sys/types.h>

#include <array>
#include <atomic>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "analyzer/plan/plan.h"
#include "runtime/driver_api.h"
#include "runtime/optimize/controller.h"
#include "runtime/optimize/iteration_cursor.h"
#include "runtime/optimize/online_planner.h"
#include "runtime/optimize/planned_pool.h"
#include "runtime/optimize/stream_order.h"
#include "runtime/optimize/swap_schedule.h"
#include "runtime/recorder.h"
#include "runtime/settings.h"
#include "runtime/swap/swap_space.h"

namespace tidepool::runtime::optimize {

// An allocation of the event stream, or one the runtime placed itself.
struct ManagedAllocation {
  CUdeviceptr base = 0;
  uint64_t bytes = 0;
  AllocOutcome::Source source = AllocOutcome::Source::driver;
  uint32_t slot = PlannedPool::kNoSlot;
  PlannedPool* pool = nullptr;
  uint64_t program_ordinal = 0;
  bool counted = false;
};

enum class PlanOrigin { online, cache, file };

// Events recorded (after the start or a return to recording) before the first planning attempt.
inline constexpr uint64_t kFirstAttemptEvents = 64;
// Finished swap transfers the swap space holds back before timing them (see set_report_lag).
inline constexpr size_t kSwapReportLag = 64;
// Iteration starts at which the arena is asked for before the plan goes on without its pool: the
// memory may be held for a moment (by another process, or by frees still queued).
inline constexpr uint32_t kArenaAttempts = 8;

// A plan in force.
struct Enforcement {
  Enforcement(plan::Plan p, PlanOrigin o, IterationCursor c)
      : plan(std::move(p)), origin(o), cursor(std::move(c)) {}
  plan::Plan plan;
  PlanOrigin origin;
  IterationCursor cursor;
  std::unique_ptr<PlannedPool> pool;  // made at the first iteration boundary, where least is live
  bool pool_wanted = false;
  uint32_t arena_refusals = 0;  // iteration starts at which the driver refused the arena
  std::optional<SwapSchedule> swaps;
  std::vector<uint64_t> iteration_allocations;  // allocation ordinal -> alloc id in this iteration
  uint32_t strayed = 0;           // consecutive iterations that differed from the plan
  uint64_t misses = 0;            // pool misses in the current iteration
  uint64_t events_untrusted = 0;  // events since the cursor was last in step
  bool ever_matched = false;
};

class Controller::State {
 public:
  State(const DriverApi& driver, bool (*is_capturing)(CUstream), std::string trace);

  // controller_state.cpp, controller_plans.cpp, controller_planning.cpp
  void note_context();   // the first context seen: swap space, given plans
  void poll_planning();  // installs a finished background plan
  enum class Counted { alloc, free, launch, transfer };
  IterationCursor::Step count(Counted kind, uint64_t bytes = 0, std::string_view kernel = {});
  // An allocation's event: a new one, or the step of the refused allocation it makes again.
  IterationCursor::Step count_allocation(uint64_t bytes);
  // What was in force when an event was counted, for a caller that lets the lock go before it
  // uses the step (a plan may be left, and another armed at the same address, meanwhile).
  struct PlanMark {
    uint64_t generation;
    bool recording;
  };
  PlanMark plan_mark() const { return {plan_generation, plan == nullptr}; }
  // The driver refused an allocation counted as `step` under `counted_under`.
  void note_refused(uint64_t bytes, const IterationCursor::Step& step, PlanMark counted_under);
  void after_boundary(const IterationCursor::Step& step, bool inside_event);
  void return_to_recording(std::string_view reason, bool inside_event);
  void give_up(std::string_view warning);
  // At exit: waits for the background planning, and plans the whole window if nothing did yet.
  void finish_planning();
  ManagedAllocation* buffer(const plan::BufferRef& ref);
  // Records the swap space's finished transfers; `everything`: the ones it holds back too.
  void drain_swap_events(bool everything = false);
  bool in_our_context(CUcontext current) const { return context != nullptr && current == context; }
  bool swappable(uint64_t bytes) const;
  // Whether a swap-space allocation gets its memory at its first use: one the plan in force swaps.
  bool mapped_at_first_use(const AllocOutcome& outcome) const;
  uint64_t rounded(uint64_t bytes) const;  // up to the swap space's granularity
  // Device memory the runtime accounts for: the arenas, the live allocations the driver served
  // (counted ones), and the swap space's mapped and cached memory.
  uint64_t device_bytes() const;
  // Before `bytes` more device memory is taken (an allocation outside the arena, a swap-in's map),
  // while a plan's swaps are in force: finishes the oldest swap-outs in flight until it fits under
  // the plan's peak. The plan's peak is over device time; the host runs ahead of the device, so
  // without this it maps the next buffers before the copies that make room for them have run.
  void make_room(uint64_t bytes);
  // What the program may rely on after a cuMemFree that tidepool serves itself: its own work is
  // done (every stream it used; the whole context when it used a per-thread default stream, whose
  // handle names another stream in each thread). The swap space's copies are not waited for.
  void wait_as_cu_mem_free();
  // The program's work or free on `stream` (StreamOrder::use), before it is issued.
  void use_stream(CUstream stream);
  // No arena memory free now may be reused (a new stream could not be ordered after its frees).
  void block_free_arena();
  bool modes_requested() const;

  std::mutex mutex;
  DriverApi api;
  bool (*capturing)(CUstream);
  const Settings& settings;
  std::string trace_path;
  CUcontext context = nullptr;
  CUdevice device = 0;  // of `context`
  std::unique_ptr<SwapSpace> swap_space;
  uint64_t granularity = 0;

  uint64_t events = 0;  // events of the stream counted since the start (the trace's, in step)
  // The last allocation counted under the plan in force, if the driver refused it. The trace holds
  // only allocations that succeeded, so the program's next allocation of the same size, with only
  // frees between (a caching allocator gives memory back, then asks again), is the same event: it
  // takes this step. Any other work first, and the refusal stays an event of its own (the plan then
  // sees its iteration differ, and the runtime falls back). While recording, a refusal is no event.
  struct RefusedAllocation {
    uint64_t plan_generation;
    uint64_t bytes;
    IterationCursor::Step step;
  };
  std::optional<RefusedAllocation> refused;
  std::pmr::unsynchronized_pool_resource node_memory;  // map nodes are recycled, not reallocated
  std::pmr::unordered_map<uint64_t, ManagedAllocation> by_id{&node_memory};
  // by_id's entries made and removed by the fast path (the arena's allocations and frees): the node
  // a removal leaves is kept for the next entry, so that they neither allocate nor free one.
  void add_reusing_node(uint64_t alloc_id, const ManagedAllocation& m) {
    if (spare_count == 0) {
      by_id.try_emplace(alloc_id, m);
      return;
    }
    auto node = std::move(spare_by_id[--spare_count]);
    node.key() = alloc_id;
    node.mapped() = m;
    by_id.insert(std::move(node));
  }
  ManagedAllocation remove_keeping_node(decltype(by_id)::iterator it) {
    auto node = by_id.extract(it);
    const ManagedAllocation m = node.mapped();
    if (spare_count < spare_by_id.size()) spare_by_id[spare_count++] = std::move(node);
    return m;
  }
  std::array<decltype(by_id)::node_type, 32> spare_by_id;  // [0, spare_count): kept nodes
  size_t spare_count = 0;
  // Program ordinal -> alloc id, for the swap space's buffers (the only ones a swap can name).
  std::pmr::unordered_map<uint64_t, uint64_t> by_program_ordinal{&node_memory};
  std::pmr::unordered_map<CUdeviceptr, uint64_t> swap_ids{&node_memory};         // base -> alloc id
  uint64_t next_program_ordinal = 0;
  // The fast path's allocation ids, taken from the recorder a block at a time: one atomic
  // increment per block instead of one per served allocation.
  uint64_t take_served_id(Recorder& recorder) {
    if (served_ids_left == 0) {
      served_id_next = recorder.reserve_alloc_ids(kServedIdBlock);
      served_ids_left = kServedIdBlock;
    }
    --served_ids_left;
    return served_id_next++;
  }
  static constexpr uint64_t kServedIdBlock = 64;
  uint64_t served_id_next = 0;
  uint64_t served_ids_left = 0;
  uint64_t driver_bytes = 0;  // live counted allocations the driver served
  StreamOrder streams;  // the streams the program's work has used

  std::unique_ptr<Enforcement> plan;  // changed only by set_plan
  uint64_t plan_generation = 0;       // plans armed and left so far
  void set_plan(std::unique_ptr<Enforcement> next) {
    plan = std::move(next);
    ++plan_generation;
  }
  std::vector<std::unique_ptr<PlannedPool>> retired_pools;  // still holding live slots
  bool request_pool = false;
  bool request_swap = false;
  bool enforce_pool = false;
  bool enforce_swap = false;
  bool gave_up = false;
  bool pool_warned = false;  // "no planned pool" is said once

  // Recording and background planning.
  uint64_t cut_seq = 0;
  uint64_t events_at_cut = 0;
  uint64_t next_attempt = 0;  // events after the cut at which the next planning attempt starts
  uint64_t events_at_last_attempt = 0;  // `events` when the last attempt started
  bool exiting = false;  // finish_planning has begun
  std::thread worker;
  bool worker_started = false;
  pid_t worker_pid = 0;
  std::atomic<bool> worker_done{true};
  std::atomic<bool> result_ready{false};
  std::mutex result_mutex;  // guards the three below
  std::optional<OnlinePlan> result;
  std::string failure;
  std::unique_ptr<WindowReader> window_reader;  // the last attempt's, handed to the next

 private:
  void start_planning();
  PlanningJob planning_job() const;                    // of the window since the cut
  std::unique_ptr<WindowReader> take_window_reader();  // the last attempt's, if it kept one
  void arm(plan::Plan plan, PlanOrigin origin, std::optional<uint64_t> next_boundary,
           uint64_t lead);
  void retire(std::unique_ptr<PlannedPool> pool);
  void make_pool();
};

// One line on stderr: "tidepool: warning: ...".
void warn(std::string_view message);

// Records a decision now, or (sequence from Recorder::reserve_sequence) where it happened.
template <class R>
void record_decision(R record, uint64_t sequence = 0) {
  if (Recorder* rec = Recorder::get()) {
    trace::Event event{0, 0, 0, std::move(record)};
    rec->record_at(sequence, event);
  }
}
uint32_t intern(std::string_view text);

}  // namespace tidepool::runtime::optimize
