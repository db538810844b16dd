// The swap planner's view of one training iteration: the operations (kernels, copies, sets) in
// host issue order, on their streams, with durations and cross-stream dependencies; and every
// buffer with its size, lifetime and accesses. Positions are indices into Model::ops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tidepool::swap {

using Bytes = std::uint64_t;

// Swapped buffers live in their own virtual-memory mapping, charged at the driver's granularity.
inline constexpr Bytes kMapGranularity = Bytes{2} << 20;
constexpr Bytes rounded_to_granularity(Bytes bytes) {
  return (bytes + kMapGranularity - 1) / kMapGranularity * kMapGranularity;
}

enum class OpKind : std::uint8_t { kernel, copy, set };

// What runs an op on the device: one compute engine shared by every stream (kernels, sets,
// device-to-device copies), and one copy engine per direction, which swaps share.
enum class Engine : std::uint8_t { compute, host_to_device, device_to_host };

struct Op {
  OpKind kind = OpKind::kernel;
  std::uint32_t stream = 0;          // streams are numbered densely from 0
  double seconds = 0;                // device duration
  std::vector<std::uint32_t> after;  // earlier ops (other streams) this one waits for
  std::string name;                  // for reports: the kernel or the copy kind
  Engine engine = Engine::compute;
  // Earlier ops the host waited for before issuing this one (synchronous copies and frees,
  // stream, event and context synchronizations): it cannot start before they have ended.
  std::vector<std::uint32_t> host_waits;
  std::uint64_t trace_op_id = 0;  // the launch, copy or set in the trace it came from (0: none)
  bool operator==(const Op&) const = default;
};

// One access of a buffer by an operation. Kernels' accesses always count as writes (a kernel's
// parameter scan cannot tell reads from writes); copies and sets are exact.
struct Access {
  std::uint32_t op = 0;
  bool write = true;
  bool by_kernel = true;
  bool operator==(const Access&) const = default;
};

struct Buffer {
  Bytes size = 0;
  // Lives over ops [begin, end): allocated before op `begin` is issued, freed before op `end`.
  // Persistent buffers (weights, optimizer state) live over the whole iteration and beyond.
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool persistent = false;
  // Never swapped: referenced through a pointer in device memory, live at a launch whose
  // accesses could not be seen, its address queried or exported, accessed differently in other
  // recorded iterations, or otherwise not identifiable by the runtime from one iteration to the next.
  bool never_swapped = false;
  std::vector<Access> accesses;   // ascending by op
  std::uint64_t trace_alloc_id = 0;  // the allocation in the trace it came from (0: none)
  bool operator==(const Buffer&) const = default;
};

struct Model {
  std::vector<Op> ops;
  std::vector<Buffer> buffers;
  bool durations_estimated = false;  // the trace had no device timings; a cost model filled them
  bool operator==(const Model&) const = default;
};

// The most the buffers' sizes may add up to, as packing::kMaxTotalBytes (packing/problem.h): sums
// of live bytes, sizes rounded to kMapGranularity and the pool's packing stay inside 64 bits.
inline constexpr Bytes kMaxTotalBytes = Bytes{1} << 61;

// Throws std::invalid_argument naming the first problem: an empty model, a negative or
// non-finite duration, a dependency on a later op, a buffer of size 0, buffers whose sizes add up
// past kMaxTotalBytes (a corrupt trace), a lifetime outside the ops, an access outside the
// buffer's lifetime or out of order, a host wait on a later op.
void validate(const Model& model);

// The total size of the buffers live at each op (persistent ones included), unrounded.
std::vector<Bytes> live_bytes_per_op(const Model& model);

}  // namespace tidepool::swap
