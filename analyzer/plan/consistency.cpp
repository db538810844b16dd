// Semantic checks of a plan; the slot overlap check is the packing checker's.
#include "analyzer/plan/consistency.h"

#include <algorithm>
#include <string>

#include "analyzer/packing/checker.h"
#include "analyzer/plan/plan_io.h"

namespace tidepool::plan {
namespace {

class Checker {
 public:
  explicit Checker(std::string_view origin) : origin_(origin) {}

  void require(bool ok, const std::string& field, const std::string& what) const {
    if (!ok) throw PlanError(std::string(origin_) + ": " + field + ": " + what);
  }

  void fingerprint(const std::string& text) const {
    const std::string prefix = "fnv1a64:";
    const bool ok = text.size() == prefix.size() + 16 && text.starts_with(prefix) &&
                    std::all_of(text.begin() + static_cast<std::ptrdiff_t>(prefix.size()), text.end(),
                                [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
    require(ok, "fingerprint", "expected \"fnv1a64:\" and 16 lowercase hex digits, got \"" + text + "\"");
  }

  void iteration(const IterationDescription& it) const {
    require(it.events >= it.allocations + it.operations, "iteration.events",
            "fewer than its allocations and operations together");
    require(it.regularity >= 0 && it.regularity <= 1, "iteration.regularity", "not between 0 and 1");
    require((it.boundary == BoundaryKind::period) == it.name.empty(), "iteration.name",
            it.name.empty() ? "an nvtx_range or kernel boundary needs a name" : "a period boundary has no name");
  }

  void pool(const PoolSection& pool, const IterationDescription& it) const {
    require(pool.alignment > 0 && (pool.alignment & (pool.alignment - 1)) == 0, "pool.alignment",
            "not a power of two");
    require(pool.lower_bound_bytes <= pool.arena_bytes, "pool.lower_bound_bytes", "above arena_bytes");
    packing::Problem problem;
    packing::Solution solution;
    for (std::size_t i = 0; i < pool.slots.size(); ++i) {
      const Slot& s = pool.slots[i];
      const std::string field = "pool.slots[" + std::to_string(i) + "]";
      require(s.ordinal < it.allocations, field + ".ordinal", "not below iteration.allocations");
      require(i == 0 || s.ordinal > pool.slots[i - 1].ordinal, field + ".ordinal", "not ascending");
      require(s.bytes > 0, field + ".bytes", "zero");
      require(s.offset % pool.alignment == 0, field + ".offset",
              "not a multiple of the alignment " + std::to_string(pool.alignment));
      require(s.offset + s.bytes <= pool.arena_bytes, field, "ends past arena_bytes");
      require(s.begin < s.end && s.end <= it.events, field + ".live", "not a non-empty range of the iteration's events");
      problem.items.push_back({std::to_string(s.ordinal), static_cast<packing::Bytes>(s.bytes),
                               static_cast<packing::Bytes>(pool.alignment),
                               {{static_cast<packing::Time>(s.begin), static_cast<packing::Time>(s.end)}}});
      solution.offsets.push_back(static_cast<packing::Bytes>(s.offset));
      solution.height = std::max(solution.height, static_cast<packing::Bytes>(s.offset + s.bytes));
    }
    const packing::Verdict verdict = packing::check(problem, solution);
    require(verdict.valid, "pool.slots", verdict.reason);
  }

  void swap(const SwapSection& swap, const IterationDescription& it) const {
    const std::uint64_t n = it.operations;
    for (std::size_t i = 0; i < swap.operations.size(); ++i) {
      const SwapOperation& op = swap.operations[i];
      const std::string field = "swap.operations[" + std::to_string(i) + "]";
      require(op.buffer.bytes > 0, field + ".buffer.bytes", "zero");
      require(op.buffer.scope == BufferRef::Scope::program || op.buffer.ordinal < it.allocations,
              field + ".buffer.ordinal", "not below iteration.allocations");
      require(op.out_after_op < n && op.in_at_op < n && op.needed_by_op < n &&
                  (!op.release_before_op || *op.release_before_op < n),
              field, "an operation index not below iteration.operations");
      // Steps forward on the iteration's cycle of operations; only a buffer that outlives the
      // iteration may wrap around its end.
      const auto steps = [n](std::uint64_t from, std::uint64_t to) { return to > from ? to - from : to + n - from; };
      const bool wraps = op.needed_by_op <= op.out_after_op;
      require(!wraps || op.buffer.scope == BufferRef::Scope::program, field,
              "an iteration's buffer cannot come back after the iteration ends");
      require(steps(op.out_after_op, op.in_at_op) <= steps(op.out_after_op, op.needed_by_op), field,
              "the swap-in is issued after the access it serves");
    }
  }

 private:
  std::string_view origin_;
};

}  // namespace

void check_consistency(const Plan& plan, std::string_view origin) {
  const Checker check(origin);
  check.fingerprint(plan.fingerprint);
  check.iteration(plan.iteration);
  if (plan.pool) check.pool(*plan.pool, plan.iteration);
  if (plan.swap) check.swap(*plan.swap, plan.iteration);
}

}  // namespace tidepool::plan
