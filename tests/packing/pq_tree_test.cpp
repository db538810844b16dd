// The PQ-tree (pq_tree.h) against brute force: every order of the live leaves that the
// replacements so far allow, kept as a set; a replacement must succeed exactly when one of them
// has the replaced leaves consecutive, and the tree's frontier must always be one of them.
#include "analyzer/packing/pq_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <span>
#include <vector>

namespace tidepool::packing {
namespace {

using Leaf = PQTree::Leaf;
using Order = std::vector<Leaf>;

// Whether `leaves` stand next to each other in `order`, and where the run begins.
std::optional<std::size_t> run_of(const Order& order, std::span<const Leaf> leaves) {
  std::size_t first = order.size();
  std::size_t last = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (std::ranges::find(leaves, order[k]) != leaves.end()) {
      first = std::min(first, k);
      last = k;
    }
  }
  if (first == order.size() || last - first + 1 != leaves.size()) return std::nullopt;
  return first;
}

// The orders after a replacement: those with the run consecutive, the run swapped for every
// order of `replacement`.
std::set<Order> replaced(const std::set<Order>& orders, std::span<const Leaf> leaves,
                         std::span<const Leaf> replacement) {
  std::set<Order> out;
  Order added(replacement.begin(), replacement.end());
  std::ranges::sort(added);
  for (const Order& order : orders) {
    const std::optional<std::size_t> at = run_of(order, leaves);
    if (!at) continue;
    Order permutation = added;
    do {
      Order next(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(*at));
      next.insert(next.end(), permutation.begin(), permutation.end());
      next.insert(next.end(), order.begin() + static_cast<std::ptrdiff_t>(*at + leaves.size()),
                  order.end());
      out.insert(std::move(next));
    } while (std::ranges::next_permutation(permutation).found);
  }
  return out;
}

TEST(PackingPQTree, ReplacesConsecutiveLeavesAndKeepsTheRestFree) {
  const std::vector<Leaf> leaves = {0, 1, 2, 3};
  PQTree tree(8, leaves);
  const std::vector<Leaf> ending = {1, 2};
  const std::vector<Leaf> starting = {4, 5};
  const std::optional<PQTree::Run> run = tree.replace(ending, starting);
  ASSERT_TRUE(run.has_value());
  Order order = run->order;
  std::ranges::sort(order);
  EXPECT_EQ(order, (Order{1, 2}));
  // Nothing fixed the run's neighbours: it was a whole subtree of the root's P-node.
  EXPECT_TRUE(run->before.empty());
  EXPECT_TRUE(run->after.empty());
  Order frontier = tree.frontier();
  std::ranges::sort(frontier);
  EXPECT_EQ(frontier, (Order{0, 3, 4, 5}));
}

TEST(PackingPQTree, FailsWhenNoOrderHasTheLeavesConsecutive) {
  // 4, 5 and 6 refill 0's hole; 4 then ends beside 1 (7 takes both places), and 6 beside 2 (8):
  // 7 5 8 in that order, so 7 and 8 can never stand next to each other.
  const std::vector<Leaf> leaves = {0, 1, 2, 3};
  PQTree tree(16, leaves);
  ASSERT_TRUE(tree.replace(std::vector<Leaf>{0}, std::vector<Leaf>{4, 5, 6}).has_value());
  ASSERT_TRUE(tree.replace(std::vector<Leaf>{4, 1}, std::vector<Leaf>{7}).has_value());
  const std::optional<PQTree::Run> run =
      tree.replace(std::vector<Leaf>{6, 2}, std::vector<Leaf>{8});
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->order, (Order{6, 2}));
  EXPECT_EQ(run->before, (Order{5}));  // 5 lies between 4's place and 6
  EXPECT_TRUE(run->after.empty());     // 2 ends the chain
  EXPECT_FALSE(tree.replace(std::vector<Leaf>{7, 8}, std::vector<Leaf>{9}).has_value());
}

TEST(PackingPQTree, CompactedCopyAllowsTheSameOrders) {
  // As above: 7 5 8 in that order once 6 and 2 are replaced.
  const std::vector<Leaf> leaves = {0, 1, 2, 3};
  PQTree tree(16, leaves);
  ASSERT_TRUE(tree.replace(std::vector<Leaf>{0}, std::vector<Leaf>{4, 5, 6}).has_value());
  ASSERT_TRUE(tree.replace(std::vector<Leaf>{4, 1}, std::vector<Leaf>{7}).has_value());
  ASSERT_TRUE(tree.replace(std::vector<Leaf>{6, 2}, std::vector<Leaf>{8}).has_value());
  PQTree copy = tree.compacted();
  EXPECT_EQ(copy.frontier(), tree.frontier());
  PQTree other = copy.compacted();
  EXPECT_FALSE(copy.replace(std::vector<Leaf>{7, 8}, std::vector<Leaf>{9}).has_value());
  EXPECT_TRUE(other.replace(std::vector<Leaf>{7, 5}, std::vector<Leaf>{9}).has_value());
  // The original is untouched by either.
  EXPECT_TRUE(tree.replace(std::vector<Leaf>{5, 8}, std::vector<Leaf>{9}).has_value());
}

TEST(PackingPQTree, AgreesWithEveryOrderKeptByBruteForce) {
  std::mt19937_64 random(7);
  int successes = 0;
  int failures = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Leaf next_leaf = 0;
    Order live(2 + random() % 4);
    for (Leaf& leaf : live) leaf = next_leaf++;
    PQTree tree(64, live);
    std::set<Order> orders;
    Order order = live;
    do {
      orders.insert(order);
    } while (std::ranges::next_permutation(order).found);
    for (int step = 0; step < 12 && next_leaf + 3 < 64; ++step) {
      Order shuffled = live;
      std::ranges::shuffle(shuffled, random);
      const std::size_t ending = 1 + random() % std::min<std::size_t>(3, shuffled.size());
      const std::size_t starting = 1 + random() % 3;
      const Order gone(shuffled.begin(), shuffled.begin() + static_cast<std::ptrdiff_t>(ending));
      Order added(starting);
      for (Leaf& leaf : added) leaf = next_leaf++;
      const std::set<Order> after = replaced(orders, gone, added);
      const std::optional<PQTree::Run> run = tree.replace(gone, added);
      ASSERT_EQ(run.has_value(), !after.empty()) << "trial " << trial << " step " << step;
      if (!run) {
        ++failures;
        break;
      }
      ++successes;
      // The run is the replaced leaves, in an order that some allowed order had.
      Order run_order = run->order;
      Order sorted_gone = gone;
      std::ranges::sort(run_order);
      std::ranges::sort(sorted_gone);
      EXPECT_EQ(run_order, sorted_gone);
      orders = after;
      std::erase_if(live, [&](Leaf leaf) { return std::ranges::find(gone, leaf) != gone.end(); });
      live.insert(live.end(), added.begin(), added.end());
      EXPECT_TRUE(orders.contains(tree.frontier())) << "trial " << trial << " step " << step;
    }
  }
  // Both outcomes were exercised.
  EXPECT_GT(successes, 100);
  EXPECT_GT(failures, 20);
}

}  // namespace
}  // namespace tidepool::packing
