// The controller's background planning: a thread that plans from the trace written so far, and
// the plan it hands over at the program's next event.
#include <unistd.h>

#include "runtime/optimize/controller_state.h"
#include "runtime/optimize/plan_cache.h"

namespace tidepool::runtime::optimize {

void Controller::State::start_planning() {
  if (worker_started) {
    // Still planning: tried again at the next event. Only attempts that start double the wait for
    // the next one, so a slow planner delays the new plan by its own time, not by a doubling.
    if (!worker_done.load(std::memory_order_acquire)) return;
    worker.join();
  }
  next_attempt = 2 * (events - events_at_cut);
  PlanningJob job;
  job.trace_path = trace_path;
  job.after_seq = cut_seq;
  job.events_at_cut = events_at_cut;
  if (request_pool) job.request.pool = plan::PoolRequest{"best", 1.0};
  if (request_swap)
    job.request.swap =
        plan::SwapRequest{"best", settings.link, settings.budget_bytes, settings.max_slowdown_pct};
  worker_started = true;
  worker_pid = getpid();
  worker_done.store(false, std::memory_order_release);
  const std::string cache = settings.plan_cache;
  const std::string key = cache.empty() ? std::string{} : program_key(settings);
  // The last attempt's reader goes on where it stopped, if it reads the same window.
  std::unique_ptr<WindowReader> reader;
  {
    const std::lock_guard lock(result_mutex);
    reader = std::move(window_reader);
  }
  worker = std::thread([this, job = std::move(job), cache, key, reader = std::move(reader)]() mutable {
    Recorder::flush();
    std::optional<OnlinePlan> planned;
    std::string error;
    try {
      if (!reader || !reader->reads(job.trace_path, job.after_seq))
        reader = std::make_unique<WindowReader>(job.trace_path, job.after_seq);
      planned = plan_online(job, *reader);
      if (planned && !cache.empty())
        store_cached_plan(cache, key, {planned->plan, planned->first_boundary});
    } catch (const std::exception& e) {
      error = e.what();
    }
    {
      const std::lock_guard lock(result_mutex);
      result = std::move(planned);
      failure = std::move(error);
      // Kept for the next attempt only while there is one to come.
      if (!result && failure.empty()) window_reader = std::move(reader);
    }
    result_ready.store(true, std::memory_order_release);
    worker_done.store(true, std::memory_order_release);
  });
}

void Controller::State::poll_planning() {
  if (!result_ready.load(std::memory_order_acquire)) return;
  std::optional<OnlinePlan> planned;
  std::string error;
  {
    const std::lock_guard lock(result_mutex);
    planned = std::move(result);
    result.reset();
    error = std::move(failure);
    failure.clear();
  }
  result_ready.store(false, std::memory_order_release);
  if (!error.empty()) {
    give_up("planning failed (" + error + "); running unoptimized");
  } else if (planned && plan == nullptr && !gave_up) {
    arm(std::move(planned->plan), PlanOrigin::online, planned->next_boundary, planned->lead_events);
  }
}

void Controller::State::join_planner() {
  // A forked child has a copy of the thread object but not the thread: it leaves it be.
  if (worker_started && worker.joinable() && worker_pid == getpid()) worker.join();
}

}  // namespace tidepool::runtime::optimize
