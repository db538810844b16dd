// Autocorrelation by a forward FFT in decimation in frequency, the power spectrum and an inverse
// FFT in decimation in time, with no bit reversal between them (see fft.h).
#include "analyzer/iteration/fft.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace tidepool::iteration {
namespace {

using Complex = std::complex<float>;

// w^k for k in [begin, end), w = exp(sign * 2 pi i / len); each computed afresh, with no drift in
// floats.
std::vector<Complex> twiddles(std::size_t len, double sign, std::size_t begin, std::size_t end) {
  std::vector<Complex> w(end - begin);
  const double angle = sign * 2 * std::numbers::pi / static_cast<double>(len);
  for (std::size_t k = begin; k < end; ++k) {
    const double a = angle * static_cast<double>(k);
    w[k - begin] = {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
  }
  return w;
}

// Spelled out: std::complex's operator* checks for infinities and is several times slower.
Complex times(Complex a, Complex b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// The butterflies k in [ks.begin, ks.end) of every group of width len in [begin, end), w[k -
// ks.begin] their twiddles.
struct Butterflies {
  std::size_t begin, end;
};

// One level of the forward transform (Gentleman-Sande butterflies of width len) on [begin, end).
void forward_level(Complex* data, std::size_t begin, std::size_t end, std::size_t len,
                   Butterflies ks, const Complex* w) {
  const std::size_t half = len / 2;
  for (std::size_t i = begin; i < end; i += len) {
    for (std::size_t k = ks.begin; k < ks.end; ++k) {
      const Complex u = data[i + k], v = data[i + k + half];
      data[i + k] = u + v;
      data[i + k + half] = times(u - v, w[k - ks.begin]);
    }
  }
}

// One level of the inverse transform (Cooley-Tukey butterflies of width len) on [begin, end).
void inverse_level(Complex* data, std::size_t begin, std::size_t end, std::size_t len,
                   Butterflies ks, const Complex* w) {
  const std::size_t half = len / 2;
  for (std::size_t i = begin; i < end; i += len) {
    for (std::size_t k = ks.begin; k < ks.end; ++k) {
      const Complex u = data[i + k], v = times(data[i + k + half], w[k - ks.begin]);
      data[i + k] = u + v;
      data[i + k + half] = u - v;
    }
  }
}

// A level wider than a block, over the whole array: its twiddles are made a block's worth at a
// time, since the widest level's table alone would be as large as half the data.
template <class Level>
void wide_level(Complex* data, std::size_t n, std::size_t len, double sign, Level level) {
  for (std::size_t k = 0; k < len / 2; k += kFftBlock) {
    const Butterflies ks{k, std::min(len / 2, k + kFftBlock)};
    level(data, 0, n, len, ks, twiddles(len, sign, ks.begin, ks.end).data());
  }
}

// The twiddles of every level up to `block` wide, each level's at its own place in one table.
struct NarrowTwiddles {
  std::vector<Complex> table;
  std::vector<std::size_t> at;  // at[log2(len)]: where len's start

  NarrowTwiddles(std::size_t block, double sign) {
    for (std::size_t len = 2; len <= block; len <<= 1) {
      at.resize(static_cast<std::size_t>(std::countr_zero(len)) + 1);
      at.back() = table.size();
      const std::vector<Complex> w = twiddles(len, sign, 0, len / 2);
      table.insert(table.end(), w.begin(), w.end());
    }
  }
  const Complex* of(std::size_t len) const {
    return table.data() + at[static_cast<std::size_t>(std::countr_zero(len))];
  }
};

}  // namespace

void circular_autocorrelation(std::vector<Complex>& data) {
  const std::size_t n = data.size();
  auto power = [&] {  // spelled out too: std::norm goes through std::abs
    for (Complex& v : data) v = v.real() * v.real() + v.imag() * v.imag();
  };
  if (n < 2) return power();
  Complex* x = data.data();
  const std::size_t block = std::min(n, kFftBlock);

  // Forward: the wide levels over everything, then each block through its narrow levels.
  for (std::size_t len = n; len > block; len >>= 1) wide_level(x, n, len, -1, forward_level);
  const NarrowTwiddles forward(block, -1);
  for (std::size_t begin = 0; begin < n; begin += block)
    for (std::size_t len = block; len >= 2; len >>= 1)
      forward_level(x, begin, begin + block, len, {0, len / 2}, forward.of(len));

  power();  // the power spectrum, still in bit-reversed order

  // Inverse: each block through its narrow levels, then the wide levels over everything.
  const NarrowTwiddles inverse(block, 1);
  for (std::size_t begin = 0; begin < n; begin += block)
    for (std::size_t len = 2; len <= block; len <<= 1)
      inverse_level(x, begin, begin + block, len, {0, len / 2}, inverse.of(len));
  for (std::size_t len = block * 2; len <= n; len <<= 1) wide_level(x, n, len, 1, inverse_level);
}

}  // namespace tidepool::iteration
