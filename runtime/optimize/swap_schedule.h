// A plan's swaps indexed by the operation they happen at: the swap-ins issued when an operation
// is issued, the swap-outs that must have completed before one is issued (release_before_op),
// and the swap-outs that follow one; and the swaps that wrap around the iteration's
// end (their buffer is out when an iteration starts).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analyzer/plan/plan.h"

namespace tidepool::runtime::optimize {

class SwapSchedule {
 public:
  SwapSchedule(const plan::SwapSection& swaps, uint64_t operations_per_iteration);

  std::span<const plan::SwapOperation* const> ins_at(uint64_t op) const { return at(ins_, op); }
  std::span<const plan::SwapOperation* const> releases_before(uint64_t op) const {
    return at(releases_, op);
  }
  std::span<const plan::SwapOperation* const> outs_after(uint64_t op) const {
    return at(outs_, op);
  }
  std::span<const plan::SwapOperation* const> out_at_start() const { return out_at_start_; }
  size_t size() const { return operations_.size(); }

 private:
  using PerOp = std::vector<std::vector<const plan::SwapOperation*>>;
  static std::span<const plan::SwapOperation* const> at(const PerOp& table, uint64_t op) {
    if (op >= table.size()) return {};
    return table[op];
  }

  std::vector<plan::SwapOperation> operations_;
  PerOp ins_;
  PerOp releases_;
  PerOp outs_;
  std::vector<const plan::SwapOperation*> out_at_start_;
};

}  // namespace tidepool::runtime::optimize
