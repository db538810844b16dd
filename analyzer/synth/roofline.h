// Kernel durations from a roofline model of a GPU: matrix work runs at a fraction of the dense
// tensor-core peak for the data type, everything else at a fraction of memory bandwidth.
#pragma once

#include <string>
#include <string_view>

namespace tidepool::synth {

enum class Dtype { bf16, fp32 };

int dtype_bytes(Dtype dtype);
Dtype parse_dtype(std::string_view text);  // "bf16" | "fp32"; std::invalid_argument otherwise

struct Gpu {
  std::string name;
  double bf16_flops = 0;  // dense tensor-core peak, FLOP/s (0: no bf16 support)
  double fp32_flops = 0;  // the peak fp32 training uses (TF32 tensor cores where there are any)
  double bytes_per_second = 0;
};

// "h200" (989 TFLOP/s bf16, 495 TF32, 4.8 TB/s), "a100" (312, 156, 2.04 TB/s SXM 80 GB),
// "v100" (no bf16, 15.7 TFLOP/s fp32, 0.9 TB/s). std::invalid_argument for anything else.
Gpu parse_gpu(std::string_view text);

struct Roofline {
  Gpu gpu;
  Dtype dtype = Dtype::bf16;
  double matmul_efficiency = 0.5;     // of the dtype's peak
  double bandwidth_efficiency = 0.7;  // of memory bandwidth
  // No kernel is shorter than a launch (1 us), however little work it does.
  static constexpr double kMinKernelSeconds = 1e-6;

  // Throws std::invalid_argument when the GPU lacks the dtype or an efficiency is not in (0, 1].
  void validate() const;
  // Matrix work: max(flops at the matmul rate, bytes at the bandwidth rate); other work: bytes.
  double seconds(double flops, double bytes, bool matmul) const;
};

}  // namespace tidepool::synth
