// A plan's swaps indexed by the operation they happen at: the swap-ins issued when an operation
// is issued and the swap-outs that follow one; the swaps that wrap around the iteration's end
// (their buffer is out when an iteration starts); and the iteration's allocations they move. A
// plan's release points (release_before_op) are not waited at: the executor waits for released
// memory where it maps more (Controller::State::make_room).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_set>
#include <vector>

#include "analyzer/plan/plan.h"

namespace tidepool::runtime::optimize {

class SwapSchedule {
 public:
  SwapSchedule(const plan::SwapSection& swaps, uint64_t operations_per_iteration);

  std::span<const plan::SwapOperation* const> ins_at(uint64_t op) const { return at(ins_, op); }
  std::span<const plan::SwapOperation* const> outs_after(uint64_t op) const {
    return at(outs_, op);
  }
  std::span<const plan::SwapOperation* const> out_at_start() const { return out_at_start_; }
  // Whether a swap moves the iteration's allocation of this ordinal.
  bool moves_iteration_allocation(uint64_t ordinal) const {
    return moved_iteration_allocations_.contains(ordinal);
  }
  size_t size() const { return operations_.size(); }

 private:
  using PerOp = std::vector<std::vector<const plan::SwapOperation*>>;
  static std::span<const plan::SwapOperation* const> at(const PerOp& table, uint64_t op) {
    if (op >= table.size()) return {};
    return table[op];
  }

  std::vector<plan::SwapOperation> operations_;
  PerOp ins_;
  PerOp outs_;
  std::vector<const plan::SwapOperation*> out_at_start_;
  std::unordered_set<uint64_t> moved_iteration_allocations_;  // their ordinals
};

}  // namespace tidepool::runtime::optimize
