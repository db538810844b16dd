// Reading and writing minimalloc's CSV format (see csv.h).
#include "analyzer/packing/csv.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <vector>

namespace tidepool::packing {
namespace {

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    std::string_view field = line.substr(start, comma == std::string_view::npos ? comma : comma - start);
    while (!field.empty() && (field.front() == ' ' || field.front() == '\t')) field.remove_prefix(1);
    while (!field.empty() && (field.back() == ' ' || field.back() == '\t')) field.remove_suffix(1);
    fields.push_back(field);
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

class Parser {
 public:
  explicit Parser(std::string_view name) : name_(name) {}

  [[noreturn]] void fail(std::size_t line, const std::string& what) const {
    throw CsvError(std::string(name_) + ":" + std::to_string(line) + ": " + what);
  }

  std::int64_t number(std::size_t line, std::string_view column, std::string_view text) const {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      fail(line, "column '" + std::string(column) + "' is not an integer: '" + std::string(text) + "'");
    }
    return value;
  }

 private:
  std::string_view name_;
};

}  // namespace

Problem parse_csv(std::string_view text, std::string_view name) {
  const Parser parser(name);
  std::size_t line_number = 0;
  std::vector<std::string_view> columns;
  int alignment_column = -1;
  Problem problem;
  std::map<std::string, std::size_t, std::less<>> index_of_id;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t newline = text.find('\n', pos);
    if (newline == std::string_view::npos) newline = text.size();
    std::string_view line = text.substr(pos, newline - pos);
    pos = newline + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    const std::vector<std::string_view> fields = split_fields(line);
    if (columns.empty()) {
      columns = fields;
      const std::vector<std::string_view> required = {"id", "lower", "upper", "size"};
      if (columns.size() < required.size() ||
          !std::equal(required.begin(), required.end(), columns.begin())) {
        parser.fail(line_number, "the header must start with id,lower,upper,size");
      }
      for (std::size_t c = required.size(); c < columns.size(); ++c) {
        if (columns[c] == "alignment" && alignment_column < 0) {
          alignment_column = static_cast<int>(c);
        } else if (columns[c] != "offset") {
          parser.fail(line_number, "unknown or repeated column '" + std::string(columns[c]) +
                                       "' (expected alignment and/or offset)");
        }
      }
      continue;
    }
    if (fields.size() != columns.size()) {
      parser.fail(line_number, "expected " + std::to_string(columns.size()) + " fields, got " +
                                   std::to_string(fields.size()));
    }
    if (fields[0].empty()) parser.fail(line_number, "empty id");
    const Interval interval{parser.number(line_number, "lower", fields[1]),
                            parser.number(line_number, "upper", fields[2])};
    const Bytes size = parser.number(line_number, "size", fields[3]);
    const Bytes alignment =
        alignment_column < 0 ? 1 : parser.number(line_number, "alignment", fields[alignment_column]);
    if (interval.upper <= interval.lower) {
      parser.fail(line_number, "upper (" + std::to_string(interval.upper) +
                                   ") must be greater than lower (" + std::to_string(interval.lower) + ")");
    }
    if (size < 1) parser.fail(line_number, "size must be at least 1");
    if (alignment < 1) parser.fail(line_number, "alignment must be at least 1");
    const auto [it, inserted] = index_of_id.try_emplace(std::string(fields[0]), problem.items.size());
    if (inserted) {
      problem.items.push_back(Item{std::string(fields[0]), size, alignment, {interval}});
      continue;
    }
    Item& item = problem.items[it->second];
    if (item.size != size || item.alignment != alignment) {
      parser.fail(line_number, "id '" + item.id + "' appears again with another size or alignment");
    }
    for (const Interval& other : item.live) {
      if (interval.lower < other.upper && other.lower < interval.upper) {
        parser.fail(line_number, "id '" + item.id + "' appears again with an overlapping interval");
      }
    }
    item.live.push_back(interval);
  }
  if (columns.empty()) parser.fail(std::max<std::size_t>(line_number, 1), "no header line (expected id,lower,upper,size)");
  normalize(problem);
  return problem;
}

Problem read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CsvError(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw CsvError(path + ": cannot read the file");
  return parse_csv(text.str(), path);
}

void write_csv(std::ostream& out, const Problem& problem, const Solution* solution) {
  out << "id,lower,upper,size,alignment" << (solution ? ",offset" : "") << '\n';
  for (std::size_t i = 0; i < problem.items.size(); ++i) {
    const Item& item = problem.items[i];
    for (const Interval& interval : item.live) {
      out << item.id << ',' << interval.lower << ',' << interval.upper << ',' << item.size << ','
          << item.alignment;
      if (solution) out << ',' << solution->offsets[i];
      out << '\n';
    }
  }
}

}  // namespace tidepool::packing
