// The PQ-tree of pq_tree.h. A reduction counts, for every node above a leaf to be made
// consecutive, how many of those leaves it holds; the lowest node that holds them all is the
// pertinent root. Its pertinent subtree is labelled bottom-up (a node is empty, full, or partial:
// a Q-node with its full children at its end, kept at the right), and each node is rewritten by
// the template that its children's labels call for (P1-P6, Q1-Q3 in Booth and Lueker's names);
// where none applies, no frontier has the leaves consecutive.
#include "analyzer/packing/pq_tree.h"

#include <algorithm>
#include <iterator>

namespace tidepool::packing {
namespace {

using Children = std::vector<std::int32_t>;

// A run's neighbours are told by this many leaves a side at most.
constexpr std::size_t kSideLeaves = 16;

// Whether a Q-node's children read empty (0), at most one partial (2), then full (1), by `label`.
bool empties_then_fulls(std::span<const std::int32_t> children, auto label) {
  std::size_t k = 0;
  while (k < children.size() && label(children[k]) == 0) ++k;
  if (k < children.size() && label(children[k]) == 2) ++k;
  while (k < children.size() && label(children[k]) == 1) ++k;
  return k == children.size();
}

}  // namespace

PQTree::PQTree(std::size_t leaf_count, std::span<const Leaf> leaves) : leaf_node_(leaf_count, -1) {
  Children children;
  for (const Leaf leaf : leaves) {
    children.push_back(make(Kind::leaf, {}));
    nodes_.back().leaf = leaf;
    leaf_node_[leaf] = children.back();
  }
  if (children.size() == 1) root_ = children.front();
  if (children.size() > 1) root_ = make(Kind::p, std::move(children));
}

std::int32_t PQTree::make(Kind kind, std::vector<std::int32_t> children) {
  const auto index = static_cast<std::int32_t>(nodes_.size());
  for (const std::int32_t child : children) nodes_[child].parent = index;
  Node node;
  node.kind = kind;
  node.stamp = stamp_;
  node.children = std::move(children);
  nodes_.push_back(std::move(node));
  return index;
}

// `nodes` as one node with `label`: the node itself when there is one, else a new P-node; -1 when
// there are none.
std::int32_t PQTree::group(std::vector<std::int32_t> nodes, Label label) {
  if (nodes.empty()) return -1;
  if (nodes.size() == 1) return nodes.front();
  const std::int32_t grouped = make(Kind::p, std::move(nodes));
  nodes_[grouped].label = label;
  return grouped;
}

void PQTree::put_in_place_of(std::int32_t old_node, std::int32_t new_node) {
  const std::int32_t parent = nodes_[old_node].parent;
  nodes_[new_node].parent = parent;
  if (parent < 0) {
    root_ = new_node;
    return;
  }
  Children& siblings = nodes_[parent].children;
  *std::ranges::find(siblings, old_node) = new_node;
}

// Removes `node`; a parent left with one child gives way to it, one left with none goes too.
void PQTree::remove_from_parent(std::int32_t node) {
  const std::int32_t parent = nodes_[node].parent;
  if (parent < 0) {
    root_ = -1;
    return;
  }
  Children& siblings = nodes_[parent].children;
  siblings.erase(std::ranges::find(siblings, node));
  if (siblings.size() == 1) {
    put_in_place_of(parent, siblings.front());
  } else if (siblings.empty()) {
    remove_from_parent(parent);
  }
}

PQTree::Label PQTree::label_of(std::int32_t node) const {
  return nodes_[node].stamp == stamp_ ? nodes_[node].label : Label::empty;
}

// The pertinent children of `node` reduced (below the root), then all its children by label;
// none when a child cannot be reduced.
std::optional<PQTree::Labelled> PQTree::reduce_children(std::int32_t node) {
  Children pertinent;
  for (const std::int32_t child : nodes_[node].children) {
    if (nodes_[child].stamp == stamp_) pertinent.push_back(child);
  }
  for (const std::int32_t child : pertinent) {
    if (!reduce_below(child)) return std::nullopt;
  }
  Labelled labelled;
  for (const std::int32_t child : nodes_[node].children) {
    const Label label = label_of(child);
    (label == Label::empty  ? labelled.empty
     : label == Label::full ? labelled.full
                            : labelled.partial)
        .push_back(child);
  }
  return labelled;
}

// The templates for a node below the pertinent root (P1, P3, P5, Q1, Q2), after its children's.
bool PQTree::reduce_below(std::int32_t node) {
  if (nodes_[node].kind == Kind::leaf) {
    nodes_[node].label = Label::full;
    return true;
  }
  std::optional<Labelled> children_by_label = reduce_children(node);
  if (!children_by_label) return false;
  auto& [empty, full, partial] = *children_by_label;
  if (empty.empty() && partial.empty()) {
    nodes_[node].label = Label::full;
    return true;
  }
  if (nodes_[node].kind == Kind::p) {
    if (partial.size() > 1) return false;
    const std::int32_t empties = group(std::move(empty), Label::empty);
    const std::int32_t fulls = group(std::move(full), Label::full);
    if (partial.empty()) {  // P3
      const std::int32_t q = make(Kind::q, {empties, fulls});
      nodes_[q].label = Label::partial;
      put_in_place_of(node, q);
      return true;
    }
    const std::int32_t q = partial.front();  // P5
    Children& children = nodes_[q].children;
    if (empties >= 0) children.insert(children.begin(), empties);
    if (fulls >= 0) children.push_back(fulls);
    if (empties >= 0) nodes_[empties].parent = q;
    if (fulls >= 0) nodes_[fulls].parent = q;
    put_in_place_of(node, q);
    return true;
  }
  // Q2: empties, at most one partial child, fulls (turned round if need be); the partial child's
  // children take its place.
  Children& children = nodes_[node].children;
  const auto label = [&](std::int32_t child) { return static_cast<int>(label_of(child)); };
  if (!empties_then_fulls(children, label)) {
    std::ranges::reverse(children);
    if (!empties_then_fulls(children, label)) return false;
  }
  if (!partial.empty()) {
    const std::int32_t inner = partial.front();
    Children spliced = nodes_[inner].children;
    for (const std::int32_t child : spliced) nodes_[child].parent = node;
    Children& outer = nodes_[node].children;
    const auto at = std::ranges::find(outer, inner);
    outer.insert(outer.erase(at), spliced.begin(), spliced.end());
  }
  nodes_[node].label = Label::partial;
  return true;
}

// The templates for the pertinent root (P2, P4, P6, Q3; a full root as it is): where the full
// leaves lie then.
std::optional<PQTree::Full> PQTree::reduce_root(std::int32_t root) {
  if (nodes_[root].kind == Kind::leaf) return Full{root, 0, 0, true};
  std::optional<Labelled> children_by_label = reduce_children(root);
  if (!children_by_label) return std::nullopt;
  auto& [empty, full, partial] = *children_by_label;
  if (empty.empty() && partial.empty()) return Full{root, 0, 0, true};
  const auto full_span = [&](std::int32_t node) {
    const Children& children = nodes_[node].children;
    std::size_t first = 0;
    while (label_of(children[first]) != Label::full) ++first;
    std::size_t last = first;
    while (last + 1 < children.size() && label_of(children[last + 1]) == Label::full) ++last;
    return Full{node, first, last, false};
  };
  if (nodes_[root].kind == Kind::p) {
    if (partial.size() > 2) return std::nullopt;
    const std::int32_t fulls = group(std::move(full), Label::full);
    Children kept = std::move(empty);
    if (partial.empty()) {  // P2
      kept.push_back(fulls);
      for (const std::int32_t child : kept) nodes_[child].parent = root;
      nodes_[root].children = std::move(kept);
      return Full{root, nodes_[root].children.size() - 1, nodes_[root].children.size() - 1, false};
    }
    const std::int32_t q = partial.front();  // P4, P6: the full leaves end up inside q
    Children& children = nodes_[q].children;
    if (fulls >= 0) {
      children.push_back(fulls);
      nodes_[fulls].parent = q;
    }
    if (partial.size() == 2) {
      Children other = nodes_[partial.back()].children;
      std::ranges::reverse(other);
      for (const std::int32_t child : other) nodes_[child].parent = q;
      nodes_[q].children.insert(nodes_[q].children.end(), other.begin(), other.end());
    }
    kept.push_back(q);
    if (kept.size() == 1) {
      put_in_place_of(root, q);
    } else {
      for (const std::int32_t child : kept) nodes_[child].parent = root;
      nodes_[root].children = std::move(kept);
    }
    return full_span(q);
  }
  // Q3: empties, a partial child, fulls, a partial child, empties; the partial children's
  // children take their places, full ends inward.
  Children& children = nodes_[root].children;
  std::size_t first = 0;
  while (label_of(children[first]) == Label::empty) ++first;
  std::size_t last = children.size() - 1;
  while (label_of(children[last]) == Label::empty) --last;
  for (std::size_t k = first + 1; k < last; ++k) {
    if (label_of(children[k]) != Label::full) return std::nullopt;
  }
  Children rebuilt(children.begin(), children.begin() + static_cast<std::ptrdiff_t>(first));
  for (std::size_t k = first; k <= last; ++k) {
    const std::int32_t child = children[k];
    if (label_of(child) != Label::partial) {
      rebuilt.push_back(child);
      continue;
    }
    Children inner = nodes_[child].children;
    if (k == last && k != first) std::ranges::reverse(inner);
    rebuilt.insert(rebuilt.end(), inner.begin(), inner.end());
  }
  rebuilt.insert(rebuilt.end(), children.begin() + static_cast<std::ptrdiff_t>(last) + 1,
                 children.end());
  for (const std::int32_t child : rebuilt) nodes_[child].parent = root;
  nodes_[root].children = std::move(rebuilt);
  return full_span(root);
}

std::optional<PQTree::Run> PQTree::replace(std::span<const Leaf> leaves,
                                           std::span<const Leaf> replacement) {
  if (leaves.empty() || root_ < 0) return std::nullopt;
  ++stamp_;
  for (const Leaf leaf : leaves) {
    if (leaf >= leaf_node_.size() || leaf_node_[leaf] < 0) return std::nullopt;
    for (std::int32_t node = leaf_node_[leaf]; node >= 0; node = nodes_[node].parent) {
      Node& counted = nodes_[node];
      if (counted.stamp != stamp_) {
        counted.stamp = stamp_;
        counted.pertinent = 0;
        counted.label = Label::empty;
      }
      ++counted.pertinent;
    }
  }
  std::int32_t root = leaf_node_[leaves.front()];
  while (nodes_[root].pertinent < leaves.size()) root = nodes_[root].parent;
  const std::optional<Full> full = reduce_root(root);
  if (!full) return std::nullopt;

  Run run;
  const Node& holder = nodes_[full->node];
  if (full->whole) {
    collect(full->node, run.order);
  } else {
    for (std::size_t k = full->first; k <= full->last; ++k) collect(holder.children[k], run.order);
    if (holder.kind == Kind::q && full->first > 0) {
      collect(holder.children[full->first - 1], run.before, kSideLeaves);
    }
    if (holder.kind == Kind::q && full->last + 1 < holder.children.size()) {
      collect(holder.children[full->last + 1], run.after, kSideLeaves);
    }
  }
  if (run.order.size() != leaves.size()) return std::nullopt;
  for (const Leaf leaf : run.order) leaf_node_[leaf] = -1;

  std::int32_t added = -1;
  if (!replacement.empty()) {
    Children children;
    for (const Leaf leaf : replacement) {
      children.push_back(make(Kind::leaf, {}));
      nodes_.back().leaf = leaf;
      leaf_node_[leaf] = children.back();
    }
    added = children.size() == 1 ? children.front() : make(Kind::p, std::move(children));
  }
  if (full->whole) {
    if (added >= 0) {
      put_in_place_of(full->node, added);
    } else {
      remove_from_parent(full->node);
    }
    return run;
  }
  const std::int32_t node = full->node;
  Children& children = nodes_[node].children;
  const auto first = children.begin() + static_cast<std::ptrdiff_t>(full->first);
  const auto at =
      children.erase(first, first + static_cast<std::ptrdiff_t>(full->last - full->first + 1));
  if (added >= 0) {
    children.insert(at, added);
    nodes_[added].parent = node;
  }
  if (nodes_[node].children.size() == 1) {
    put_in_place_of(node, nodes_[node].children.front());
  } else if (nodes_[node].children.empty()) {
    remove_from_parent(node);
  }
  return run;
}

void PQTree::collect(std::int32_t node, std::vector<Leaf>& out, std::size_t most) const {
  std::vector<std::int32_t> stack = {node};
  while (!stack.empty() && out.size() < most) {
    const Node& current = nodes_[stack.back()];
    stack.pop_back();
    if (current.kind == Kind::leaf) {
      out.push_back(current.leaf);
      continue;
    }
    stack.insert(stack.end(), current.children.rbegin(), current.children.rend());
  }
}

PQTree PQTree::compacted() const {
  PQTree copy(leaf_node_.size(), {});
  if (root_ < 0) return copy;
  // Each node copied with its children's new indices, children after their parent.
  std::vector<std::pair<std::int32_t, std::int32_t>> stack = {{root_, -1}};  // (old, new parent)
  while (!stack.empty()) {
    const auto [old_index, parent] = stack.back();
    stack.pop_back();
    const Node& old_node = nodes_[old_index];
    const auto index = static_cast<std::int32_t>(copy.nodes_.size());
    Node node;
    node.kind = old_node.kind;
    node.leaf = old_node.leaf;
    node.parent = parent;
    copy.nodes_.push_back(std::move(node));
    if (parent < 0) {
      copy.root_ = index;
    } else {
      copy.nodes_[parent].children.push_back(index);
    }
    if (old_node.kind == Kind::leaf) copy.leaf_node_[old_node.leaf] = index;
    for (auto child = old_node.children.rbegin(); child != old_node.children.rend(); ++child) {
      stack.emplace_back(*child, index);
    }
  }
  return copy;
}

std::vector<PQTree::Leaf> PQTree::frontier() const {
  std::vector<Leaf> out;
  if (root_ >= 0) collect(root_, out);
  return out;
}

}  // namespace tidepool::packing
