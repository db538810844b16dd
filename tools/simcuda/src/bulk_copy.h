// Moving bytes for copies: std::memmove for small or overlapping ranges; a large copy between
// disjoint ranges is shared out over threads (parallel_for) and stores past the caches, since
// what a copy writes is rarely read back at once.
#pragma once

#include <cstddef>

namespace simcuda {

// As std::memmove(dst, src, bytes).
void move_bytes(void* dst, const void* src, size_t bytes);

}  // namespace simcuda
