// What `tidepool bench e2e` prints: a table with a row per run, then every failed run with its
// error; or, with --json, one array of objects (keys in docs/optimize.md).
#pragma once

#include <span>

#include "bench_e2e_matrix.h"

namespace tidepool::cli {

void print_e2e_table(std::span<const E2eRow> rows);
void print_e2e_json(std::span<const E2eRow> rows);

}  // namespace tidepool::cli
