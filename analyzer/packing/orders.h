// Orders of items used by the greedy solvers: each is a permutation of the item indices, sorted
// by some key and made deterministic by falling back to the item index.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

enum class OrderKey {
  size,          // size descending, then start ascending (SmartPool)
  size_index,    // size descending, then input order (TFLite)
  size_length,   // size descending, then live length descending (XLA's spatial order)
  length_size,   // live length descending, then size descending (XLA's temporal order)
  area,          // size x live length descending
  start,         // start ascending, then size descending
};

std::vector<std::size_t> order_by(const Problem& problem, OrderKey key);

// The inverse of a permutation: rank[order[k]] = k.
std::vector<std::uint32_t> ranks_of(std::span<const std::size_t> order);

// Sum of an item's interval lengths.
Time live_length(const Item& item);

}  // namespace tidepool::packing
