// Where this process's trace goes: `<program>.<host>.<pid>[.<rank>].tpt` in the output directory,
// created exclusively unless overwriting was asked for, and the header that starts it.
#pragma once

#include <string>

#include "analyzer/trace/format.h"
#include "runtime/settings.h"

namespace tidepool::runtime {

// The header of this process's trace (pid, host, program, command line, rank, start time).
trace::Header make_header(const Settings& settings, int driver_version);

// The file name (without directory) for a header.
std::string trace_file_name(const trace::Header& header);
// Where this process's trace goes: the output directory and trace_file_name.
std::string trace_file_path(const Settings& settings, const trace::Header& header);

// Opens the trace file at `path` (trace_file_path), exclusively unless `overwrite`; returns the
// descriptor, or -1 after printing one line saying why.
int open_trace_file(const std::string& path, bool overwrite);

}  // namespace tidepool::runtime
