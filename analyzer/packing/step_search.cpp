// The search of step_search.h.
#include "analyzer/packing/step_search.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "analyzer/packing/holes.h"

namespace tidepool::packing {
namespace {

// Groups of up to three items a side up to this many items a side (about 350,000 triples), and at
// most this many matches.
constexpr std::size_t kMaxSearchTripleSide = 128;
constexpr std::size_t kMaxGroups = 200'000;

}  // namespace

StepSearch::StepSearch(const Problem& problem, const Step& step) : problem_(problem), step_(step) {
  const auto ending = static_cast<std::uint32_t>(step.ending.size());
  ending_count_ = ending;
  Items local_ending(ending), local_starting(step.starting.size());
  for (std::uint32_t i = 0; i < ending; ++i) local_ending[i] = i;
  for (std::uint32_t i = 0; i < local_starting.size(); ++i) local_starting[i] = ending + i;
  const auto sum = [&](const Items& group) {
    Bytes total = 0;
    for (const std::uint32_t i : group) total += problem.items[global(i)].size;
    return total;
  };
  const std::vector<Items> ending_groups = small_groups(local_ending, false, kMaxSearchTripleSide);
  const std::vector<Items> starting_groups =
      small_groups(local_starting, false, kMaxSearchTripleSide);
  std::unordered_multimap<Bytes, std::size_t> starting_by_sum;
  for (std::size_t g = 0; g < starting_groups.size(); ++g)
    starting_by_sum.emplace(sum(starting_groups[g]), g);
  for (const Items& a : ending_groups) {
    const auto [from, to] = starting_by_sum.equal_range(sum(a));
    for (auto it = from; it != to && groups_.size() < kMaxGroups; ++it) {
      Group group{a, a};
      const Items& b = starting_groups[it->second];
      group.items.insert(group.items.end(), b.begin(), b.end());
      groups_.push_back(std::move(group));
    }
  }
  // A group that splits into two that match is left out: the finer holes say more, and the
  // coarser one is left to the rest (two equal sizes are a hole each, not one).
  const auto splits = [&](const Group& group) {
    const std::size_t a = group.ending.size(), b = group.items.size() - a;
    for (std::uint32_t e = 1; e < (1u << a); ++e) {
      for (std::uint32_t t = 1; t < (1u << b); ++t) {
        if (e == (1u << a) - 1 && t == (1u << b) - 1) continue;
        Bytes balance = 0;
        for (std::size_t k = 0; k < a; ++k) {
          if (e >> k & 1) balance += problem.items[global(group.items[k])].size;
        }
        for (std::size_t k = 0; k < b; ++k) {
          if (t >> k & 1) balance -= problem.items[global(group.items[a + k])].size;
        }
        if (balance == 0) return true;
      }
    }
    return false;
  };
  std::erase_if(groups_, splits);
  std::ranges::stable_sort(groups_, {}, [](const Group& group) {
    const std::size_t a = group.ending.size(), b = group.items.size() - a;
    return std::pair(a + b, a > b ? a - b : b - a);
  });
  by_item_.resize(ending + step.starting.size());
  count_.resize(by_item_.size());
  for (std::uint32_t g = 0; g < groups_.size(); ++g) {
    for (const std::uint32_t i : groups_[g].items) {
      by_item_[i].push_back(g);
      ++count_[i];
    }
  }
  taken_.assign(by_item_.size(), false);
  dead_.assign(groups_.size(), 0);
}

std::optional<std::vector<Hole>> StepSearch::run(const PQTree& tree, const Items& first,
                                                 int& budget, int skip, Deadline deadline) {
  budget_ = budget;
  deadline_ = deadline;
  skip_ = skip;
  first_.assign(taken_.size(), false);
  for (std::uint32_t i = 0; i < taken_.size(); ++i)
    first_[i] = std::ranges::find(first, global(i)) != first.end();
  bool found = false;
  limited_ = true;
  for (int discrepancies = 0; !found && limited_ && !spent(); ++discrepancies) {
    chosen_.clear();
    limited_ = false;
    found = search(tree, discrepancies);
  }
  budget = budget_;
  if (!found) return std::nullopt;
  return std::move(chosen_);
}

Hole StepSearch::hole_of(const Group& group) const {
  Hole hole;
  for (const std::uint32_t i : group.items)
    (i < ending_count_ ? hole.ending : hole.starting).push_back(global(i));
  return hole;
}

void StepSearch::kill(std::uint32_t g) {
  if (dead_[g]++ == 0) {
    for (const std::uint32_t i : groups_[g].items) --count_[i];
  }
}

void StepSearch::revive(std::uint32_t g) {
  if (--dead_[g] == 0) {
    for (const std::uint32_t i : groups_[g].items) ++count_[i];
  }
}

void StepSearch::set_taken(std::uint32_t g, bool taken) {
  for (const std::uint32_t i : groups_[g].items) {
    taken_[i] = taken;
    for (const std::uint32_t other : by_item_[i]) taken ? kill(other) : revive(other);
  }
}

std::vector<std::uint32_t> StepSearch::kill_all(std::uint32_t pivot) {
  std::vector<std::uint32_t> killed;
  for (const std::uint32_t g : by_item_[pivot]) {
    if (dead_[g] == 0) killed.push_back(g);
  }
  for (const std::uint32_t g : killed) kill(g);
  return killed;
}

bool StepSearch::takes(const PQTree& tree, const std::vector<Hole>& holes,
                       std::optional<PQTree>& out) {
  for (const Hole& hole : holes) {
    if (hole.ending.size() < 2) continue;
    if (!out) out = tree.compacted();
    --budget_;
    if (!out->replace(hole.ending, hole.starting)) return false;
  }
  return true;
}

bool StepSearch::search(const PQTree& tree, int discrepancies) {
  std::uint32_t pivot = PQTree::kNone;
  const auto before = [&](std::uint32_t i, std::uint32_t j) {
    return std::pair(!first_[i], count_[i]) < std::pair(!first_[j], count_[j]);
  };
  for (std::uint32_t i = 0; i < taken_.size(); ++i) {
    if (!taken_[i] && count_[i] > 0 && (pivot == PQTree::kNone || before(i, pivot))) pivot = i;
  }
  // A cover with fewer discrepancies was found by an earlier round.
  if (pivot == PQTree::kNone) return discrepancies == 0 && rest(tree);
  // The pivot's first group that the tree takes is the choice; its later groups, and leaving
  // the pivot to the rest, are discrepancies, tried first while there are any left (the
  // choices near the top are the likelier wrong).
  std::vector<std::uint32_t> refused;
  const auto refuse = [&](std::uint32_t g) {
    kill(g);
    refused.push_back(g);
  };
  const auto choose = [&](std::uint32_t g, Hole hole, const std::optional<PQTree>& child,
                          int left) {
    set_taken(g, true);
    chosen_.push_back(std::move(hole));
    const bool found = search(child ? *child : tree, left);
    set_taken(g, false);
    if (!found) chosen_.pop_back();
    return found;
  };
  std::optional<std::uint32_t> first;
  std::optional<PQTree> first_child;
  for (const std::uint32_t g : by_item_[pivot]) {
    if (dead_[g] != 0) continue;
    if (spent()) break;
    if (takes(tree, {hole_of(groups_[g])}, first_child)) {
      first = g;
      break;
    }
    first_child.reset();
    refuse(g);
  }
  bool found = false;
  if (first && discrepancies == 0) limited_ = true;  // a later round has more to try
  if (!first) {
    found = !spent() && search(tree, discrepancies);  // the pivot is left to the rest
  } else if (discrepancies > 0) {
    kill(*first);
    for (const std::uint32_t g : by_item_[pivot]) {
      if (dead_[g] != 0) continue;
      if (spent()) break;
      Hole hole = hole_of(groups_[g]);
      std::optional<PQTree> child;
      if (takes(tree, {hole}, child) && choose(g, std::move(hole), child, discrepancies - 1)) {
        found = true;
        break;
      }
      refuse(g);
    }
    if (!found && !spent()) {
      const std::vector<std::uint32_t> killed = kill_all(pivot);
      found = search(tree, discrepancies - 1);
      for (const std::uint32_t g : killed) revive(g);
    }
    revive(*first);
  }
  if (first && !found && !spent())
    found = choose(*first, hole_of(groups_[*first]), first_child, discrepancies);
  for (const std::uint32_t g : refused) revive(g);
  return found;
}

bool StepSearch::rest(const PQTree& tree) {
  Items ending, starting;
  for (std::uint32_t i = 0; i < taken_.size(); ++i) {
    if (!taken_[i]) (i < ending_count_ ? ending : starting).push_back(global(i));
  }
  if (ending.empty() != starting.empty()) return false;
  if (ending.empty()) return skip_-- == 0;
  bool contested = false;
  std::vector<std::vector<Hole>> guesses(1);
  split_rest(problem_, {ending, starting}, contested, guesses.front());
  if (guesses.front().size() > 1) guesses.push_back({Hole{std::move(ending), std::move(starting)}});
  for (std::vector<Hole>& holes : guesses) {
    std::optional<PQTree> out;
    if (!takes(tree, holes, out) || skip_-- > 0) continue;
    for (Hole& hole : holes) chosen_.push_back(std::move(hole));
    return true;
  }
  return false;
}

}  // namespace tidepool::packing
