// Device times from CUPTI (`tidepool run --cupti`, TIDEPOOL_CUPTI=1): libcupti from the CUDA
// toolkit is opened at run time (never linked), its activity API records concurrent kernels
// (never the kind that serializes them), copies and sets, and each record is matched with the
// recorded operation through the op id pushed as an external correlation id around the real
// call, or, for a program on the CUDA runtime, through the runtime call it was made inside
// (cupti_correlation.h). When CUPTI cannot be used (not found, or the driver does not
// support it, as on simcuda) one warning says so and device times come from events instead.
//
// CUPTI's own driver calls are not the program's: our calls into CUPTI run inside a hook scope,
// and a thread of CUPTI's own that runs our buffer callbacks is marked for good, so that the
// driver calls it makes pass straight through unrecorded (HookScope::Callback).
#pragma once

#include <cstdint>

namespace tidepool::intercept {

// Whether CUPTI supplies device times (asked of the settings and CUPTI once, at first use).
bool cupti_timing_active();

// Pushes `op_id` as the external correlation id of the calling thread's next driver call.
void cupti_push_operation(uint64_t op_id);
void cupti_pop_operation();

// Has CUPTI hand over every record it holds (at synchronizations at most every 200 ms; always
// at exit and before an exec). Nothing when CUPTI was not started.
void cupti_flush(bool always);

}  // namespace tidepool::intercept
