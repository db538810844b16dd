// Which streams are capturing, process-wide (captures begun by any thread): the stream a capture
// began on (between our cuStreamBeginCapture*/cuStreamEndCapture hooks), streams that joined it
// by waiting on an event recorded in it, and whatever the driver answered the program's own
// capture queries. Work issued on a capturing stream is recorded as captured, and tidepool adds
// no work, waits or event queries of its own while any capture is under way.
//
// Streams are keyed by handle, except the per-thread default stream, whose one handle names a
// different stream in each thread (so it is keyed per thread), and the legacy stream's two
// handles (0 and CU_STREAM_LEGACY), which name one stream.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tidepool::intercept {

class CaptureState {
 public:
  // A capture is starting on `stream` (marked before the driver call, so that from then on
  // nothing of ours goes there); `id` is the driver's capture id (0 until known).
  void begin(uint64_t stream);
  void set_id(uint64_t stream, uint64_t id);
  // `stream` is in capture `id`: it joined one, or the driver said so.
  void join(uint64_t stream, uint64_t id);
  // The capture begun on `origin` is over (ended, failed to begin, or its stream destroyed): it
  // and every stream that joined it stop capturing. A stream that was no origin just leaves.
  void end(uint64_t origin);

  bool any() const { return count_.load(std::memory_order_acquire) != 0; }
  bool capturing(uint64_t stream) const { return any() && contains(key(stream)); }

 private:
  struct Entry {
    uint64_t key;
    uint64_t id;
    bool origin;
  };
  static uint64_t key(uint64_t stream);
  bool contains(uint64_t key) const;
  void publish() { count_.store(entries_.size(), std::memory_order_release); }

  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  std::atomic<size_t> count_{0};
};

inline CaptureState& capture_state() {
  static auto* const state = new CaptureState;  // never destroyed: hooks may run during exit
  return *state;
}

// Asks the driver whether `stream` captures (and in which capture) and brings the state in line
// with its answer. Never asks about the legacy stream (a question that is itself an implicit
// synchronization while a blocking stream captures).
void learn_capture_of(uint64_t stream);

}  // namespace tidepool::intercept
