// Test helpers: records with every field set to a distinct non-default value, and a writer that
// returns the file's bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analyzer/trace/format.h"
#include "analyzer/trace/writer.h"

namespace tidepool::trace::testing {

Header sample_header();
// One event of every record type, seq 1..N in order.
std::vector<Event> one_event_of_each_kind();

// Runs body on a Writer over a temporary file (after begin(header)), flushes, and returns the
// file's bytes.
std::vector<uint8_t> write_bytes(const Header& header, size_t chunk_bytes,
                                 const std::function<void(Writer&)>& body);

}  // namespace tidepool::trace::testing
