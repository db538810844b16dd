// The rules every swap obeys (checked) and the clean-copy rule: a buffer only read by copies
// since it came back is not copied out again; one touched by a kernel is copied out every time.
#include <gtest/gtest.h>

#include <string>

#include "analyzer/swap/swap_op.h"

namespace tidepool::swap {
namespace {

constexpr Bytes kMiB = Bytes{1} << 20;

Model model_with(Buffer b, std::size_t ops = 8) {
  Model m;
  for (std::size_t i = 0; i < ops; ++i) m.ops.push_back({OpKind::kernel, 0, 1e-3, {}, "k"});
  m.buffers.push_back(std::move(b));
  return m;
}

Buffer used_at(std::vector<Access> accesses, bool persistent = false) {
  return Buffer{4 * kMiB, 0, 8, persistent, false, std::move(accesses), 0};
}

std::string rejection(const Model& m, SwapOp op) {
  try {
    check_swap_ops(m, std::vector<SwapOp>{op});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(SwapOps, AValidSwapPasses) {
  const Model m = model_with(used_at({{1, true, true}, {5, true, true}}));
  EXPECT_EQ(rejection(m, {0, 1, 3, 5, true, std::nullopt}), "");
}

TEST(SwapOps, BrokenRulesAreRejectedWithAClearMessage) {
  const Model m = model_with(used_at({{1, true, true}, {5, true, true}, {6, true, true}}));
  EXPECT_NE(rejection(m, {1, 1, 3, 5, true, std::nullopt}).find("unknown buffer"), std::string::npos);
  EXPECT_NE(rejection(m, {0, 2, 3, 5, true, std::nullopt}).find("no access"), std::string::npos);
  // The swap-in serves op 5, so it may not be issued after it.
  EXPECT_NE(rejection(m, {0, 1, 6, 5, true, std::nullopt}).find("after the access it serves"), std::string::npos);
  // Across an access: out after op 1 but "needed by" op 6 skips the access at op 5.
  EXPECT_NE(rejection(m, {0, 1, 3, 6, true, std::nullopt}).find("not the next access"), std::string::npos);
  EXPECT_NE(rejection(m, {0, 6, 7, 1, true, std::nullopt}).find("last access"), std::string::npos);
  EXPECT_NE(rejection(m, {0, 1, 3, 5, true, 4u}).find("release point"), std::string::npos);
  const std::vector<SwapOp> twice = {{0, 1, 3, 5, true, std::nullopt}, {0, 1, 4, 5, true, std::nullopt}};
  EXPECT_THROW(check_swap_ops(m, twice), std::invalid_argument);
}

TEST(SwapOps, IndirectlyReferencedBuffersAreNeverSwapped) {
  Buffer b = used_at({{1, true, true}, {5, true, true}});
  b.never_swapped = true;
  const Model m = model_with(b);
  EXPECT_NE(rejection(m, {0, 1, 3, 5, true, std::nullopt}).find("never be swapped"), std::string::npos);
  EXPECT_TRUE(swappable_gaps(m, 0).empty());
}

TEST(SwapOps, OnlyPersistentBuffersWrapAroundTheIteration) {
  const Model transient = model_with(used_at({{1, true, true}, {5, true, true}}));
  EXPECT_EQ(swappable_gaps(transient, 0).size(), 1u);
  const Model persistent = model_with(used_at({{1, true, true}, {5, true, true}}, true));
  ASSERT_EQ(swappable_gaps(persistent, 0).size(), 2u);
  EXPECT_EQ(rejection(persistent, {0, 5, 7, 1, true, std::nullopt}), "");
  EXPECT_EQ(rejection(persistent, {0, 5, 0, 1, true, std::nullopt}), "");
  EXPECT_NE(rejection(persistent, {0, 5, 2, 1, true, std::nullopt}), "");
  EXPECT_TRUE(swappable_gaps(persistent, 8 * kMiB).empty());  // below the size threshold
}

TEST(SwapOps, ABufferReadOnlyByCopiesIsCopiedOutOnce) {
  // Written by a kernel at op 0, then only read by copies at ops 2, 4 and 6.
  const Model m = model_with(used_at({{0, true, true}, {2, false, false}, {4, false, false}, {6, false, false}}));
  std::vector<SwapOp> ops = {{0, 0, 1, 2, true, std::nullopt}, {0, 2, 3, 4, true, std::nullopt},
                             {0, 4, 5, 6, true, std::nullopt}};
  mark_clean_swap_outs(m, ops);
  EXPECT_TRUE(ops[0].copy_out);   // its data was made this iteration
  EXPECT_FALSE(ops[1].copy_out);  // only a copy read it since it came back
  EXPECT_FALSE(ops[2].copy_out);
}

TEST(SwapOps, ABufferTouchedByAKernelIsCopiedOutEveryTime) {
  const Model m = model_with(used_at({{0, true, true}, {2, true, true}, {4, true, true}, {6, false, false}}));
  std::vector<SwapOp> ops = {{0, 0, 1, 2, true, std::nullopt}, {0, 2, 3, 4, true, std::nullopt},
                             {0, 4, 5, 6, true, std::nullopt}};
  for (SwapOp& op : ops) op.copy_out = false;
  mark_clean_swap_outs(m, ops);
  for (const SwapOp& op : ops) EXPECT_TRUE(op.copy_out);
}

TEST(SwapOps, APersistentBufferReadOnlyByCopiesNeedsNoCopyOut) {
  const Model m = model_with(used_at({{1, false, false}, {5, false, false}}, true));
  std::vector<SwapOp> ops = {{0, 5, 7, 1, true, std::nullopt}};
  mark_clean_swap_outs(m, ops);
  EXPECT_FALSE(ops[0].copy_out);
}

TEST(Model, MalformedModelsAreRejected) {
  Model m = model_with(used_at({{1, true, true}, {5, true, true}}));
  EXPECT_NO_THROW(validate(m));
  Model bad = m;
  bad.buffers[0].accesses = {{5, true, true}, {1, true, true}};
  EXPECT_THROW(validate(bad), std::invalid_argument);
  bad = m;
  bad.buffers[0].end = 9;
  EXPECT_THROW(validate(bad), std::invalid_argument);
  bad = m;
  bad.ops[2].seconds = -1;
  EXPECT_THROW(validate(bad), std::invalid_argument);
  bad = m;
  bad.ops[2].after = {3};
  EXPECT_THROW(validate(bad), std::invalid_argument);
  bad = m;
  bad.buffers[0].size = 0;
  EXPECT_THROW(validate(bad), std::invalid_argument);
  EXPECT_THROW(validate(Model{}), std::invalid_argument);
}

}  // namespace
}  // namespace tidepool::swap
