// The `best` portfolio (see best.h).
#include "analyzer/packing/best.h"

#include <algorithm>
#include <array>
#include <span>
#include <utility>

#include "analyzer/packing/exact_search.h"
#include "analyzer/packing/local_search.h"
#include "analyzer/packing/orders.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

// The exact search keeps an overlap graph and costs O(items) per node: it is for instances of a
// few thousand items.
constexpr std::size_t kExactMaxItems = 5000;
constexpr std::int64_t kExactMaxPairs = 20'000'000;
// Above this many items, a greedy pass costs seconds: only the cheapest orders run.
constexpr std::size_t kLargeInstance = 200'000;
// The share of the time left after the greedy portfolio that the exact search gets; local search
// over the order has the rest.
constexpr double kExactShare = 0.7;

class Portfolio {
 public:
  Portfolio(const Problem& problem, Deadline deadline)
      : problem_(problem), timeline_(problem), lower_bound_(timeline_.peak()), deadline_(deadline) {}

  Solution run() {
    run_greedy();
    if (done(deadline_)) return std::move(best_.solution);
    const std::size_t n = problem_.items.size();
    if (n <= kExactMaxItems && ExactSearch::overlap_pairs(problem_) <= kExactMaxPairs) {
      run_exact(Deadline::after_seconds(kExactShare * deadline_.seconds_left()));
    }
    if (!done(deadline_)) {
      best_ = improve_order(problem_, timeline_, std::move(best_), proven_infeasible_ + 1, deadline_, 1);
    }
    return std::move(best_.solution);
  }

 private:
  // Done when the best height is proven optimal, or at the deadline.
  bool done(Deadline deadline) const {
    return best_.solution.height <= proven_infeasible_ + 1 || deadline.passed();
  }

  void consider(std::vector<std::size_t> order, Placer placer, std::vector<Bytes> offsets) {
    const Bytes height = height_of(problem_, offsets);
    if (best_.order.empty() || height < best_.solution.height) {
      best_ = {std::move(order), placer, {std::move(offsets), height}};
    }
  }

  void run_greedy() {
    const bool large = problem_.items.size() > kLargeInstance;
    struct Run {
      OrderKey key;
      Placer placer;
    };
    const std::array runs = {
        Run{OrderKey::size, Placer::lowest_first},     Run{OrderKey::size, Placer::gaps_best},
        Run{OrderKey::size, Placer::gaps_first},       Run{OrderKey::size_length, Placer::gaps_best},
        Run{OrderKey::length_size, Placer::gaps_best},
        Run{OrderKey::area, Placer::lowest_first},     Run{OrderKey::area, Placer::gaps_best},
        Run{OrderKey::length_size, Placer::lowest_first}, Run{OrderKey::start, Placer::gaps_best},
    };
    for (const Run& run : runs) {
      if (!best_.order.empty() && done(deadline_)) return;
      if (large && run.placer != Placer::lowest_first) continue;
      std::vector<std::size_t> order = order_by(problem_, timeline_, run.key);
      std::vector<Bytes> offsets = place(problem_, timeline_, order, run.placer);
      consider(std::move(order), run.placer, std::move(offsets));
    }
  }

  // Tries a capacity with each preorder; returns whether it was found, proven infeasible or not.
  SearchStatus attempt(ExactSearch& search, std::span<const std::vector<std::size_t>> preorders,
                       Bytes capacity, std::int64_t budget, Deadline deadline) {
    std::vector<Bytes> offsets;
    for (const auto& preorder : preorders) {
      const SearchStatus status = search.run(preorder, capacity, budget, deadline, offsets);
      if (status == SearchStatus::found) consider(preorder, Placer::lowest_first, std::move(offsets));
      if (status != SearchStatus::gave_up) return status;
      if (deadline.passed()) break;
    }
    return SearchStatus::gave_up;
  }

  void run_exact(Deadline deadline) {
    ExactSearch search(problem_, timeline_);
    // Which preorder leads the search to a packing soonest varies a lot between instances, so
    // every budget is tried with all of them (at the lower bound) before the budget doubles;
    // the bisection above the bound uses the first few.
    std::vector<std::vector<std::size_t>> preorders;
    for (const OrderKey key : {OrderKey::start, OrderKey::total_area, OrderKey::area, OrderKey::total_length,
                               OrderKey::length_area, OrderKey::length_size, OrderKey::size}) {
      preorders.push_back(order_by(problem_, timeline_, key));
    }
    constexpr std::size_t kBisectionPreorders = 3;
    std::int64_t budget = static_cast<std::int64_t>(problem_.items.size());
    while (!done(deadline) && proven_infeasible_ + 1 < best_.solution.height) {
      budget *= 2;
      Bytes failed = proven_infeasible_;  // highest capacity that failed at this budget
      Bytes capacity = failed + 1;
      std::span<const std::vector<std::size_t>> tried = preorders;
      while (!done(deadline) && failed + 1 < best_.solution.height) {
        const SearchStatus status = attempt(search, tried, capacity, budget, deadline);
        if (status == SearchStatus::infeasible) proven_infeasible_ = std::max(proven_infeasible_, capacity);
        if (status != SearchStatus::found) failed = capacity;
        capacity = failed + (best_.solution.height - failed) / 2;
        tried = tried.first(std::min(tried.size(), kBisectionPreorders));
      }
    }
  }

  const Problem& problem_;
  const Timeline timeline_;
  const Bytes lower_bound_;
  const Deadline deadline_;
  Bytes proven_infeasible_ = lower_bound_ - 1;  // no packing fits at this capacity or below
  OrderedSolution best_;
};

}  // namespace

Solution solve_best(const Problem& problem, Deadline deadline) {
  if (problem.items.empty()) return {};
  return Portfolio(problem, deadline).run();
}

}  // namespace tidepool::packing
