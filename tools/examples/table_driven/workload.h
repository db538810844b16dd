// The workload shared by the table-driven examples: an iteration loop that allocates two vectors,
// fills one, sets the other, runs an axpy and per-block sums of squares, copies the sums back and
// frees everything; every driver call goes through a DriverTable. Prints "checksum: ..." on stdout
// and the bookkeeping line on stderr.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string_view>

#include "tools/examples/table_driven/driver_table.h"

namespace table_driven {

struct WorkloadConfig {
  int iterations;
  long long elements;
  uint64_t seed;
  // Work on a stream the workload creates; otherwise on stream handle 0, which is the per-thread
  // default stream when the table holds per-thread (_ptsz) entry points.
  bool own_stream;
};

void run_workload(std::string_view program, const DriverTable& driver,
                  const WorkloadConfig& config);

}  // namespace table_driven
