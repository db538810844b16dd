// The perfect-packing generator (see generator.h). The piece to cut next is always the one with
// the largest area, cut at a uniformly random point of its middle half, so pieces stay comparable
// in area while their shapes vary.
#include "analyzer/packing/generator.h"

#include <algorithm>
#include <charconv>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>

namespace tidepool::packing {
namespace {

struct Piece {
  Time begin, end;     // time
  Bytes bottom, top;   // address
  double area() const { return static_cast<double>(end - begin) * static_cast<double>(top - bottom); }
  bool operator<(const Piece& other) const { return area() < other.area(); }
};

std::uint64_t parse_number(std::string_view text, std::string_view spec) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument("bad instance spec '" + std::string(spec) + "' (expected perfect:N:SEED)");
  }
  return value;
}

}  // namespace

PerfectInstance generate_perfect(std::size_t items, std::uint64_t seed, Bytes height, Time horizon) {
  if (items < 1) throw std::invalid_argument("a generated instance needs at least 1 item");
  std::mt19937_64 random(seed);
  std::priority_queue<Piece> pieces;
  pieces.push({0, horizon, 0, height});
  std::vector<Piece> done;  // pieces too small to cut further
  const std::size_t address_cuts_first = 3;
  std::size_t cuts = 0;
  while (pieces.size() + done.size() < items && !pieces.empty()) {
    Piece piece = pieces.top();
    pieces.pop();
    bool across_address = cuts < address_cuts_first || random() % 2 == 0;
    if ((across_address ? piece.top - piece.bottom : piece.end - piece.begin) < 4) across_address = !across_address;
    const Bytes low = across_address ? piece.bottom : piece.begin;
    const Bytes high = across_address ? piece.top : piece.end;
    if (high - low < 4) {  // too small to cut either way: keep it whole
      done.push_back(piece);
      continue;
    }
    const Bytes quarter = (high - low) / 4;
    const Bytes cut = low + quarter + static_cast<Bytes>(random() % static_cast<std::uint64_t>(high - low - 2 * quarter));
    Piece first = piece;
    Piece second = piece;
    if (across_address) {
      first.top = cut;
      second.bottom = cut;
    } else {
      first.end = cut;
      second.begin = cut;
    }
    pieces.push(first);
    pieces.push(second);
    ++cuts;
  }
  PerfectInstance instance;
  instance.optimum = height;
  while (!pieces.empty()) {
    done.push_back(pieces.top());
    pieces.pop();
  }
  std::shuffle(done.begin(), done.end(), random);  // no hint of the cuts in the item order
  instance.problem.items.reserve(done.size());
  instance.packing.offsets.reserve(done.size());
  for (std::size_t i = 0; i < done.size(); ++i) {
    const Piece& piece = done[i];
    instance.problem.items.push_back(
        Item{std::to_string(i), piece.top - piece.bottom, 1, {Interval{piece.begin, piece.end}}});
    instance.packing.offsets.push_back(piece.bottom);
  }
  instance.packing.height = height;
  return instance;
}

PerfectInstance generate_from_spec(std::string_view spec) {
  constexpr std::string_view kPrefix = "perfect:";
  const std::size_t colon = spec.find(':', kPrefix.size());
  if (!spec.starts_with(kPrefix) || colon == std::string_view::npos) {
    throw std::invalid_argument("bad instance spec '" + std::string(spec) + "' (expected perfect:N:SEED)");
  }
  const std::uint64_t items = parse_number(spec.substr(kPrefix.size(), colon - kPrefix.size()), spec);
  const std::uint64_t seed = parse_number(spec.substr(colon + 1), spec);
  return generate_perfect(items, seed);
}

}  // namespace tidepool::packing
