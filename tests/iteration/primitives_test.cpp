// The building blocks of period finding: the FFT's autocorrelation against the direct sum, and
// window hashes.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "analyzer/iteration/fft.h"
#include "analyzer/iteration/window_hash.h"

namespace tidepool::iteration {
namespace {

// size * sum_i x[(i + lag) % size] * conj(x[i]), in doubles.
std::complex<double> direct_autocorrelation(const std::vector<std::complex<float>>& x,
                                            std::size_t lag) {
  std::complex<double> sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    sum += std::complex<double>(x[(i + lag) % x.size()]) * std::conj(std::complex<double>(x[i]));
  return sum * static_cast<double>(x.size());
}

std::vector<std::complex<float>> test_signal(std::size_t n) {
  std::vector<std::complex<float>> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = {std::sin(0.3f * static_cast<float>(i)), static_cast<float>(i % 5) - 2.0f};
  return x;
}

TEST(CircularAutocorrelation, MatchesTheDirectSumAtEveryLag) {
  for (const std::size_t n : {1u, 2u, 4u, 64u}) {
    const std::vector<std::complex<float>> x = test_signal(n);
    std::vector<std::complex<float>> y = x;
    circular_autocorrelation(y);
    for (std::size_t lag = 0; lag < n; ++lag) {
      const std::complex<double> direct = direct_autocorrelation(x, lag);
      EXPECT_NEAR(y[lag].real(), direct.real(), 1e-5 * n * n * 4) << n << " " << lag;
      EXPECT_NEAR(y[lag].imag(), direct.imag(), 1e-5 * n * n * 4) << n << " " << lag;
    }
  }
}

// Four blocks: the wide levels pass over the whole array, the narrow ones go block by block.
TEST(CircularAutocorrelation, MatchesTheDirectSumBeyondOneBlock) {
  const std::size_t n = 4 * kFftBlock;
  const std::vector<std::complex<float>> x = test_signal(n);
  std::vector<std::complex<float>> y = x;
  circular_autocorrelation(y);
  const double scale = direct_autocorrelation(x, 0).real();
  for (const std::size_t lag :
       {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{21}, kFftBlock - 1, kFftBlock,
        kFftBlock + 3, 2 * kFftBlock + 7, n / 2, n - 1}) {
    const std::complex<double> direct = direct_autocorrelation(x, lag);
    EXPECT_NEAR(y[lag].real() / scale, direct.real() / scale, 1e-4) << lag;
    EXPECT_NEAR(y[lag].imag() / scale, direct.imag() / scale, 1e-4) << lag;
  }
}

TEST(WindowHasher, EqualWindowsHashEqually) {
  const std::vector<std::uint64_t> s = {5, 1, 2, 3, 9, 1, 2, 3, 7, 1, 2};
  const WindowHasher hash(s);
  EXPECT_EQ(hash({1, 4}), hash({5, 8}));
  EXPECT_NE(hash({1, 4}), hash({0, 3}));
  EXPECT_NE(hash({1, 4}), hash({9, 11}));  // a prefix is not the window
  EXPECT_NE(hash({1, 3}), hash({1, 4}));
  EXPECT_EQ(hash({2, 2}), hash({7, 7}));   // empty windows
}

}  // namespace
}  // namespace tidepool::iteration
