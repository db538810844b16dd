// GPU presets, data types and the roofline duration model.
#include "analyzer/synth/roofline.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tidepool::synth {

int dtype_bytes(Dtype dtype) { return dtype == Dtype::bf16 ? 2 : 4; }

Dtype parse_dtype(std::string_view text) {
  if (text == "bf16") return Dtype::bf16;
  if (text == "fp32") return Dtype::fp32;
  throw std::invalid_argument("unknown dtype '" + std::string(text) + "': use bf16 or fp32");
}

Gpu parse_gpu(std::string_view text) {
  if (text == "h200") return {"h200", 989e12, 494.5e12, 4.8e12};
  if (text == "a100") return {"a100", 312e12, 156e12, 2.039e12};
  if (text == "v100") return {"v100", 0, 15.7e12, 0.9e12};
  throw std::invalid_argument("unknown gpu '" + std::string(text) + "': use h200, a100 or v100");
}

void Roofline::validate() const {
  if (dtype == Dtype::bf16 && gpu.bf16_flops <= 0)
    throw std::invalid_argument(gpu.name + " has no bf16 tensor cores: use --dtype fp32");
  if (!(matmul_efficiency > 0 && matmul_efficiency <= 1))
    throw std::invalid_argument("the matmul efficiency must be in (0, 1]");
  if (!(bandwidth_efficiency > 0 && bandwidth_efficiency <= 1))
    throw std::invalid_argument("the bandwidth efficiency must be in (0, 1]");
}

double Roofline::seconds(double flops, double bytes, bool matmul) const {
  const double memory = bytes / (gpu.bytes_per_second * bandwidth_efficiency);
  double t = memory;
  if (matmul) {
    const double peak = dtype == Dtype::bf16 ? gpu.bf16_flops : gpu.fp32_flops;
    t = std::max(memory, flops / (peak * matmul_efficiency));
  }
  return std::max(t, kMinKernelSeconds);
}

}  // namespace tidepool::synth
