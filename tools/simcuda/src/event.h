// Events: each remembers its latest record, an operation on the recording stream.
#pragma once

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/op.h"

namespace simcuda {

// The event's latest record at this moment (nullptr when never recorded), or CUDA_ERROR_INVALID_HANDLE.
CUresult latest_record(CUevent event, OpPtr& record);

}  // namespace simcuda
