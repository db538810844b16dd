// The text form of trace records, one line each, as `tidepool dump` prints them:
//   #12 t=1503ns tid=4242 alloc alloc_id=3 kind=device address=0x7f0000000000 size=1048576 ...
// Handles print in hex, string ids with their text.
#pragma once

#include <string>

#include "analyzer/trace/trace.h"

namespace tidepool::trace {

std::string to_text(const Trace& trace, const Event& event);
std::string to_text(const Header& header);
std::string to_text(const Module& module);
std::string to_text(const Stack& stack);

}  // namespace tidepool::trace
