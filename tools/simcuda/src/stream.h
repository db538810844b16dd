// A stream: operations run in order on the stream's own worker thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/op.h"

namespace simcuda {

struct Context;
struct Capture;
struct GraphNode;

enum class StreamKind { legacy, per_thread, created };

class Stream {
 public:
  Stream(Context& context, StreamKind kind, unsigned flags, int priority);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Runs op on the worker after the previously pushed ones and after op->wall_waits.
  void push(OpPtr op);
  // The worker exits once everything pushed so far has run.
  void close();

  Context& context;
  const StreamKind kind;
  const unsigned flags;  // CU_STREAM_DEFAULT or CU_STREAM_NON_BLOCKING
  const int priority;
  const unsigned long long id;
  OpPtr last;  // the latest operation pushed; guarded by the scheduler's mutex
  // The capture this stream records into (nullptr when none), the nodes its next operation
  // depends on, and their handles as last reported; guarded by the capture mutex (capture.cpp).
  std::shared_ptr<Capture> capture;
  std::vector<const GraphNode*> capture_deps;
  std::vector<CUgraphNode> reported_deps;

  // Whether work on this stream is ordered with the legacy default stream.
  bool blocking() const { return kind != StreamKind::created || (flags & CU_STREAM_NON_BLOCKING) == 0; }

 private:
  struct Queue {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<OpPtr> ops;
    bool closed = false;
  };
  static void run_worker(std::shared_ptr<Queue> queue);

  std::shared_ptr<Queue> queue_;
};

}  // namespace simcuda
