// One pass over a trace for the swap model (see trace_facts.h).
#include "analyzer/swap/trace_facts.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

namespace tidepool::swap {
namespace {

constexpr std::uint32_t kNoOp = std::numeric_limits<std::uint32_t>::max();

// Frees a container's memory (`container = {}` only clears it: it assigns an empty initializer list).
template <class Container>
void release(Container& container) {
  Container().swap(container);
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

// 0 means no kind (a graph launch, or no operation), so a hash that comes out 0 is moved to 1: a
// 0-byte device-to-device copy hashed to 0 and went uncounted as an operation (session 49).
std::uint64_t kind_of_hash(std::uint64_t h) {
  return h != 0 ? h : 1;
}

// Operations expected to take the same time: a kernel with its grid, block and shared memory, a
// copy of one kind and size, a set of one size (the recorder samples by the same kinds); 0: none.
std::uint64_t op_kind(const trace::Record& record) {
  if (const auto* l = std::get_if<trace::Launch>(&record)) {
    std::uint64_t h = mix(1, l->function);
    for (std::uint32_t v : l->grid) h = mix(h, v);
    for (std::uint32_t v : l->block) h = mix(h, v);
    return kind_of_hash(mix(h, l->shared_bytes));
  }
  if (const auto* c = std::get_if<trace::Copy>(&record))
    return kind_of_hash(mix(mix(2, static_cast<std::uint64_t>(c->kind)), c->bytes));
  if (const auto* x = std::get_if<trace::Set>(&record))
    return kind_of_hash(mix(mix(3, x->element_bytes), x->bytes));
  return 0;
}

std::uint64_t op_id_of(const trace::Record& record) {
  if (const auto* l = std::get_if<trace::Launch>(&record)) return l->op_id;
  if (const auto* c = std::get_if<trace::Copy>(&record)) return c->op_id;
  if (const auto* x = std::get_if<trace::Set>(&record)) return x->op_id;
  if (const auto* g = std::get_if<trace::GraphLaunch>(&record)) return g->op_id;
  return 0;
}

// Durations when the trace has no device timing: a fixed launch cost, copies over PCIe.
double estimated_seconds(const trace::Record& record) {
  if (const auto* c = std::get_if<trace::Copy>(&record)) return 5e-6 + static_cast<double>(c->bytes) / 25e9;
  if (const auto* s = std::get_if<trace::Set>(&record)) return 2e-6 + static_cast<double>(s->bytes) / 1e12;
  return 10e-6;
}

}  // namespace

bool is_model_op(const trace::Record& record) {
  if (const auto* l = std::get_if<trace::Launch>(&record)) return !l->captured;
  if (const auto* c = std::get_if<trace::Copy>(&record)) return !c->captured;
  if (const auto* s = std::get_if<trace::Set>(&record)) return !s->captured;
  return std::holds_alternative<trace::GraphLaunch>(record);
}

// What the pass collects before it is indexed.
struct TraceFacts::Scan {
  struct OpRecord {  // a launch, copy, set or graph launch
    std::uint64_t op_id;
    std::uint64_t kind;  // op_kind()
    std::uint32_t op;    // its number, or kNoOp when captured
    double estimate;     // the cost model's duration
  };
  std::vector<OpRecord> records;                          // in trace order
  std::vector<std::pair<std::uint64_t, double>> timings;  // (op id, seconds), in trace order
  std::vector<std::pair<std::uint32_t, Access>> accesses; // (allocation index, access), in op order
  std::vector<std::size_t> undecoded;                     // launches whose accesses we cannot see
  std::uint32_t ops = 0;                                  // numbered so far
};

namespace {

// The records the facts come from.
bool facts_need(trace::RecordTag tag) {
  using T = trace::RecordTag;
  return tag == T::alloc || tag == T::free || tag == T::indirect_ref || tag == T::address_query ||
         tag == T::launch || tag == T::graph_launch || tag == T::copy || tag == T::set ||
         tag == T::device_timing;
}

}  // namespace

TraceFacts::TraceFacts(const trace::EventSource& source, const trace::InOrderReader::Wanted& also,
                       const trace::EventSource::Visit& also_visit) {
  const trace::WantedTags facts_wants(facts_need);
  const trace::WantedTags also_wants(also ? also : [](trace::RecordTag) { return false; });
  Scan scan;
  ops_before_.reserve(source.events() + 1);
  source.read([&](trace::RecordTag tag) { return facts_wants(tag) || also_wants(tag); },
              [&](const trace::Event& event, std::uint64_t index) {
                const trace::RecordTag tag = trace::tag_of(event.record);
                if (facts_wants(tag)) add(event.record, index, scan);
                if (also_wants(tag)) also_visit(event, index);
              });
  finish(source.events(), scan);
}

void TraceFacts::add(const trace::Record& record, std::size_t i, Scan& scan) {
  while (ops_before_.size() <= i) ops_before_.push_back(scan.ops);  // the events between: no ops
  std::uint32_t& ops = scan.ops;
  auto access = [&](std::uint64_t alloc_id, bool write, bool by_kernel) {
    if (const auto it = live_index_.find(alloc_id); it != live_index_.end())
      scan.accesses.push_back({it->second, Access{ops - 1, write, by_kernel}});
  };
  if (const std::uint64_t kind = op_kind(record);
      kind != 0 || std::holds_alternative<trace::GraphLaunch>(record)) {
    const bool op = is_model_op(record);
    scan.records.push_back({op_id_of(record), kind, op ? ops : kNoOp, estimated_seconds(record)});
    if (op) {
      if (ops == kNoOp - 1) throw std::invalid_argument("the trace holds too many operations");
      ++ops;
    }
  }
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        auto pin = [&](std::uint64_t id) {
          if (auto it = live_index_.find(id); it != live_index_.end())
            allocations_[it->second].never_swapped = true;
        };
        if constexpr (std::is_same_v<T, trace::Alloc>) {
          // A captured allocation or free is a node of a graph, not memory obtained or released
          // now.
          if (trace::is_device_memory(r.kind) && !r.captured) {
            live_index_[r.alloc_id] = static_cast<std::uint32_t>(allocations_.size());
            allocations_.push_back({r.alloc_id, r.size, i});
          }
        } else if constexpr (std::is_same_v<T, trace::Free>) {
          if (r.captured) return;
          if (auto it = live_index_.find(r.alloc_id); it != live_index_.end()) {
            allocations_[it->second].free_event = i;
            live_index_.erase(it);  // a freed allocation is referenced no more
          }
        } else if constexpr (std::is_same_v<T, trace::IndirectRef> ||
                             std::is_same_v<T, trace::AddressQuery>) {
          pin(r.alloc_id);
        } else if constexpr (std::is_same_v<T, trace::Launch>) {
          if (!r.params_decoded) scan.undecoded.push_back(i);
          if (r.captured) return;
          for (const trace::Access& a : r.accesses) access(a.alloc_id, true, true);
        } else if constexpr (std::is_same_v<T, trace::GraphLaunch>) {
          scan.undecoded.push_back(i);
        } else if constexpr (std::is_same_v<T, trace::Copy>) {
          if (r.captured) return;
          access(r.src.alloc_id, false, false);
          access(r.dst.alloc_id, true, false);
        } else if constexpr (std::is_same_v<T, trace::Set>) {
          if (r.captured) return;
          access(r.dst.alloc_id, true, false);
        } else if constexpr (std::is_same_v<T, trace::DeviceTiming>) {
          scan.timings.push_back({r.op_id, static_cast<double>(r.end_ns - r.start_ns) * 1e-9});
        }
      },
      record);
}

void TraceFacts::finish(std::size_t events, Scan& scan) {
  while (ops_before_.size() <= events) ops_before_.push_back(scan.ops);
  for (AllocationFacts& a : allocations_) {
    const auto next = std::upper_bound(scan.undecoded.begin(), scan.undecoded.end(), a.alloc_event);
    if (next != scan.undecoded.end() && *next < a.free_event) a.never_swapped = true;
  }
  find_durations(scan);
  // Done with: freed before the accesses are grouped, where the pass holds the most.
  release(scan.records);
  release(scan.timings);
  index_accesses(scan);
  release(live_index_);
  by_id_.resize(allocations_.size());
  std::iota(by_id_.begin(), by_id_.end(), 0u);
  std::sort(by_id_.begin(), by_id_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::pair(allocations_[a].alloc_id, a) < std::pair(allocations_[b].alloc_id, b);
  });
}

// Each op's timing (the last one recorded for its id), else the mean timed duration of its kind
// (the recorder samples device timing), else the cost model.
void TraceFacts::find_durations(Scan& scan) {
  auto by_id = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(scan.timings.begin(), scan.timings.end(), by_id))
    std::stable_sort(scan.timings.begin(), scan.timings.end(), by_id);
  std::vector<std::uint32_t> order(scan.records.size());  // records by op id
  std::iota(order.begin(), order.end(), 0);
  auto record_by_id = [&](std::uint32_t a, std::uint32_t b) { return scan.records[a].op_id < scan.records[b].op_id; };
  if (!std::is_sorted(order.begin(), order.end(), record_by_id)) std::stable_sort(order.begin(), order.end(), record_by_id);
  std::vector<std::optional<double>> timed(scan.records.size());
  auto t = scan.timings.begin();
  for (std::uint32_t r : order) {
    const std::uint64_t id = scan.records[r].op_id;
    while (t != scan.timings.end() && t->first < id) ++t;
    for (auto u = t; u != scan.timings.end() && u->first == id; ++u) timed[r] = u->second;
  }
  std::unordered_map<std::uint64_t, std::pair<double, std::uint64_t>> sum;  // kind -> (seconds, count)
  for (std::size_t r = 0; r < scan.records.size(); ++r)
    if (scan.records[r].kind != 0 && timed[r]) {
      auto& [seconds, count] = sum[scan.records[r].kind];
      seconds += *timed[r], ++count;
    }
  op_seconds_.resize(ops_before_.back());
  op_estimated_.resize(ops_before_.back());
  for (std::size_t r = 0; r < scan.records.size(); ++r) {
    const Scan::OpRecord& record = scan.records[r];
    if (record.op == kNoOp) continue;
    if (timed[r]) {
      op_seconds_[record.op] = *timed[r];
    } else if (auto k = sum.find(record.kind); record.kind != 0 && k != sum.end()) {
      op_seconds_[record.op] = k->second.first / static_cast<double>(k->second.second);
    } else {
      op_seconds_[record.op] = record.estimate;
      op_estimated_[record.op] = true;
    }
  }
}

// Groups the accesses by allocation (a counting sort keeps each one's op order) and merges the
// accesses of one allocation by one op (a launch may pass a buffer twice).
void TraceFacts::index_accesses(Scan& scan) {
  std::vector<std::uint32_t> first(allocations_.size() + 1, 0);
  for (const auto& [index, a] : scan.accesses) ++first[index + 1];
  for (std::size_t i = 0; i < allocations_.size(); ++i) first[i + 1] += first[i];
  std::vector<Access> grouped(scan.accesses.size());
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (const auto& [index, a] : scan.accesses) grouped[fill[index]++] = a;
  release(scan.accesses);
  access_first_.assign(allocations_.size() + 1, 0);
  accesses_.reserve(grouped.size());
  for (std::size_t i = 0; i < allocations_.size(); ++i) {
    access_first_[i] = static_cast<std::uint32_t>(accesses_.size());
    for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) {
      const Access& a = grouped[k];
      if (accesses_.size() > access_first_[i] && accesses_.back().op == a.op) {
        accesses_.back().write |= a.write;
        accesses_.back().by_kernel |= a.by_kernel;
      } else {
        accesses_.push_back(a);
      }
    }
  }
  access_first_[allocations_.size()] = static_cast<std::uint32_t>(accesses_.size());
}

std::optional<std::uint32_t> TraceFacts::allocation_index(std::uint64_t alloc_id) const {
  // The last allocation with that id, should the recorder have given one twice.
  const auto after = std::upper_bound(
      by_id_.begin(), by_id_.end(), alloc_id,
      [&](std::uint64_t id, std::uint32_t a) { return id < allocations_[a].alloc_id; });
  if (after == by_id_.begin() || allocations_[*(after - 1)].alloc_id != alloc_id)
    return std::nullopt;
  return *(after - 1);
}

std::uint32_t TraceFacts::first_allocation_at_or_after(std::size_t event) const {
  const auto it = std::lower_bound(allocations_.begin(), allocations_.end(), event,
                                   [](const AllocationFacts& a, std::size_t e) { return a.alloc_event < e; });
  return static_cast<std::uint32_t>(it - allocations_.begin());
}

}  // namespace tidepool::swap
