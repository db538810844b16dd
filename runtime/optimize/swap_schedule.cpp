// Indexing a plan's swaps by operation.
#include "runtime/optimize/swap_schedule.h"

namespace tidepool::runtime::optimize {

SwapSchedule::SwapSchedule(const plan::SwapSection& swaps, uint64_t operations_per_iteration)
    : operations_(swaps.operations),
      ins_(operations_per_iteration),
      outs_(operations_per_iteration) {
  for (const plan::SwapOperation& op : operations_) {
    if (op.in_at_op < ins_.size()) ins_[op.in_at_op].push_back(&op);
    if (op.out_after_op < outs_.size()) outs_[op.out_after_op].push_back(&op);
    if (op.needed_by_op <= op.out_after_op) out_at_start_.push_back(&op);
    if (op.buffer.scope == plan::BufferRef::Scope::iteration) moved_iteration_allocations_.insert(op.buffer.ordinal);
  }
}

}  // namespace tidepool::runtime::optimize
