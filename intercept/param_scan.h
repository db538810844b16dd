// Access inference at a launch: every aligned 8-byte word of the packed parameter bytes is looked
// up in the live allocation map; a word pointing into an allocation (at its start or inside it)
// makes the launch touch that allocation. Pointers inside struct parameters count too.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/trace/format.h"
#include "intercept/function_info.h"
#include "runtime/live_allocations.h"

namespace tidepool::intercept {

// Adds the allocation `word` points into to `out` (one entry per allocation: the lowest offset,
// interior when any pointer was past the first byte).
void note_pointer(runtime::LiveAllocations::Reader& live, uint64_t word, std::vector<trace::Access>& out);

// Scans the parameters given as kernelParams (one pointer per parameter, layout from `info`).
// Returns false when the layout is unknown (nothing scanned).
bool scan_kernel_params(const runtime::LiveAllocations& map, const FunctionInfo& info, void* const* params,
                        std::vector<trace::Access>& out);

// Scans a packed parameter buffer (the `extra` form, and the scan of H2D payloads uses the same
// word walk).
void scan_packed(const runtime::LiveAllocations& map, const void* bytes, uint64_t size, std::vector<trace::Access>& out);

// Decodes the `extra` array of cuLaunchKernel; false when it holds no parameter buffer.
bool scan_extra(const runtime::LiveAllocations& map, void* const* extra, std::vector<trace::Access>& out);

}  // namespace tidepool::intercept
