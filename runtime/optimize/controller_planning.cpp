// The controller's background planning: a thread that plans from the trace written so far, the
// plan it hands over at the program's next event, and a last attempt at exit for the plan cache.
#include <unistd.h>

#include "runtime/optimize/controller_state.h"
#include "runtime/optimize/plan_cache.h"

namespace tidepool::runtime::optimize {

namespace {

struct AttemptOutcome {
  std::optional<OnlinePlan> planned;
  std::string error;  // planning failed
};

// One planning attempt: the job's window read (by `reader` where it reads that window, going on
// where it stopped; else by a new one), planned, and the plan cached where there is a cache.
AttemptOutcome attempt_planning(const PlanningJob& job, std::unique_ptr<WindowReader>& reader,
                                const std::string& cache, const std::string& key) {
  Recorder::flush();
  AttemptOutcome out;
  try {
    if (!reader || !reader->reads(job.trace_path, job.after_seq))
      reader = std::make_unique<WindowReader>(job.trace_path, job.after_seq);
    out.planned = plan_online(job, *reader);
    if (out.planned && !cache.empty())
      store_cached_plan(cache, key, {out.planned->plan, out.planned->first_boundary});
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace

PlanningJob Controller::State::planning_job() const {
  PlanningJob job;
  job.trace_path = trace_path;
  job.after_seq = cut_seq;
  job.events_at_cut = events_at_cut;
  if (request_pool) job.request.pool = plan::PoolRequest{"best", 1.0};
  if (request_swap)
    job.request.swap =
        plan::SwapRequest{"best", settings.link, settings.budget_bytes, settings.max_slowdown_pct};
  return job;
}

std::unique_ptr<WindowReader> Controller::State::take_window_reader() {
  const std::lock_guard lock(result_mutex);
  return std::move(window_reader);
}

void Controller::State::start_planning() {
  if (worker_started) {
    // Still planning: tried again at the next event. Only attempts that start double the wait for
    // the next one, so a slow planner delays the new plan by its own time, not by a doubling.
    if (!worker_done.load(std::memory_order_acquire)) return;
    worker.join();
  }
  next_attempt = 2 * (events - events_at_cut);
  events_at_last_attempt = events;
  worker_started = true;
  worker_pid = getpid();
  worker_done.store(false, std::memory_order_release);
  const std::string cache = settings.plan_cache;
  const std::string key = cache.empty() ? std::string{} : program_key(settings);
  worker = std::thread(
      [this, job = planning_job(), cache, key, reader = take_window_reader()]() mutable {
        AttemptOutcome outcome = attempt_planning(job, reader, cache, key);
        {
          const std::lock_guard lock(result_mutex);
          result = std::move(outcome.planned);
          failure = std::move(outcome.error);
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

void Controller::State::finish_planning() {
  {
    const std::lock_guard lock(mutex);
    exiting = true;  // the program's threads still running start no attempt now
  }
  // A forked child has a copy of the thread object but not the thread: it leaves it be.
  if (worker_started && worker.joinable() && worker_pid == getpid()) worker.join();
  // The program ended before a plan: a last attempt on all it did, so that its next run starts
  // with a cached plan. The background attempts start at events a doubling apart, one at a time,
  // so the last of them may have seen too few iterations, and a program that ends soon after
  // would otherwise never have its plan. (A forked child records no trace of its own.)
  if (Recorder::get() == nullptr || settings.plan_cache.empty()) return;
  PlanningJob job;
  std::unique_ptr<WindowReader> reader;
  {
    const std::lock_guard lock(mutex);
    if (plan != nullptr || gave_up || !(request_pool || request_swap) ||
        events == events_at_last_attempt)
      return;
    {
      const std::lock_guard result_lock(result_mutex);
      if (result || !failure.empty()) return;  // the last attempt planned (and cached), or failed
    }
    job = planning_job();
    job.at_exit = true;
    reader = take_window_reader();
  }
  const AttemptOutcome outcome =
      attempt_planning(job, reader, settings.plan_cache, program_key(settings));
  if (!outcome.error.empty())
    warn("no plan cached for the next run: planning failed (" + outcome.error + ")");
}

}  // namespace tidepool::runtime::optimize
