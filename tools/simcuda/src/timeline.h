// The simulated clock: a discrete-event simulation of the device's engines (one compute engine
// shared by all streams, one copy engine per direction), fed in host call order.
//
// An operation becomes ready when its predecessors have finished and not before the host's
// simulated "now" at its call; each engine runs ready operations one at a time in the order they
// became ready (ties: host call order). Host code takes no simulated time: the host's clock moves
// only when it waits for device work (or asks for a simulated time), to the time it learned.
#pragma once

#include <cstdint>
#include <mutex>
#include <queue>
#include <set>
#include <span>
#include <tuple>
#include <vector>

#include "tools/simcuda/src/op.h"

namespace simcuda {

class Timeline {
 public:
  // Adds an operation after all of preds (which were added before it).
  void add(const OpPtr& op, std::span<const OpPtr> preds);
  // The host waited for op: its clock moves to op's simulated end.
  void host_waited(const OpPtr& op);
  // op's simulated end (the host learns that time).
  int64_t end_of(const OpPtr& op);
  // Simulates everything added so far; the time at which the last engine work finished.
  int64_t finish();

 private:
  struct Event {
    int64_t time;
    int kind;  // 0: an operation finishes, 1: an operation becomes ready
    uint64_t seq;
    OpPtr op;
    bool operator>(const Event& o) const { return std::tie(time, kind, seq) > std::tie(o.time, o.kind, o.seq); }
  };
  struct ReadyOrder {
    bool operator()(const OpPtr& a, const OpPtr& b) const {
      return std::tie(a->sim.ready, a->sim.seq) < std::tie(b->sim.ready, b->sim.seq);
    }
  };
  struct EngineState {
    OpPtr running;
    std::set<OpPtr, ReadyOrder> ready;
  };

  template <class Done>
  void run_until(Done done);
  bool step();
  void finish_op(const OpPtr& op, int64_t time);
  void start_idle_engines();

  std::mutex mutex_;
  uint64_t next_seq_ = 0;
  int64_t now_ = 0;       // the simulation has decided everything before this time
  int64_t host_now_ = 0;  // the host's clock; never behind now_
  int64_t last_engine_end_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  EngineState engines_[3];
};

Timeline& timeline();

}  // namespace simcuda
