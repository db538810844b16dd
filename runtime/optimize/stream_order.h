// The streams the program's work has used, and how arena memory freed while it used only one is
// ordered against streams it uses later. A free records an event on every stream the program has
// used (PlannedPool::release), so that the memory's next occupant on another stream waits for the
// work queued before the free. While the program uses a single stream, stream order already does
// that, so frees record nothing (a driver call saved per free); a stream seen afterwards first waits
// on one fence recorded on the old stream, after every such free.
//
// Not thread-safe: the controller calls it under its lock.
#pragma once

#include <cuda.h>

#include <span>
#include <vector>

#include "runtime/driver_api.h"

namespace tidepool::runtime::optimize {

class StreamOrder {
 public:
  StreamOrder(const DriverApi& api, bool (*capturing)(CUstream)) : api_(api), capturing_(capturing) {}
  ~StreamOrder();
  StreamOrder(const StreamOrder&) = delete;
  StreamOrder& operator=(const StreamOrder&) = delete;

  // Before the program's work (or stream-ordered free) on `stream` is issued. False when a new
  // stream could not be ordered after the frees that recorded no event (the old stream is capturing,
  // or the driver refused): the caller must then never reuse the arena memory free now.
  bool use(CUstream stream);
  // The program is about to destroy `stream`. False as for use().
  bool forget(CUstream stream);

  // True while a free needs no event: one stream at most, and not the per-thread default stream
  // (its handle names a different stream in each thread).
  bool in_order() const { return streams_.size() < 2 && (streams_.empty() || streams_[0] != CU_STREAM_PER_THREAD); }
  // An arena free that recorded no event (in_order() was true).
  void freed_in_order() { unfenced_ = true; }

  std::span<const CUstream> all() const { return streams_; }

 private:
  bool fence_unfenced_frees();

  const DriverApi& api_;
  bool (*capturing_)(CUstream);
  std::vector<CUstream> streams_;
  CUevent fence_ = nullptr;  // recorded after every in-order free; new streams wait on it
  bool unfenced_ = false;    // in-order frees since the fence was last recorded
};

}  // namespace tidepool::runtime::optimize
