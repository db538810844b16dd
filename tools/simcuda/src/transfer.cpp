// Copies and sets as stream operations (see transfer.h).
#include "tools/simcuda/src/transfer.h"

#include <cmath>

#include "tools/simcuda/src/bulk_copy.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/fault_handler.h"
#include "tools/simcuda/src/pointers.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/settings.h"
#include "tools/simcuda/src/stats.h"

namespace simcuda {
namespace {

constexpr double kDeviceBytesPerNs = 2000;  // 2 TB/s
constexpr int64_t kLinkLatencyNs = 10000;   // 10 us

int64_t link_ns(uint64_t bytes) {
  return std::llround(static_cast<double>(bytes) / settings().link_gbps) + kLinkLatencyNs;
}

int64_t device_ns(uint64_t bytes) { return std::llround(static_cast<double>(bytes) / kDeviceBytesPerNs); }

bool is_host(Where w) { return w == Where::pinned_host || w == Where::pageable_host; }

void move_rows(const Rows& rows) {
  set_current_work("memcpy");
  for (uint64_t z = 0; z < rows.depth; ++z)
    for (uint64_t row = 0; row < rows.height; ++row)  // overlapping ranges are the caller's bug; no UB here
      move_bytes(reinterpret_cast<void*>(rows.dst + z * rows.dst_slice + row * rows.dst_pitch),
                 reinterpret_cast<const void*>(rows.src + z * rows.src_slice + row * rows.src_pitch), rows.width);
  set_current_work(nullptr);
}

}  // namespace

CUresult copy(uint64_t dst, uint64_t src, uint64_t bytes, CUstream handle, bool per_thread, bool sync) {
  return copy_rows({dst, bytes, src, bytes, bytes, 1}, handle, per_thread, sync);
}

CUresult copy_rows(const Rows& rows, CUstream handle, bool per_thread, bool sync) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, sync); r != CUDA_SUCCESS) return r;
  if (rows.width == 0 || rows.height == 0 || rows.depth == 0) return CUDA_SUCCESS;
  if (rows.height > 1 && (rows.dst_pitch < rows.width || rows.src_pitch < rows.width)) return CUDA_ERROR_INVALID_VALUE;
  const uint64_t dst_extent = (rows.height - 1) * rows.dst_pitch + rows.width;  // of one slice
  const uint64_t src_extent = (rows.height - 1) * rows.src_pitch + rows.width;
  if (rows.depth > 1 && (rows.dst_slice < dst_extent || rows.src_slice < src_extent)) return CUDA_ERROR_INVALID_VALUE;
  const uint64_t bytes = rows.width * rows.height * rows.depth;
  const Where to = classify(rows.dst, (rows.depth - 1) * rows.dst_slice + dst_extent);
  const Where from = classify(rows.src, (rows.depth - 1) * rows.src_slice + src_extent);
  if (to == Where::invalid || from == Where::invalid) return CUDA_ERROR_INVALID_VALUE;

  // Captured copies are replayed later: one that must take or give pageable host memory now cannot be.
  if ((from == Where::pageable_host || to == Where::pageable_host) && !sync)
    if (const CUresult r = capture_gate(stream, true); r != CUDA_SUCCESS) return r;
  Engine engine = Engine::none;
  int64_t duration = 0;
  CopyKind kind = CopyKind::host_to_device;
  if (from == Where::device && to == Where::device) {
    engine = Engine::compute;
    duration = device_ns(bytes);
    kind = CopyKind::device_to_device;
    sync = false;
  } else if (is_host(from) && to == Where::device) {
    engine = Engine::host_to_device;
    duration = link_ns(bytes);
  } else if (from == Where::device && is_host(to)) {
    engine = Engine::device_to_host;
    duration = link_ns(bytes);
    kind = CopyKind::device_to_host;
    if (to == Where::pageable_host) sync = true;  // the real driver returns once the copy is done
  }

  // Host<->host copies (engine none) are not counted.
  const std::function<void()> account =
      engine == Engine::none ? std::function<void()>() : [kind, bytes] { stats_copy(kind, bytes); };
  if (!sync && from == Where::pageable_host) {
    // As the real driver does with a pageable source, the call waits for the stream's earlier
    // work and takes the data before it returns (the caller may reuse its buffer at once). On
    // the simulated clock the copy is still an asynchronous transfer.
    const OpPtr earlier = enqueue(*stream, Engine::none, 0, nullptr);
    wait_done(*earlier);
    move_rows(rows);
    enqueue(*stream, engine, duration, nullptr, {}, account);
    return CUDA_SUCCESS;
  }
  OpPtr op = enqueue(*stream, engine, duration, [rows](Op&) { move_rows(rows); }, {}, account);
  if (sync) host_wait(op);
  return CUDA_SUCCESS;
}

CUresult set(uint64_t dst, uint64_t pitch, uint64_t row_bytes, uint64_t rows,
             std::function<void(unsigned char*, uint64_t)> fill, CUstream handle, bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (row_bytes == 0 || rows == 0) return CUDA_SUCCESS;
  if (rows > 1 && pitch < row_bytes) return CUDA_ERROR_INVALID_VALUE;
  const uint64_t extent = (rows - 1) * pitch + row_bytes;
  const Where where = classify(dst, extent);
  if (where == Where::invalid || where == Where::pageable_host) return CUDA_ERROR_INVALID_VALUE;
  enqueue(*stream, Engine::compute, device_ns(row_bytes * rows), [=, fill = std::move(fill)](Op&) {
    set_current_work("memset");
    for (uint64_t row = 0; row < rows; ++row) fill(reinterpret_cast<unsigned char*>(dst + row * pitch), row_bytes);
    set_current_work(nullptr);
  }, {}, [bytes = row_bytes * rows] { stats_copy(CopyKind::set, bytes); });
  return CUDA_SUCCESS;
}

}  // namespace simcuda
