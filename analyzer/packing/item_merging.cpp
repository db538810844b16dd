// Merging items in time and in address (see item_merging.h): rounds of both merges, each a sort of
// the items still unmerged, until a round changes nothing.
#include "analyzer/packing/item_merging.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "analyzer/packing/completion.h"

namespace tidepool::packing {

MergedProblem::MergedProblem(const Problem& problem) : original_count_(problem.items.size()) {
  nodes_.reserve(2 * original_count_);
  std::vector<std::uint32_t> active;
  std::vector<std::uint32_t> kept;  // items with several intervals: not merged
  for (std::size_t i = 0; i < original_count_; ++i) {
    const Item& item = problem.items[i];
    Node leaf{item.size, item.alignment, item.live.front()};
    nodes_.push_back(leaf);
    (item.live.size() == 1 ? active : kept).push_back(static_cast<std::uint32_t>(i));
  }
  for (bool changed = true; changed;) {
    const bool stacked = merge_in_address(active);
    const bool joined = merge_in_time(active);
    changed = stacked || joined;
  }
  roots_ = std::move(active);
  roots_.insert(roots_.end(), kept.begin(), kept.end());
  merged_.items.reserve(roots_.size());
  for (const std::uint32_t root : roots_) {
    if (root < original_count_) {
      merged_.items.push_back(problem.items[root]);
    } else {
      const Node& node = nodes_[root];
      merged_.items.push_back(Item{"merged" + std::to_string(merged_.items.size()), node.size, node.alignment, {node.live}});
    }
  }
}

std::uint32_t MergedProblem::join(std::uint32_t first, std::uint32_t second, bool in_time) {
  const Node& a = nodes_[first];
  const Node& b = nodes_[second];
  Node node{in_time ? a.size : a.size + b.size, a.alignment, {a.live.lower, in_time ? b.live.upper : a.live.upper},
            first, second, true, in_time};
  nodes_.push_back(node);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

// Items with the same interval and alignment, each size a multiple of the alignment, stack.
bool MergedProblem::merge_in_address(std::vector<std::uint32_t>& active) {
  const auto stackable = [&](std::uint32_t i) { return nodes_[i].size % nodes_[i].alignment == 0; };
  const auto key = [&](std::uint32_t i) {
    const Node& node = nodes_[i];
    return std::tuple(node.live.lower, node.live.upper, node.alignment, !stackable(i), i);
  };
  const auto same_place = [&](std::uint32_t a, std::uint32_t b) {
    return nodes_[a].live == nodes_[b].live && nodes_[a].alignment == nodes_[b].alignment;
  };
  std::ranges::sort(active, [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  std::vector<std::uint32_t> next;
  next.reserve(active.size());
  bool changed = false;
  for (std::size_t k = 0; k < active.size();) {
    std::uint32_t stack = active[k];
    std::size_t end = k + 1;
    if (stackable(active[k])) {
      for (; end < active.size() && stackable(active[end]) && same_place(active[k], active[end]); ++end) {
        stack = join(stack, active[end], false);
        changed = true;
      }
    }
    next.push_back(stack);
    k = end;
  }
  active = std::move(next);
  return changed;
}

// Items of one size and alignment, each ending where the next starts, form a row.
bool MergedProblem::merge_in_time(std::vector<std::uint32_t>& active) {
  const auto key = [&](std::uint32_t i) {
    const Node& node = nodes_[i];
    return std::tuple(node.size, node.alignment, node.live.lower, i);
  };
  std::ranges::sort(active, [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  std::vector<std::uint32_t> next;
  next.reserve(active.size());
  bool changed = false;
  std::multimap<Time, std::uint32_t> rows;  // the rows of the current size, by where they end
  for (std::size_t k = 0; k < active.size(); ++k) {
    const Node& node = nodes_[active[k]];
    if (k > 0 && (nodes_[active[k - 1]].size != node.size || nodes_[active[k - 1]].alignment != node.alignment)) {
      for (const auto& [end, row] : rows) next.push_back(row);
      rows.clear();
    }
    std::uint32_t row = active[k];
    if (const auto before = rows.find(node.live.lower); before != rows.end()) {
      row = join(before->second, row, true);
      rows.erase(before);
      changed = true;
    }
    rows.emplace(nodes_[row].live.upper, row);
  }
  for (const auto& [end, row] : rows) next.push_back(row);
  active = std::move(next);
  return changed;
}

std::vector<Bytes> MergedProblem::expand(std::span<const Bytes> merged_offsets) const {
  std::vector<Bytes> offsets(original_count_, kUnplaced);
  std::vector<std::pair<std::uint32_t, Bytes>> pending;
  for (std::size_t k = 0; k < roots_.size(); ++k) {
    pending.emplace_back(roots_[k], merged_offsets[k]);
    while (!pending.empty()) {
      const auto [index, offset] = pending.back();
      pending.pop_back();
      const Node& node = nodes_[index];
      if (!node.merged) {
        offsets[index] = offset;
        continue;
      }
      pending.emplace_back(node.first, offset);
      pending.emplace_back(node.second, node.in_time ? offset : offset + nodes_[node.first].size);
    }
  }
  return offsets;
}

}  // namespace tidepool::packing
