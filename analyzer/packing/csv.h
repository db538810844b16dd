// minimalloc's CSV format for packing problems: a header line, then one row per live interval,
//   id,lower,upper,size[,alignment][,offset]
// with half-open [lower, upper) lifetimes. alignment defaults to 1 in CSV files; offset is an
// output and is ignored on input. Rows that share an id are one item with several intervals (they
// must agree on size and alignment).
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

// A malformed CSV file; what() is one line: "<name>:<line>: <what is wrong>".
struct CsvError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses CSV text; `name` (a file name) prefixes error messages. The result is validated and
// normalized.
Problem parse_csv(std::string_view text, std::string_view name);

// Reads and parses a CSV file (CsvError if it cannot be read).
Problem read_csv(const std::string& path);

// Writes the problem (and the offsets of `solution`, when given) in the format above, with the
// alignment column always present.
void write_csv(std::ostream& out, const Problem& problem, const Solution* solution = nullptr);

}  // namespace tidepool::packing
