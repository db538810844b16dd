// The building blocks of period finding: the FFT against a direct DFT, and window hashes.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "analyzer/iteration/fft.h"
#include "analyzer/iteration/window_hash.h"

namespace tidepool::iteration {
namespace {

TEST(Fft, MatchesADirectTransformAndInverts) {
  const std::size_t n = 64;
  std::vector<std::complex<float>> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = {std::sin(0.3f * static_cast<float>(i)), static_cast<float>(i % 5) - 2.0f};
  std::vector<std::complex<float>> y = x;
  fft(y, false);
  for (std::size_t k = 0; k < n; ++k) {
    std::complex<double> direct = 0;
    for (std::size_t i = 0; i < n; ++i)
      direct += std::complex<double>(x[i]) * std::polar(1.0, -2 * std::numbers::pi * static_cast<double>(i * k) / n);
    EXPECT_NEAR(y[k].real(), direct.real(), 1e-3);
    EXPECT_NEAR(y[k].imag(), direct.imag(), 1e-3);
  }
  fft(y, true);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(y[i].real() / n, x[i].real(), 1e-4);
    EXPECT_NEAR(y[i].imag() / n, x[i].imag(), 1e-4);
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
