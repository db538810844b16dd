// Follows the program's event stream against a plan's iteration, counting events exactly as
// docs/plan-format.md does (allocations an arena could serve, their frees, launches, copies and
// sets; captured work is never fed in): where each iteration starts (the plan's boundary), the
// ordinal of each allocation and operation inside it, and whether each finished iteration matched
// the plan (fingerprint, event count, anchor).
//
// Iterations start at each push of the plan's NVTX range, at each launch of its kernel, or, for a
// `period` boundary, every `events` events once the cursor is in step. It gets in step either at a
// known position (online planning knows where the next iteration starts) or by recognising the
// plan's anchor: an iteration entered that way is trusted (its ordinals are used) only once the
// whole anchor has matched. Every event is fed before the program's call is made.
//
// The first iteration that matches is checked by its fingerprint; its allocation sizes and kernel
// names are kept, and every later iteration is compared with them event by event (exact, cheaper
// than hashing each size and name again, and a difference is seen where it happens: from there on
// the iteration's ordinals are no longer trusted).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/plan/fingerprint.h"
#include "analyzer/plan/plan.h"

namespace tidepool::runtime::optimize {

class IterationCursor {
 public:
  // `lead_events`: events of an iteration before its first allocation or launch (for a `period`
  // boundary found by its anchor; 0 when unknown).
  IterationCursor(plan::IterationDescription iteration, uint64_t fingerprint, uint64_t lead_events);

  // The next iteration starts after `events` more events (0: with the next one).
  void start_after(uint64_t events);
  // The next iteration starts `events` later than start_after said, if it has not started yet.
  void delay_start(uint64_t events);

  struct Step {
    bool trusted = false;          // inside an iteration whose ordinals can be used
    uint64_t ordinal = 0;          // the allocation's or operation's ordinal in it (when trusted)
    bool started = false;          // this event is the first of an iteration
    std::optional<bool> finished;  // an iteration ended at or just before this event: matched?
  };
  Step on_alloc(uint64_t bytes);
  Step on_free();
  Step on_launch(std::string_view kernel);
  Step on_transfer();
  // Not an event: an NVTX range push (starts an iteration for an `nvtx_range` boundary). Its Step
  // may report a finished iteration; `started` then applies to the next event.
  Step on_range_push(std::string_view name);

 private:
  enum class Mode { outside, waiting, inside };
  enum class Kind { alloc, free, launch, transfer };

  Step feed(Kind kind, uint64_t bytes, std::string_view kernel);
  void begin(bool trusted);
  bool check_anchor(Kind kind, uint64_t bytes, std::string_view kernel);
  bool matches_anchor_start(Kind kind, uint64_t bytes, std::string_view kernel) const;
  bool finish();  // ends the current iteration; true when it matched the plan
  void note(Kind kind, uint64_t bytes, std::string_view kernel);  // an allocation or a launch
  // Whether iterations are compared with matched_ (one has matched) rather than fingerprinted.
  bool comparing() const { return !matched_.events.empty(); }

  // An allocation (its size) or a launch (its kernel's name, in `names`) of an iteration.
  struct Noted {
    Kind kind;
    uint64_t bytes;
    uint32_t name_begin;
    uint32_t name_size;
  };
  struct NotedIteration {
    std::vector<Noted> events;
    std::string names;
    void clear() {
      events.clear();
      names.clear();
    }
  };

  plan::IterationDescription plan_;
  uint64_t fingerprint_;
  uint64_t lead_events_;

  Mode mode_ = Mode::outside;
  uint64_t countdown_ = 0;   // waiting: events before the next iteration starts
  bool begin_next_ = false;  // the next event starts an iteration
  bool next_trusted_ = false;
  bool trusted_ = false;
  bool broken_ = false;  // something in this iteration differs from the plan
  uint64_t events_ = 0;  // events of the current iteration so far
  uint64_t allocations_ = 0;
  uint64_t operations_ = 0;
  size_t anchor_next_ = 0;  // the anchor entry the next allocation or launch must match
  plan::Fingerprinter fingerprinter_;
  NotedIteration noting_;   // the iteration being fingerprinted, in case it matches
  NotedIteration matched_;  // the last fingerprinted iteration that matched (empty: none yet)
  size_t compared_ = 0;     // the current iteration's allocations and launches compared so far
};

}  // namespace tidepool::runtime::optimize
