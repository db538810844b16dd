// Typed CPU twins for the example kernels: a twin is an ordinary function
//   simcuda::Work twin(const simcuda::LaunchShape&, <the kernel's parameters>)
// and SIMCUDA_TWIN(kernel_name, twin) registers it with the parameter layout (CUDA ABI offsets:
// each parameter at its natural alignment) derived from that signature, unpacking cuLaunchKernel's
// parameter array into a typed call. The parameter list is thus written once per side.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "simcuda/kernel.h"

namespace simcuda::twin {

template <typename... Args>
constexpr std::array<Param, sizeof...(Args)> layout_of() {
  std::array<Param, sizeof...(Args)> params{};
  uint32_t offset = 0;
  size_t index = 0;
  auto place = [&](uint32_t size, uint32_t align) {
    offset = (offset + align - 1) / align * align;
    params[index++] = Param{offset, size};
    offset += size;
  };
  (place(sizeof(Args), alignof(Args)), ...);
  return params;
}

template <typename T>
T load(const void* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

template <auto Function>
struct Twin;

template <typename... Args, Work (*Function)(const LaunchShape&, Args...)>
struct Twin<Function> {
  static constexpr std::array<Param, sizeof...(Args)> params = layout_of<Args...>();

  static Work body(const LaunchShape& shape, void* const* values) {
    return call(shape, values, std::index_sequence_for<Args...>{});
  }

 private:
  template <size_t... I>
  static Work call(const LaunchShape& shape, void* const* values, std::index_sequence<I...>) {
    return Function(shape, load<Args>(values[I])...);
  }
};

}  // namespace simcuda::twin

#define SIMCUDA_TWIN(kernel_name, function)                             \
  SIMCUDA_KERNEL(kernel_name, ::simcuda::twin::Twin<&function>::params, \
                 &::simcuda::twin::Twin<&function>::body)
