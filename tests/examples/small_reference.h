// Plain CPU references of the small examples' results (multistream, async_alloc, and the
// table-driven pair), computed from their shared per-element math without simcuda or the driver:
// each returns the checksum the example must print.
#pragma once

#include <cstdint>

namespace examples_test {

uint64_t multistream_reference(int stages, int iterations, long long elements, uint64_t seed);
uint64_t async_alloc_reference(int iterations, long long elements, uint64_t seed);
uint64_t table_driven_reference(int iterations, long long elements, uint64_t seed);

}  // namespace examples_test
