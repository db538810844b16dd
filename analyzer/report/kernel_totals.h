// Per kernel (by name): launches and the memory their parameters point into, counted event by
// event as a trace is read.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/report/report.h"
#include "analyzer/trace/trace.h"

namespace tidepool::report {

class KernelCounter {
 public:
  // `tables` names the kernels (its string table); it must outlive the counter.
  explicit KernelCounter(const trace::Trace& tables) : tables_(tables) {}

  // Events in sequence order; only allocations and launches count.
  void add(const trace::Event& event);

  // Kernels by bytes touched, most first (ties by name). Captured launches (recorded into a graph,
  // not run) are left out.
  std::vector<KernelTotals> totals() const;

 private:
  const trace::Trace& tables_;
  std::unordered_map<uint64_t, uint64_t> sizes_;  // every allocation ever made, by id
  std::unordered_map<std::string, KernelTotals> kernels_;
  std::unordered_set<uint64_t> seen_;  // the launch's allocations counted so far
};

}  // namespace tidepool::report
