// Failures on demand (SIMCUDA_OOM_RATE): a request for memory answered "out of memory" as if
// another process had taken the memory for a moment, so that tests can check what a program and
// the layers between it and the driver do when the driver says no.
#pragma once

namespace simcuda {

// Whether this request for device or pinned host memory fails. Each call is one draw, in a
// sequence fixed by the setting's seed; counted in SIMCUDA_STATS' "injected_out_of_memory".
bool inject_out_of_memory();

}  // namespace simcuda
