// The discrete-event simulation behind the simulated clock (see timeline.h).
#include "tools/simcuda/src/timeline.h"

#include <algorithm>

namespace simcuda {

void Timeline::add(const OpPtr& op, std::span<const OpPtr> preds) {
  const std::lock_guard lock(mutex_);
  op->sim.seq = next_seq_++;
  op->sim.ready = host_now_;
  for (const OpPtr& pred : preds) {
    if (pred == nullptr || pred == op) continue;
    if (pred->sim.finished) {
      op->sim.ready = std::max(op->sim.ready, pred->sim.end);
    } else {
      pred->sim.successors.push_back(op);
      ++op->sim.pending;
    }
  }
  if (op->sim.pending == 0) events_.push({op->sim.ready, 1, op->sim.seq, op});
}

void Timeline::host_waited(const OpPtr& op) {
  const std::lock_guard lock(mutex_);
  run_until([&] { return op->sim.end >= 0; });
  host_now_ = std::max({host_now_, now_, op->sim.end});
}

int64_t Timeline::end_of(const OpPtr& op) {
  const std::lock_guard lock(mutex_);
  run_until([&] { return op->sim.end >= 0; });
  host_now_ = std::max(host_now_, now_);
  return op->sim.end;
}

int64_t Timeline::finish() {
  const std::lock_guard lock(mutex_);
  run_until([] { return false; });
  host_now_ = std::max(host_now_, now_);
  return last_engine_end_;
}

template <class Done>
void Timeline::run_until(Done done) {
  while (!done() && step()) {
  }
}

// Processes every event of the earliest pending time, then starts idle engines at that time.
bool Timeline::step() {
  if (events_.empty()) return false;
  now_ = events_.top().time;
  while (!events_.empty() && events_.top().time == now_) {
    const Event event = events_.top();
    events_.pop();
    if (event.kind == 0) {
      engines_[static_cast<int>(event.op->engine)].running = nullptr;
      finish_op(event.op, now_);
    } else if (event.op->engine == Engine::none) {
      event.op->sim.start = now_;
      event.op->sim.end = now_;
      finish_op(event.op, now_);
    } else {
      engines_[static_cast<int>(event.op->engine)].ready.insert(event.op);
    }
  }
  start_idle_engines();
  return true;
}

void Timeline::finish_op(const OpPtr& op, int64_t time) {
  op->sim.finished = true;
  if (op->engine != Engine::none) last_engine_end_ = std::max(last_engine_end_, time);
  for (const OpPtr& next : op->sim.successors) {
    next->sim.ready = std::max(next->sim.ready, time);
    if (--next->sim.pending == 0) events_.push({next->sim.ready, 1, next->sim.seq, next});
  }
  op->sim.successors.clear();
}

void Timeline::start_idle_engines() {
  for (EngineState& engine : engines_) {
    if (engine.running != nullptr || engine.ready.empty()) continue;
    OpPtr op = *engine.ready.begin();
    engine.ready.erase(engine.ready.begin());
    if (op->duration_ns < 0) wait_done(*op);  // a kernel's work is known once its twin has run
    op->sim.start = now_;
    op->sim.end = now_ + op->duration_ns;
    events_.push({op->sim.end, 0, op->sim.seq, op});
    engine.running = std::move(op);
  }
}

Timeline& timeline() {
  static Timeline& instance = *new Timeline;
  return instance;
}

}  // namespace simcuda
