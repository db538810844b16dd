// A tidepool plan: what `tidepool plan` writes and the runtime enforces (docs/plan-format.md).
// One training iteration of one program: how to recognise its boundary, a fingerprint to check
// that a running program still matches, the pool (slot → offset) and the swaps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tidepool::plan {

inline constexpr std::uint32_t kPlanFormatVersion = 1;

// Where the plan came from (informative; the fingerprint is what the runtime checks).
struct Source {
  std::string trace;    // the trace file's path as given
  std::string program;  // the traced program's name
  bool synthetic = false;
  bool operator==(const Source&) const = default;
};

enum class BoundaryKind { period, nvtx_range, kernel };

// One event of the iteration as the runtime sees it: an allocation of `bytes`, or a launch of
// the kernel `kernel`.
struct AnchorEvent {
  enum class Kind { alloc, kernel } kind = Kind::alloc;
  std::uint64_t bytes = 0;  // alloc
  std::string kernel;       // kernel
  bool operator==(const AnchorEvent&) const = default;
};

struct IterationDescription {
  BoundaryKind boundary = BoundaryKind::period;
  std::string name;                  // the NVTX range or kernel that starts each iteration
  std::uint64_t events = 0;          // allocations, frees, launches, copies and sets per iteration
  std::uint64_t allocations = 0;     // allocations per iteration
  std::uint64_t operations = 0;      // launches, copies and sets per iteration
  std::vector<AnchorEvent> anchor;   // the iteration's first allocations and launches, in order
  std::uint64_t iterations_seen = 0;
  double regularity = 0;             // fraction of iterations seen that matched exactly
  bool operator==(const IterationDescription&) const = default;
};

// An allocation of the iteration (its ordinal among the iteration's allocations) served from the
// arena at `offset`, live over the iteration's events [begin, end) (alloc to free).
struct Slot {
  std::uint64_t ordinal = 0;
  std::uint64_t bytes = 0;
  std::uint64_t offset = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool operator==(const Slot&) const = default;
};

struct PoolSection {
  std::string solver;
  std::uint64_t alignment = 256;
  std::uint64_t arena_bytes = 0;        // the packing's height
  std::uint64_t lower_bound_bytes = 0;  // most bytes of the slots live at once
  std::uint64_t persistent_bytes = 0;   // live at the iteration's start, outside the arena
  std::vector<Slot> slots;              // ascending ordinals
  bool operator==(const PoolSection&) const = default;
};

// A buffer a swap moves: an allocation of the iteration (scope iteration, its ordinal among the
// iteration's allocations) or one made before it (scope program, its ordinal among all the
// program's allocations since it started).
struct BufferRef {
  enum class Scope { iteration, program } scope = Scope::iteration;
  std::uint64_t ordinal = 0;
  std::uint64_t bytes = 0;
  bool operator==(const BufferRef&) const = default;
};

// Operations (`*_op`) are the iteration's launches, copies and sets, numbered from 0 at its start.
struct SwapOperation {
  BufferRef buffer;
  std::uint64_t out_after_op = 0;  // copied out after this access
  std::uint64_t in_at_op = 0;      // copy back issued when this operation is issued
  std::uint64_t needed_by_op = 0;  // the next access, which waits for the copy back
  bool copy_out = true;            // false: the host copy is still current, just unmap
  std::optional<std::uint64_t> release_before_op;  // waits until the swap-out has completed
  bool operator==(const SwapOperation&) const = default;
};

struct SwapSection {
  std::string planner;
  std::string link;                      // pcie4, pcie5, nvlink-c2c, or GB/s
  std::uint64_t planned_peak_bytes = 0;  // simulated
  double simulated_slowdown_pct = 0;
  std::vector<SwapOperation> operations;
  bool operator==(const SwapSection&) const = default;
};

struct Plan {
  std::uint32_t version = kPlanFormatVersion;
  Source source;
  std::string fingerprint;  // "fnv1a64:" + 16 hex digits (see fingerprint.h)
  IterationDescription iteration;
  std::optional<PoolSection> pool;
  std::optional<SwapSection> swap;
  bool operator==(const Plan&) const = default;
};

}  // namespace tidepool::plan
