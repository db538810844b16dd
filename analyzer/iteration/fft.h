// An in-place iterative radix-2 complex FFT in single precision: enough to rank the lags of a symbol
// stream's autocorrelation (the candidates are then scored exactly), at half the memory traffic.
#pragma once

#include <complex>
#include <vector>

namespace tidepool::iteration {

// `data.size()` must be a power of two. The inverse is unnormalised (scaled by data.size()).
void fft(std::vector<std::complex<float>>& data, bool inverse);

}  // namespace tidepool::iteration
