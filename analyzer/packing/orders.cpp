// The greedy orders (see orders.h).
#include "analyzer/packing/orders.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace tidepool::packing {

Time live_length(const Item& item) {
  Time length = 0;
  for (const Interval& interval : item.live) length += interval.upper - interval.lower;
  return length;
}

std::vector<std::size_t> order_by(const Problem& problem, OrderKey key) {
  const auto& items = problem.items;
  const std::size_t n = items.size();
  // Every order sorts ascending by a tuple of (primary, secondary) values; index breaks ties.
  std::vector<std::tuple<double, double, std::size_t>> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double size = static_cast<double>(items[i].size);
    const double length = static_cast<double>(live_length(items[i]));
    const double start = static_cast<double>(first_start(items[i]));
    double primary = 0;
    double secondary = 0;
    switch (key) {
      case OrderKey::size: primary = -size; secondary = start; break;
      case OrderKey::size_index: primary = -size; break;
      case OrderKey::size_length: primary = -size; secondary = -length; break;
      case OrderKey::length_size: primary = -length; secondary = -size; break;
      case OrderKey::area: primary = -size * length; break;
      case OrderKey::start: primary = start; secondary = -size; break;
    }
    keys[i] = {primary, secondary, i};
  }
  std::ranges::sort(keys);
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = std::get<2>(keys[k]);
  return order;
}

std::vector<std::uint32_t> ranks_of(std::span<const std::size_t> order) {
  std::vector<std::uint32_t> rank(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) rank[order[k]] = static_cast<std::uint32_t>(k);
  return rank;
}

}  // namespace tidepool::packing
