// One unit of device work (a kernel, a copy, a set, an event record, a wait) as a stream worker
// runs it and as the simulated clock schedules it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace simcuda {

// What an operation occupies on the simulated device.
enum class Engine { compute, host_to_device, device_to_host, none };

struct Op;
struct CaptureSpot;
using OpPtr = std::shared_ptr<Op>;

// The simulated schedule of an operation; guarded by the timeline's mutex.
struct SimState {
  uint64_t seq = 0;          // host call order
  int pending = 0;           // predecessors not yet finished in simulation
  int64_t ready = 0;         // when all predecessors have finished (ns)
  int64_t start = -1;        // -1 until scheduled
  int64_t end = -1;          // -1 until scheduled
  bool finished = false;
  std::vector<OpPtr> successors;
};

struct Op {
  Op(Engine e, int64_t duration, std::function<void(Op&)> body)
      : engine(e), duration_ns(duration), work(std::move(body)) {}

  const Engine engine;
  std::atomic<int64_t> duration_ns;  // -1 until the work has run (kernels report their work when run)
  std::function<void(Op&)> work;     // runs on the stream's worker thread
  std::vector<OpPtr> wall_waits;     // operations of other streams that must finish first
  std::atomic<bool> done{false};
  SimState sim;
  // Set on the finished stand-in returned for an operation recorded into a capture (never run).
  std::shared_ptr<const CaptureSpot> captured;
};

// Real (wall-clock) completion.
void mark_done(Op& op);
void wait_done(const Op& op);

}  // namespace simcuda
