// The recorder: hooks hand it trace events from any thread; each thread encodes into a buffer of
// its own, and a background thread moves those buffers into the trace file at least every 200 ms,
// so that a SIGKILLed program loses well under a second of events.
//
// One recorder per process, started at the first event (so that processes which never touch the
// driver leave no trace). A child forked after it started records nothing (CUDA cannot be used
// across fork); a child forked before starts its own trace.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string_view>

#include "analyzer/trace/format.h"

namespace tidepool::runtime {

class Recorder {
 public:
  // The process's recorder, started on first use; nullptr when not recording (disabled, the trace
  // could not be created, a forked child of a recording parent, or already stopped).
  // driver_version is asked only when the recorder starts.
  static Recorder* get(int (*driver_version)() = nullptr);

  // Ids unique in this trace (allocation ids are not dense: blocks may be left partly unused).
  uint64_t next_alloc_id() { return next_alloc_id_.fetch_add(1, std::memory_order_relaxed); }
  // The first of `count` consecutive allocation ids, all the caller's.
  uint64_t reserve_alloc_ids(uint64_t count) { return next_alloc_id_.fetch_add(count, std::memory_order_relaxed); }
  uint64_t next_op_id() { return next_op_id_.fetch_add(1, std::memory_order_relaxed); }

  // Records one event (sequence number, time and thread filled in here). `event.record` is left
  // as it was, so that callers can reuse an Event (and its vectors) from call to call.
  void record(trace::Event& event);
  template <class R>
  void record(R record) {
    trace::Event event{0, 0, 0, std::move(record)};
    this->record(event);
  }

  // Records two events that happen together (an allocation and the runtime's decision about it)
  // with one time and one write: consecutive sequence numbers, `first` before `second`.
  void record(trace::Event& first, trace::Event& second);

  // A sequence number taken now for an event written later (record_at): readers order events by
  // it, so the event lands where it happened (0 when not recording).
  uint64_t reserve_sequence();
  // Records an event under a sequence number from reserve_sequence (a new one when 0).
  void record_at(uint64_t sequence, trace::Event& event);

  // The id of a string (interned once per trace; the String record is written the first time).
  uint32_t intern(std::string_view text);
  // The id of a call stack (frames innermost first), deduplicated; 0 for an empty stack.
  uint32_t stack_id(std::span<const uint64_t> frames);

  // Writes everything buffered so far and stops (at exit). Later events are dropped.
  static void stop();

  // Writes everything buffered so far now (tests, and before exec).
  static void flush();

 private:
  Recorder() = default;
  friend class RecorderImpl;
  std::atomic<uint64_t> next_alloc_id_{1};
  std::atomic<uint64_t> next_op_id_{1};
};

}  // namespace tidepool::runtime
