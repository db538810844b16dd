// Where an address range lives, under unified addressing: device memory, pinned host memory,
// ordinary (pageable) host memory, or nowhere valid.
#pragma once

#include <cstdint>

namespace simcuda {

enum class Where { device, pinned_host, pageable_host, invalid };

// device: inside one live allocation, VMM mapping or managed allocation; invalid: in the device
// range (or starting in managed memory) but not so.
Where classify(uint64_t address, uint64_t bytes);

}  // namespace simcuda
