// An independent check of a packing: it shares no code with the solvers. A solution is valid when
// it has one non-negative, aligned offset per item, no two items live at a common time overlap in
// address, and its height is exactly the highest item end.
#pragma once

#include <string>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

struct Verdict {
  bool valid = false;
  std::string reason;  // empty when valid; otherwise the first problem found, in one line
};

Verdict check(const Problem& problem, const Solution& solution);

}  // namespace tidepool::packing
