// Writes a synthetic program as a tidepool trace: persistent tensors allocated up front, then
// `iterations` training iterations, each inside an NVTX range named kIterationRange, where every
// other tensor is allocated just before its first use and freed right after its last use (a
// framework that frees each tensor after its last use). Kernels and copies carry device timings
// from the roofline; the header is marked synthetic.
#pragma once

#include <filesystem>
#include <string>

#include "analyzer/synth/program.h"

namespace tidepool::synth {

inline constexpr const char* kIterationRange = "iteration";

// Throws std::runtime_error (one line, naming the path) when the file cannot be written, and
// std::invalid_argument when iterations < 1.
void write_trace(const Program& program, int iterations, const std::string& source,
                 const std::filesystem::path& path);

}  // namespace tidepool::synth
