// Stream memory operations as stream work (see stream_memop.h).
#include "tools/simcuda/src/stream_memop.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/fault_handler.h"
#include "tools/simcuda/src/pointers.h"
#include "tools/simcuda/src/scheduler.h"

namespace simcuda {
namespace {

constexpr unsigned kWaitFlush = CU_STREAM_WAIT_VALUE_FLUSH;

// The latest queued write to each address and its value, for the simulated clock.
struct LastWrites {
  std::mutex mutex;
  std::map<uint64_t, std::pair<OpPtr, uint64_t>> writes;
};

LastWrites& last_writes() {
  static LastWrites& instance = *new LastWrites;
  return instance;
}

uint64_t load(const MemOp& op) {
  if (op.wide) return std::atomic_ref(*reinterpret_cast<uint64_t*>(op.address)).load();
  return std::atomic_ref(*reinterpret_cast<uint32_t*>(op.address)).load();
}

bool satisfied(const MemOp& op, uint64_t current) {
  switch (op.flags & ~kWaitFlush) {
    case CU_STREAM_WAIT_VALUE_GEQ:
      return op.wide ? static_cast<int64_t>(current - op.value) >= 0
                     : static_cast<int32_t>(static_cast<uint32_t>(current) - static_cast<uint32_t>(op.value)) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ: return current == op.value;
    case CU_STREAM_WAIT_VALUE_AND: return (current & op.value) != 0;
    default: {  // CU_STREAM_WAIT_VALUE_NOR
      const uint64_t nor = ~(current | op.value);
      return (op.wide ? nor : static_cast<uint32_t>(nor)) != 0;
    }
  }
}

void run(const MemOp& op) {
  set_current_work(op.wait ? "cuStreamWaitValue" : "cuStreamWriteValue");
  if (op.wait) {
    while (!satisfied(op, load(op))) std::this_thread::sleep_for(std::chrono::microseconds(20));
  } else if (op.wide) {
    std::atomic_ref(*reinterpret_cast<uint64_t*>(op.address)).store(op.value);
  } else {
    std::atomic_ref(*reinterpret_cast<uint32_t*>(op.address)).store(static_cast<uint32_t>(op.value));
  }
  set_current_work(nullptr);
}

}  // namespace

CUresult check_mem_op(const MemOp& op) {
  const uint64_t size = op.wide ? 8 : 4;
  if (op.address % size != 0) return CUDA_ERROR_INVALID_VALUE;
  const Where where = classify(op.address, size);
  if (where != Where::device && where != Where::pinned_host) return CUDA_ERROR_INVALID_VALUE;
  if (op.wait) return (op.flags & ~kWaitFlush) <= CU_STREAM_WAIT_VALUE_NOR ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  return op.flags <= CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

void enqueue_mem_op(Stream& stream, const MemOp& op) {
  if (!op.wait) {
    OpPtr queued = enqueue(stream, Engine::none, 0, [op](Op&) { run(op); });
    if (queued->captured != nullptr) return;  // runs only in graph launches
    const std::lock_guard lock(last_writes().mutex);
    last_writes().writes[op.address] = {std::move(queued), op.value};
    return;
  }
  OpPtr writer;
  {
    const std::lock_guard lock(last_writes().mutex);
    const auto it = last_writes().writes.find(op.address);
    if (it != last_writes().writes.end() && satisfied(op, it->second.second)) writer = it->second.first;
  }
  const OpPtr waits[] = {writer};
  enqueue(stream, Engine::none, 0, [op](Op&) { run(op); }, writer ? std::span<const OpPtr>(waits) : std::span<const OpPtr>());
}

}  // namespace simcuda
