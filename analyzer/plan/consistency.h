// The checks a plan must pass beyond its syntax, so that the runtime can trust what it reads:
// a well-formed fingerprint, slots inside the arena, aligned, and never two live at once on the
// same bytes, and swap operations inside the iteration and in order.
#pragma once

#include <string_view>

#include "analyzer/plan/plan.h"

namespace tidepool::plan {

// Throws PlanError "<origin>: <field>: <what is wrong>".
void check_consistency(const Plan& plan, std::string_view origin);

}  // namespace tidepool::plan
