// The circular autocorrelation of a complex sequence by FFT, in single precision: enough to rank
// the lags of a symbol stream's autocorrelation (the candidates are then scored exactly), at half
// the memory traffic of doubles.
//
// Only the autocorrelation is asked for, so neither transform reorders: the forward one
// (decimation in frequency) leaves the spectrum in bit-reversed order, the power is taken there,
// and the inverse (decimation in time) takes bit-reversed input back to natural order. Levels
// whose butterflies span at most kFftBlock values run block by block, all of them on one block
// while it is in cache; only the wider levels pass over the whole array.
#pragma once

#include <complex>
#include <cstddef>
#include <vector>

namespace tidepool::iteration {

inline constexpr std::size_t kFftBlock = std::size_t{1} << 14;  // 128 KiB of complex floats

// data[lag] becomes size * sum_i data[(i + lag) % size] * conj(data[i]), for every lag; size
// (`data.size()`) must be a power of two.
void circular_autocorrelation(std::vector<std::complex<float>>& data);

}  // namespace tidepool::iteration
