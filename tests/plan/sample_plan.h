// A small valid plan with every section and optional field, for the plan file tests.
#pragma once

#include "analyzer/plan/plan.h"

namespace tidepool::plan::testing {

inline Plan sample_plan() {
  Plan p;
  p.source = {"runs/train.host.42.tpt", "train", false};
  p.fingerprint = "fnv1a64:0123456789abcdef";
  p.iteration.boundary = BoundaryKind::nvtx_range;
  p.iteration.name = "train_step";
  p.iteration.events = 10;
  p.iteration.allocations = 3;
  p.iteration.operations = 4;
  p.iteration.anchor = {{AnchorEvent::Kind::alloc, 4096, {}}, {AnchorEvent::Kind::kernel, 0, "gemm"}};
  p.iteration.iterations_seen = 7;
  p.iteration.regularity = 6.0 / 7.0;
  PoolSection pool;
  pool.solver = "best";
  pool.arena_bytes = 8192;
  pool.lower_bound_bytes = 8192;
  pool.persistent_bytes = 1 << 20;
  pool.slots = {{0, 4096, 0, 0, 5}, {1, 4000, 4096, 2, 9}, {2, 4096, 0, 5, 10}};
  p.pool = pool;
  SwapSection swap;
  swap.planner = "best";
  swap.link = "pcie5";
  swap.planned_peak_bytes = 123456789;
  swap.simulated_slowdown_pct = 0.5;
  swap.operations = {{{BufferRef::Scope::iteration, 1, 4000}, 0, 2, 3, true, std::nullopt},
                     {{BufferRef::Scope::program, 17, 1 << 20}, 3, 0, 1, false, 2}};
  p.swap = swap;
  return p;
}

}  // namespace tidepool::plan::testing
