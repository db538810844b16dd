// The JSON report, schema in docs/report-format.md: {"tidepool_report_version": 1,
// "processes": [...]}, one object per process with its counts, lists and sites.
#pragma once

#include <span>
#include <string>

#include "analyzer/report/report.h"

namespace tidepool::report {

inline constexpr int kReportFormatVersion = 1;
inline constexpr size_t kMaxJsonListEntries = 100;  // live_at_peak, leaks, kernels

// Pretty-printed, ending with a newline.
std::string json_report(std::span<const ProcessReport> processes);

}  // namespace tidepool::report
