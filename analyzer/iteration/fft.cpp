// Cooley-Tukey FFT, bit-reversal then butterflies.
#include "analyzer/iteration/fft.h"

#include <cmath>
#include <numbers>
#include <utility>

namespace tidepool::iteration {

void fft(std::vector<std::complex<float>>& data, bool inverse) {
  const std::size_t n = data.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(data[i], data[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const double angle = 2 * std::numbers::pi / static_cast<double>(len) * (inverse ? 1 : -1);
    std::vector<std::complex<float>> twiddle(len / 2);
    for (std::size_t k = 0; k < len / 2; ++k) {
      const double a = angle * static_cast<double>(k);  // each computed afresh: no drift in floats
      twiddle[k] = {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
    }
    for (std::size_t i = 0; i < n; i += len) {
      for (std::size_t k = 0; k < len / 2; ++k) {
        // Spelled out: std::complex's operator* checks for infinities and is several times slower.
        const auto u = data[i + k];
        const auto w = data[i + k + len / 2];
        const std::complex<float> v(w.real() * twiddle[k].real() - w.imag() * twiddle[k].imag(),
                                     w.real() * twiddle[k].imag() + w.imag() * twiddle[k].real());
        data[i + k] = u + v;
        data[i + k + len / 2] = u - v;
      }
    }
  }
}

}  // namespace tidepool::iteration
