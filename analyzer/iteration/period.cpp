// Period finding: approximate autocorrelation for all lags, exact scores for the candidates.
#include "analyzer/iteration/period.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "analyzer/iteration/fft.h"
#include "analyzer/iteration/hash.h"

namespace tidepool::iteration {
namespace {

// Below this many symbols every lag is scored exactly (quadratic, but tiny).
constexpr std::size_t exact_all_below = 2048;
constexpr std::size_t top_candidates = 64;
constexpr std::size_t divisor_sources = 8;
// A smaller lag is preferred when its mismatch rate is comparable to the best lag's.
constexpr double comparable_factor = 1.25;
constexpr double comparable_slack = 0.002;
constexpr double min_region_match = 0.6;
// The repeating region must cover at least 1/min_region_share of the stream and this many events.
constexpr std::size_t min_region_share = 8;
constexpr std::size_t min_region_events = 8;

std::size_t exact_matches(std::span<const std::uint64_t> s, std::size_t lag) {
  std::size_t m = 0;
  for (std::size_t i = 0; i + lag < s.size(); ++i) m += s[i] == s[i + lag];
  return m;
}

double exact_score(std::span<const std::uint64_t> s, std::size_t lag) {
  return static_cast<double>(exact_matches(s, lag)) / static_cast<double>(s.size() - lag);
}

// Estimated fraction of matching pairs at every lag 1..max_lag: each symbol becomes a random
// unit phase, so that equal symbols correlate fully and unequal ones cancel out on average.
std::vector<double> estimated_scores(std::span<const std::uint64_t> s, std::size_t max_lag) {
  const std::size_t n = s.size();
  std::size_t size = 1;
  while (size < 2 * n) size <<= 1;
  std::vector<std::complex<float>> x(size);
  for (std::size_t i = 0; i < n; ++i) {
    const double unit = static_cast<double>(mix64(s[i]) >> 11) * 0x1p-53;
    x[i] = std::polar(1.0f, static_cast<float>(2 * std::numbers::pi * unit));
  }
  circular_autocorrelation(x);
  std::vector<double> score(max_lag + 1, 0.0);
  for (std::size_t lag = 1; lag <= max_lag; ++lag)
    score[lag] = x[lag].real() / static_cast<double>(size) / static_cast<double>(n - lag);
  return score;
}

std::vector<std::size_t> candidate_lags(std::span<const std::uint64_t> s, std::size_t max_lag) {
  std::vector<std::size_t> lags;
  if (s.size() < exact_all_below) {
    for (std::size_t lag = 1; lag <= max_lag; ++lag) lags.push_back(lag);
    return lags;
  }
  const std::vector<double> estimate = estimated_scores(s, max_lag);
  std::vector<std::size_t> order;
  for (std::size_t lag = 1; lag <= max_lag; ++lag) order.push_back(lag);
  const std::size_t top = std::min(top_candidates, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                    [&](std::size_t a, std::size_t b) {
                      return estimate[a] != estimate[b] ? estimate[a] > estimate[b] : a < b;
                    });
  lags.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top));
  // The true period's multiples score as well as it does and may crowd it out of the top:
  // add the divisors of the best few that the estimate does not rule out.
  for (std::size_t k = 0; k < std::min(divisor_sources, top); ++k) {
    const std::size_t lag = order[k];
    for (std::size_t d = 1; d * d <= lag; ++d) {
      if (lag % d) continue;
      for (std::size_t div : {d, lag / d})
        if (estimate[div] >= estimate[lag] - 0.25) lags.push_back(div);
    }
  }
  std::sort(lags.begin(), lags.end());
  lags.erase(std::unique(lags.begin(), lags.end()), lags.end());
  return lags;
}

// The best-scoring stretch of comparisons (+1 per match, -1 per mismatch), as in Kadane's
// maximum subarray: where the stream actually repeats with this lag.
Range repeating_comparisons(std::span<const std::uint64_t> s, std::size_t lag, std::size_t& matches) {
  long best = 0, run = 0;
  std::size_t run_begin = 0;
  Range best_range;
  for (std::size_t i = 0; i + lag < s.size(); ++i) {
    if (run <= 0) {
      run = 0;
      run_begin = i;
    }
    run += s[i] == s[i + lag] ? 1 : -1;
    if (run > best) {
      best = run;
      best_range = {run_begin, i + 1};
    }
  }
  matches = 0;
  for (std::size_t i = best_range.begin; i < best_range.end; ++i) matches += s[i] == s[i + lag];
  return best_range;
}

}  // namespace

std::optional<Periodicity> find_period(std::span<const std::uint64_t> symbols) {
  const std::size_t n = symbols.size();
  if (n < 4) return std::nullopt;
  std::vector<std::size_t> lags = candidate_lags(symbols, n / 2);
  std::vector<double> mismatch;
  for (std::size_t lag : lags) mismatch.push_back(1 - exact_score(symbols, lag));
  const std::size_t best = static_cast<std::size_t>(std::min_element(mismatch.begin(), mismatch.end()) - mismatch.begin());

  // Prefer the smallest lag that repeats about as well as the best one does where the best one
  // repeats (the best may be a multiple of the period, ahead of it by noise alone). Measuring
  // inside that region keeps a long prologue from making every lag look alike.
  std::size_t matches = 0;
  const Range region = repeating_comparisons(symbols, lags[best], matches);
  const auto region_mismatch = [&](std::size_t lag) {
    std::size_t compared = 0, equal = 0;
    for (std::size_t i = region.begin; i < region.end && i + lag < n; ++i, ++compared) equal += symbols[i] == symbols[i + lag];
    return compared ? 1 - static_cast<double>(equal) / static_cast<double>(compared) : 1.0;
  };
  const double best_mismatch = region_mismatch(lags[best]);
  std::size_t period = lags[best];
  for (std::size_t k = 0; k < best; ++k) {  // ascending lags: the first comparable one is the smallest
    if (region_mismatch(lags[k]) <= best_mismatch * comparable_factor + comparable_slack) {
      period = lags[k];
      break;
    }
  }

  const Range comparisons = repeating_comparisons(symbols, period, matches);
  // At least two whole repetitions, and not a short coincidence in a long stream.
  if (comparisons.size() < std::max({period, n / min_region_share, min_region_events})) return std::nullopt;
  const double fraction = static_cast<double>(matches) / static_cast<double>(comparisons.size());
  if (fraction < min_region_match) return std::nullopt;
  return Periodicity{period, {comparisons.begin, comparisons.end + period}, fraction};
}

}  // namespace tidepool::iteration
