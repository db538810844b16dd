// Test helpers: records with every field set to a distinct non-default value, a writer that
// returns the file's bytes, and bytes written to a file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <vector>

#include "analyzer/trace/format.h"
#include "analyzer/trace/writer.h"

namespace tidepool::trace::testing {

Header sample_header();
// One event of every record type, seq 1..N in order.
std::vector<Event> one_event_of_each_kind();

// Writes bytes to path (replacing it) and returns path.
std::filesystem::path write_file(const std::filesystem::path& path, std::span<const uint8_t> bytes);

// Runs body on a Writer over a temporary file (after begin(header)), flushes, and returns the
// file's bytes.
std::vector<uint8_t> write_bytes(const Header& header, size_t chunk_bytes,
                                 const std::function<void(Writer&)>& body);

}  // namespace tidepool::trace::testing
