// Call stacks at allocations: return addresses of the program's frames (ours are skipped),
// innermost first. Uses libgcc's unwinder, linked statically into libtidepool.so (Debian's
// libunwind.a is not position-independent, so it cannot go into a shared object).
#pragma once

#include <cstdint>
#include <span>

namespace tidepool::runtime {

inline constexpr size_t kMaxStackFrames = 48;

// Fills `frames` and returns how many were taken.
size_t capture_call_stack(std::span<uint64_t, kMaxStackFrames> frames);

}  // namespace tidepool::runtime
