// Stream memory operations (cuStreamWaitValue*, cuStreamWriteValue*, cuStreamBatchMemOp): a
// write stores a 32/64-bit value in stream order; a wait holds its stream until a condition on
// the value at an address holds (really, on the stream's worker). Both take no simulated time;
// on the simulated clock a wait follows the latest queued write to its address that satisfies it.
#pragma once

#include <cstdint>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/stream.h"

namespace simcuda {

struct MemOp {
  bool wait = false;  // a wait, else a write
  bool wide = false;  // 64-bit, else 32-bit
  uint64_t address = 0;
  uint64_t value = 0;
  unsigned flags = 0;  // CUstreamWaitValue_flags or CUstreamWriteValue_flags
};

// Checks the operation (alignment, memory a device can reach, flags); CUDA_ERROR_INVALID_VALUE if bad.
CUresult check_mem_op(const MemOp& op);
// Queues a checked operation on the stream.
void enqueue_mem_op(Stream& stream, const MemOp& op);

}  // namespace simcuda
