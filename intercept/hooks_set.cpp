// Hooks of memsets, 1D and 2D, synchronous and asynchronous: exact writes.
#include "intercept/copy_recording.h"
#include "intercept/hook_abi.h"

namespace tidepool::intercept {
namespace {

trace::Set set_1d(CUdeviceptr dst, size_t count, uint8_t element_bytes, bool async) {
  trace::Set s;
  s.dims = 1;
  s.element_bytes = element_bytes;
  s.bytes = static_cast<uint64_t>(count) * element_bytes;
  s.dst = range_of(dst, s.bytes);
  s.async = async;
  return s;
}

trace::Set set_2d(CUdeviceptr dst, size_t pitch, size_t width, size_t height, uint8_t element_bytes, bool async) {
  trace::Set s;
  s.dims = 2;
  s.element_bytes = element_bytes;
  const uint64_t row = static_cast<uint64_t>(width) * element_bytes;
  s.bytes = row * height;
  s.dst = range_of(dst, height == 0 ? 0 : (height - 1) * pitch + row);
  s.async = async;
  return s;
}

}  // namespace

CUresult on_cuMemsetD8(const Real<PFN_cuMemsetD8_v3020>& real, CUdeviceptr dst, unsigned char v, size_t n) {
  return record_transfer(set_1d(dst, n, 1, false), real.effective_stream(nullptr), [&] { return real(dst, v, n); });
}

CUresult on_cuMemsetD16(const Real<PFN_cuMemsetD16_v3020>& real, CUdeviceptr dst, unsigned short v, size_t n) {
  return record_transfer(set_1d(dst, n, 2, false), real.effective_stream(nullptr), [&] { return real(dst, v, n); });
}

CUresult on_cuMemsetD32(const Real<PFN_cuMemsetD32_v3020>& real, CUdeviceptr dst, unsigned int v, size_t n) {
  return record_transfer(set_1d(dst, n, 4, false), real.effective_stream(nullptr), [&] { return real(dst, v, n); });
}

CUresult on_cuMemsetD2D8(const Real<PFN_cuMemsetD2D8_v3020>& real, CUdeviceptr dst, size_t pitch, unsigned char v,
                         size_t w, size_t h) {
  return record_transfer(set_2d(dst, pitch, w, h, 1, false), real.effective_stream(nullptr),
                         [&] { return real(dst, pitch, v, w, h); });
}

CUresult on_cuMemsetD2D16(const Real<PFN_cuMemsetD2D16_v3020>& real, CUdeviceptr dst, size_t pitch, unsigned short v,
                          size_t w, size_t h) {
  return record_transfer(set_2d(dst, pitch, w, h, 2, false), real.effective_stream(nullptr),
                         [&] { return real(dst, pitch, v, w, h); });
}

CUresult on_cuMemsetD2D32(const Real<PFN_cuMemsetD2D32_v3020>& real, CUdeviceptr dst, size_t pitch, unsigned int v,
                          size_t w, size_t h) {
  return record_transfer(set_2d(dst, pitch, w, h, 4, false), real.effective_stream(nullptr),
                         [&] { return real(dst, pitch, v, w, h); });
}

CUresult on_cuMemsetD8Async(const Real<PFN_cuMemsetD8Async_v3020>& real, CUdeviceptr dst, unsigned char v, size_t n,
                            CUstream stream) {
  return record_transfer(set_1d(dst, n, 1, true), real.effective_stream(stream),
                         [&] { return real(dst, v, n, stream); });
}

CUresult on_cuMemsetD16Async(const Real<PFN_cuMemsetD16Async_v3020>& real, CUdeviceptr dst, unsigned short v,
                             size_t n, CUstream stream) {
  return record_transfer(set_1d(dst, n, 2, true), real.effective_stream(stream),
                         [&] { return real(dst, v, n, stream); });
}

CUresult on_cuMemsetD32Async(const Real<PFN_cuMemsetD32Async_v3020>& real, CUdeviceptr dst, unsigned int v, size_t n,
                             CUstream stream) {
  return record_transfer(set_1d(dst, n, 4, true), real.effective_stream(stream),
                         [&] { return real(dst, v, n, stream); });
}

CUresult on_cuMemsetD2D8Async(const Real<PFN_cuMemsetD2D8Async_v3020>& real, CUdeviceptr dst, size_t pitch,
                              unsigned char v, size_t w, size_t h, CUstream stream) {
  return record_transfer(set_2d(dst, pitch, w, h, 1, true), real.effective_stream(stream),
                         [&] { return real(dst, pitch, v, w, h, stream); });
}

CUresult on_cuMemsetD2D16Async(const Real<PFN_cuMemsetD2D16Async_v3020>& real, CUdeviceptr dst, size_t pitch,
                               unsigned short v, size_t w, size_t h, CUstream stream) {
  return record_transfer(set_2d(dst, pitch, w, h, 2, true), real.effective_stream(stream),
                         [&] { return real(dst, pitch, v, w, h, stream); });
}

CUresult on_cuMemsetD2D32Async(const Real<PFN_cuMemsetD2D32Async_v3020>& real, CUdeviceptr dst, size_t pitch,
                               unsigned int v, size_t w, size_t h, CUstream stream) {
  return record_transfer(set_2d(dst, pitch, w, h, 4, true), real.effective_stream(stream),
                         [&] { return real(dst, pitch, v, w, h, stream); });
}

}  // namespace tidepool::intercept
