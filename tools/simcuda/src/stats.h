// The ground-truth counters written to SIMCUDA_STATS at exit (see README.md for the rules).
#pragma once

#include <cstdint>

namespace simcuda {

// A successful device allocation of `requested` bytes (pitch x height for pitched ones).
void stats_allocation(uint64_t requested);
// A successful release of such an allocation.
void stats_free(uint64_t requested);
// simcuda's own device bytes (rounded heap blocks, pool reservations, VMM physical memory).
void stats_device_bytes(int64_t delta);
void stats_kernel_launch();
enum class CopyKind { host_to_device, device_to_host, device_to_device, set };
void stats_copy(CopyKind kind, uint64_t bytes);
void stats_host_pinned(int64_t delta);
// Managed memory (cuMemAllocManaged), counted apart from device memory.
void stats_managed(int64_t delta);
// A memory request that SIMCUDA_OOM_RATE failed.
void stats_injected_out_of_memory();

// Writes the JSON object to SIMCUDA_STATS (when set) once; called at exit.
void write_stats_file(int64_t simulated_time_ns);

}  // namespace simcuda
