// The terminal report: a table with a row per process, then each process in detail.
#pragma once

#include <span>
#include <string>

#include "analyzer/report/report.h"

namespace tidepool::report {

std::string text_report(std::span<const ProcessReport> processes);

}  // namespace tidepool::report
