// The `paper` planner: SwapGPU::Plan of apache/singa pull request 412 (the swapping of Zhang et
// al., arXiv 1903.06631), over this model and link, with its three known bugs fixed:
//  - candidates are gaps of at least 1 MB (2^20 bytes) across the peak op (load = bytes live per
//    op), ranked by a vote: the sum of their ranks by absence time (DOA_origin), by absence x size
//    (AOA, with DOA = absence - swap-out time - swap-in time: the original subtracted the swap-out
//    time twice) and by load-weighted absence (WDOA = sum over the absent ops of load - limit: the
//    original computed it on a copy and never stored it), taken greedily until the peak of the
//    updated load is below the limit;
//  - then scheduled "no-overhead" (swap-outs as soon as the previous one is done, swap-ins as
//    late as the link allows, in reverse) or "stick-to-limit" (swap-outs synchronized before the
//    load would exceed the limit, swap-ins not before the load allows): every synchronization
//    waits on the event of its own direction (the original swapped them).
#pragma once

#include <memory>
#include <vector>

#include "analyzer/swap/link.h"
#include "analyzer/swap/model.h"
#include "analyzer/swap/simulator.h"
#include "analyzer/swap/swap_op.h"

namespace tidepool::swap {

enum class PaperScheduling { no_overhead, stick_to_limit };

inline constexpr Bytes kPaperSmallestBlock = Bytes{1} << 20;

// The paper's planner over one model for any number of limits: its candidates and their
// limit-free ranks are found once.
class PaperPlanner {
 public:
  PaperPlanner(const Model& model, const Link& link, const Simulation& baseline);
  ~PaperPlanner();
  PaperPlanner(const PaperPlanner&) = delete;
  PaperPlanner& operator=(const PaperPlanner&) = delete;
  std::vector<SwapOp> plan(Bytes limit, PaperScheduling scheduling);

 private:
  class State;
  std::unique_ptr<State> state_;
};

// The swaps the paper's policy picks to bring the peak under `limit` bytes, with the op times of
// `baseline` (the simulation without swaps).
std::vector<SwapOp> paper_plan(const Model& model, const Link& link, const Simulation& baseline,
                               Bytes limit, PaperScheduling scheduling);

}  // namespace tidepool::swap
