// Swap operations, the planners' output, and the rules every plan obeys: a buffer goes out after
// one access and comes back before the next one, never across an access. For persistent buffers
// the iteration is a cycle: a swap may go out after the last access and come back before the
// first access of the next iteration.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analyzer/swap/model.h"

namespace tidepool::swap {

struct SwapOp {
  std::uint32_t buffer = 0;
  std::uint32_t out_after = 0;  // the op of the access after which the buffer is copied out
  std::uint32_t in_at = 0;      // the op at whose issue the copy back is issued
  std::uint32_t needed_by = 0;  // the op of the next access, which waits for the copy back
  // False when the host copy is still current (only copies read the buffer since it came back):
  // the buffer is unmapped without a second copy out.
  bool copy_out = true;
  // An op that waits until the swap-out completed (its memory is released before it runs).
  std::optional<std::uint32_t> release_before;
  friend bool operator==(const SwapOp&, const SwapOp&) = default;
};

// An idle stretch of one buffer between two consecutive accesses (cyclically for persistent
// buffers): a place where a swap can go.
struct Gap {
  std::uint32_t buffer = 0;
  std::uint32_t after = 0;   // op of the access that opens the gap
  std::uint32_t before = 0;  // op of the access that closes it (<= after when it wraps)
};

// Steps from op `from` forward to op `to` on the cycle of `n` ops, in 1..n (to == from: n).
inline std::uint32_t cyclic_steps(std::uint32_t from, std::uint32_t to, std::uint32_t n) {
  if (from >= n || to >= n) {  // not positions of the cycle: the arithmetic form
    const std::uint32_t d = (to + n - from) % n;
    return d == 0 ? n : d;
  }
  return to > from ? to - from : to + n - from;  // planners call this in loops: no division
}

// Every gap of every buffer that may be swapped (not never_swapped, at least min_size bytes).
std::vector<Gap> swappable_gaps(const Model& model, Bytes min_size);

// Throws std::invalid_argument naming the first operation that breaks a rule: an unknown or
// never-swapped buffer, a swap-out not after an access, a swap-in issued outside the gap
// or after the access it serves, a release point after the swap-in, two swaps of one gap.
void check_swap_ops(const Model& model, std::span<const SwapOp> ops);

// Sets copy_out on every op: false when every access since the buffer's previous swap-in was a
// read by a copy (the host still holds the data), true otherwise. A non-persistent buffer's first
// swap-out always copies (its data was made this iteration).
void mark_clean_swap_outs(const Model& model, std::vector<SwapOp>& ops);

}  // namespace tidepool::swap
