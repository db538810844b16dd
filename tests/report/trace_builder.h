// Test helper: builds in-memory traces event by event, numbering sequence, time, allocation ids
// and op ids the way the interceptor does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/trace/trace.h"

namespace tidepool::report::testing {

class TraceBuilder {
 public:
  explicit TraceBuilder(uint32_t pid = 100, int32_t rank = -1);

  // Adds an event at time now() (which then advances by 1 us); returns the event's seq.
  uint64_t add(trace::Record record);
  // A new allocation of the given kind; returns its id.
  uint64_t alloc(trace::AllocKind kind, uint64_t size, uint64_t context = 1, uint32_t stack_id = 0,
                 uint64_t stream = 0);
  void free(uint64_t alloc_id, trace::AllocKind kind = trace::AllocKind::device);
  // A launch of kernel `name` touching the given allocations at offset 0.
  void launch(const std::string& name, const std::vector<uint64_t>& alloc_ids);
  uint32_t string(const std::string& text);

  trace::Trace& trace() { return trace_; }

 private:
  trace::Trace trace_;
  uint64_t next_alloc_ = 1;
  uint64_t next_op_ = 1;
  uint64_t now_ns_ = 1000;
  uint64_t next_address_ = 0x7f0000000000;
};

}  // namespace tidepool::report::testing
