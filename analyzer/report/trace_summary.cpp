// Two passes over a trace file (see trace_summary.h): the first counts launches and marks the
// sequence numbers of the memory events; the second decodes only those and replays them in
// sequence order, holding back only the ones that arrive before an earlier one.
#include "analyzer/report/trace_summary.h"

#include <bit>
#include <queue>
#include <variant>
#include <vector>

#include "analyzer/report/memory_replay.h"
#include "analyzer/trace/reader.h"

namespace tidepool::report {
namespace {

// A set of sequence numbers, a bit each, walked upwards.
class SequenceSet {
 public:
  void insert(uint64_t seq) {
    const uint64_t word = seq / 64;
    if (word >= words_.size()) words_.resize(word + 1, 0);
    words_[word] |= uint64_t{1} << (seq % 64);
  }
  // The least member above `seq`, or UINT64_MAX when there is none.
  uint64_t next_after(uint64_t seq) const {
    if (seq == UINT64_MAX) return UINT64_MAX;
    uint64_t from = seq + 1;
    for (uint64_t word = from / 64; word < words_.size(); ++word) {
      const uint64_t bits = words_[word] & (~uint64_t{0} << (from % 64));
      if (bits != 0) return word * 64 + static_cast<uint64_t>(std::countr_zero(bits));
      from = (word + 1) * 64;
    }
    return UINT64_MAX;
  }

 private:
  std::vector<uint64_t> words_;
};

// Applies memory events in sequence order as they arrive in file order: an event waits until
// every memory event before it (those the first pass saw) has been applied.
class InOrderReplay {
 public:
  explicit InOrderReplay(const SequenceSet& expected) : expected_(expected), next_(expected.next_after(0)) {}

  void add(trace::Event&& event) {
    waiting_.push(std::move(event));
    while (!waiting_.empty() && waiting_.top().seq <= next_) apply_first();
  }

  // Applies what still waits (events the first pass did not see, if the file grew in between) and
  // returns the replay.
  const MemoryReplay& finish() {
    while (!waiting_.empty()) apply_first();
    return replay_;
  }

 private:
  struct LaterFirst {
    bool operator()(const trace::Event& a, const trace::Event& b) const { return a.seq > b.seq; }
  };

  void apply_first() {
    const uint64_t seq = waiting_.top().seq;
    replay_.apply(waiting_.top());
    waiting_.pop();
    if (seq == next_) next_ = expected_.next_after(next_);
  }

  const SequenceSet& expected_;
  uint64_t next_;
  std::priority_queue<trace::Event, std::vector<trace::Event>, LaterFirst> waiting_;
  MemoryReplay replay_;
};

}  // namespace

TraceSummary summarize_trace(const std::filesystem::path& path) {
  TraceSummary summary;
  SequenceSet memory_events;
  const trace::Trace trace = trace::read_trace(path, [&](trace::Event& e) {
    if (MemoryReplay::applies_to(trace::tag_of(e.record))) {
      memory_events.insert(e.seq);
    } else if (const auto* launch = std::get_if<trace::Launch>(&e.record); launch != nullptr && !launch->captured) {
      ++summary.kernel_launches;
    }
    return false;
  });
  summary.pid = trace.header.pid;
  summary.rank = trace.header.rank;
  summary.truncated = trace.truncated;

  InOrderReplay replay(memory_events);
  trace::read_trace(
      path,
      [&](trace::Event& e) {
        replay.add(std::move(e));
        return false;
      },
      [](trace::RecordTag tag, uint64_t) { return !MemoryReplay::applies_to(tag); });
  const MemoryReplay& memory = replay.finish();
  summary.peak_requested_bytes = memory.peak_device_bytes();
  summary.allocations = memory.allocations();
  summary.frees = memory.frees();
  for (const AllocationInfo& a : memory.live_device_allocations()) summary.leaked_bytes += a.size;
  return summary;
}

}  // namespace tidepool::report
