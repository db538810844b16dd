// Stream-ordered allocation: memory pools (the device's default pool and created ones).
//
// A pool keeps freed blocks reserved. A block freed by cuMemFreeAsync on a stream is reused by
// later allocations on that same stream (stream order makes it safe) and by any stream once the
// host has synchronized with that stream or the device; at those synchronizations, reserved
// memory above the pool's release threshold (default 0) goes back to the device. Block reuse is
// by exact rounded size, so what a program reserves depends only on its calls, never on timing.
#pragma once

#include <cstdint>

#include "tools/simcuda/src/api.h"

namespace simcuda {

class Stream;
class MemoryPool;

CUresult pool_allocate(MemoryPool* pool, uint64_t bytes, CUstream stream, bool per_thread, CUdeviceptr& out);
CUresult pool_free_async(CUdeviceptr address, CUstream stream, bool per_thread);
// cuMemFree of a stream-ordered allocation, once the device is idle.
CUresult free_to_pool_now(CUdeviceptr address);
// The host synchronized with a stream (nullptr: with the whole device).
void pools_synchronized(const Stream* stream);

MemoryPool* default_pool();
MemoryPool* current_pool();
void set_current_pool(MemoryPool* pool);
MemoryPool* create_pool();
// nullptr when the handle names no live pool.
MemoryPool* find_pool(CUmemoryPool handle);
void destroy_pool(MemoryPool* pool);
void trim_pool(MemoryPool* pool, uint64_t keep_bytes);
CUresult set_pool_attribute(MemoryPool* pool, CUmemPool_attribute attribute, const void* value);
CUresult get_pool_attribute(MemoryPool* pool, CUmemPool_attribute attribute, void* value);

}  // namespace simcuda
