// The peak of a plan with both a pool and swaps: the pool's arena is static, so a swapped buffer's
// resident time adds to the arena's whole height, not to what its slots hold at that moment.
#include <gtest/gtest.h>

#include "analyzer/plan/swap_plan.h"
#include "analyzer/swap/simulator.h"

namespace tidepool::plan {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

swap::Buffer buffer(std::uint64_t size, std::uint32_t begin, std::uint32_t end, std::vector<std::uint32_t> ops,
                    std::uint64_t alloc_id, bool persistent = false) {
  swap::Buffer b{size, begin, end, persistent, false, {}, alloc_id};
  for (std::uint32_t op : ops) b.accesses.push_back({op, true, true});
  return b;
}

// Weights W (2 MiB, persistent); A (6 MiB) used by op 0; S (4 MiB) used by ops 1 and 3, away
// between them; B (2 MiB) used by op 2 and 3. A and B share the arena (6 MiB, disjoint lives).
SwapPlan weights_a_s_b() {
  SwapPlan p;
  for (int i = 0; i < 4; ++i) p.model.ops.push_back({swap::OpKind::kernel, 0, 1e-3, {}, "k"});
  p.model.buffers = {buffer(2 * kMiB, 0, 4, {0}, 1, true), buffer(6 * kMiB, 0, 1, {0}, 2),
                     buffer(4 * kMiB, 1, 4, {1, 3}, 3), buffer(2 * kMiB, 2, 4, {2, 3}, 4)};
  p.ops = {{2, 1, 3, 3, true, std::nullopt}};  // S out after op 1, back when op 3 is issued
  p.link = swap::Link{"instant", 1e18, 0, 0, 0};
  p.alloc_of_ordinal = {{0, 2}, {1, 3}, {2, 4}};
  return p;
}

TEST(PeakWithPool, TheArenaIsChargedWholeWhileSwappedBuffersAreResident) {
  const SwapPlan p = weights_a_s_b();
  // Alone, the swaps' peak is op 0 (W + A) or op 3 (W + B + S): 8 MiB.
  EXPECT_EQ(swap::simulate(p.model, p.ops, p.link).peak_bytes, 8 * kMiB);
  PoolSection pool;
  pool.arena_bytes = 6 * kMiB;
  pool.slots = {{0, 6 * kMiB, 0, 0, 1}, {2, 2 * kMiB, 0, 3, 6}};
  // Beside the static arena: W + arena + S while S is resident (ops 1 and 3).
  EXPECT_EQ(peak_with_pool(p, pool), 12 * kMiB);
}

TEST(PeakWithPool, ASwappedBufferInThePoolIsABug) {
  const SwapPlan p = weights_a_s_b();
  PoolSection pool;
  pool.arena_bytes = 4 * kMiB;
  pool.slots = {{1, 4 * kMiB, 0, 1, 5}};  // S
  EXPECT_THROW(peak_with_pool(p, pool), std::logic_error);
}

}  // namespace
}  // namespace tidepool::plan
