// Queuing copies and sets on streams, with the simulated clock's durations:
// host<->device bytes / SIMCUDA_LINK_GBPS + 10 us on one engine per direction, device-to-device
// copies and sets at 2 TB/s on the compute engine.
#pragma once

#include <cstdint>
#include <functional>

#include "tools/simcuda/src/api.h"

namespace simcuda {

// cuMemcpy* in all forms. sync: the host call returns when the copy is done (device-to-device
// copies never make the host wait). per_thread: handle 0 is the per-thread default stream.
CUresult copy(uint64_t dst, uint64_t src, uint64_t bytes, CUstream stream, bool per_thread, bool sync);

// `depth` slices (each `slice` bytes apart) of `height` rows of `width` bytes, each `pitch` apart.
struct Rows {
  uint64_t dst, dst_pitch, src, src_pitch, width, height;
  uint64_t depth = 1, dst_slice = 0, src_slice = 0;
};
// cuMemcpy2D*/3D* in all forms; the same rules as copy.
CUresult copy_rows(const Rows& rows, CUstream stream, bool per_thread, bool sync);

// cuMemsetD* in all forms: `rows` rows of `row_bytes` bytes, `pitch` apart, filled by fill(row).
CUresult set(uint64_t dst, uint64_t pitch, uint64_t row_bytes, uint64_t rows,
             std::function<void(unsigned char*, uint64_t)> fill, CUstream stream, bool per_thread);

}  // namespace simcuda
