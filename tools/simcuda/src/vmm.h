// Virtual memory management backed by real host mappings: physical allocations are memfd files,
// mapped with MAP_FIXED into reserved PROT_NONE ranges; access rights are page protections, so a
// kernel touching an unmapped or inaccessible page faults. The driver's rules are enforced.
#pragma once

#include <cstdint>
#include <optional>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/block_allocator.h"

namespace simcuda {

// The mapping containing address.
std::optional<Range> find_mapping(uint64_t address);
// Whether [address, address + bytes) is wholly covered by mappings.
bool mapped_range_contains(uint64_t address, uint64_t bytes);

CUresult vmm_address_reserve(uint64_t& address, uint64_t size, uint64_t alignment);
CUresult vmm_address_free(uint64_t address, uint64_t size);
CUresult vmm_create(CUmemGenericAllocationHandle& handle, uint64_t size, const CUmemAllocationProp& prop);
CUresult vmm_release(CUmemGenericAllocationHandle handle);
CUresult vmm_map(uint64_t address, uint64_t size, CUmemGenericAllocationHandle handle);
CUresult vmm_unmap(uint64_t address, uint64_t size);
CUresult vmm_set_access(uint64_t address, uint64_t size, CUmemAccess_flags flags);
CUresult vmm_get_access(uint64_t address, unsigned long long& flags);
CUresult vmm_retain(CUmemGenericAllocationHandle& handle, uint64_t address);
CUresult vmm_properties(CUmemAllocationProp& prop, CUmemGenericAllocationHandle handle);

}  // namespace simcuda
