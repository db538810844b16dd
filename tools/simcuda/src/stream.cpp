// The stream worker: one thread per stream, running operations in push order.
#include "tools/simcuda/src/stream.h"

#include <atomic>
#include <thread>

namespace simcuda {
namespace {
std::atomic<unsigned long long> next_stream_id{1};
}

Stream::Stream(Context& ctx, StreamKind k, unsigned f, int p)
    : context(ctx), kind(k), flags(f), priority(p), id(next_stream_id++), queue_(std::make_shared<Queue>()) {
  std::thread(run_worker, queue_).detach();  // the worker owns the queue; it outlives the stream object
}

void Stream::push(OpPtr op) {
  {
    const std::lock_guard lock(queue_->mutex);
    queue_->ops.push_back(std::move(op));
  }
  queue_->changed.notify_one();
}

void Stream::close() {
  {
    const std::lock_guard lock(queue_->mutex);
    queue_->closed = true;
  }
  queue_->changed.notify_one();
}

void Stream::run_worker(std::shared_ptr<Queue> queue) {
  for (;;) {
    OpPtr op;
    {
      std::unique_lock lock(queue->mutex);
      queue->changed.wait(lock, [&] { return !queue->ops.empty() || queue->closed; });
      if (queue->ops.empty()) return;
      op = std::move(queue->ops.front());
      queue->ops.pop_front();
    }
    for (const OpPtr& other : op->wall_waits) wait_done(*other);
    op->wall_waits.clear();
    if (op->work) op->work(*op);
    op->work = nullptr;  // releases what the work captured (staging buffers, parameters)
    mark_done(*op);
  }
}

}  // namespace simcuda
