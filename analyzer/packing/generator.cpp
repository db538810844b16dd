// The perfect-packing generators (see generator.h). Cuts: the piece to cut next is always the one
// with the largest area, cut at a uniformly random point of its middle half, so pieces stay
// comparable in area while their shapes vary. Growth: runs of equal floor in an ordered map, the
// open ones (below the top) in an ordered set by floor, so each step takes the lowest at once.
// Refill: the live buffers in address order, rebuilt at each step.
#include "analyzer/packing/generator.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

namespace tidepool::packing {
namespace {

// With lengths and sizes drawn up to 2 / k of the rectangle's, growth makes about this many times
// k^2 pieces (measured from 10,000 to 1,000,000 pieces), so k = sqrt(items / it).
constexpr double kGrownPiecesPerCell = 2.5;

struct Piece {
  Time begin, end;     // time
  Bytes bottom, top;   // address
  double area() const { return static_cast<double>(end - begin) * static_cast<double>(top - bottom); }
  bool operator<(const Piece& other) const { return area() < other.area(); }
};

[[noreturn]] void bad_spec(std::string_view spec) {
  throw std::invalid_argument("bad instance spec '" + std::string(spec) + "' (expected " + std::string(kGeneratorSpecs) + ")");
}

std::uint64_t parse_number(std::string_view text, std::string_view spec) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) bad_spec(spec);
  return value;
}

// The instance of pieces that fill a rectangle of `height`, in a random order (no hint of how
// they were made), with the packing they came from.
PerfectInstance to_instance(std::vector<Piece> pieces, Bytes height, std::mt19937_64& random) {
  std::shuffle(pieces.begin(), pieces.end(), random);
  PerfectInstance instance;
  instance.optimum = height;
  instance.problem.items.reserve(pieces.size());
  instance.packing.offsets.reserve(pieces.size());
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const Piece& piece = pieces[i];
    instance.problem.items.push_back(
        Item{std::to_string(i), piece.top - piece.bottom, 1, {Interval{piece.begin, piece.end}}});
    instance.packing.offsets.push_back(piece.bottom);
  }
  instance.packing.height = height;
  return instance;
}

// A skyline of runs of equal floor (the runs of one floor next to each other are one run).
class GrowingSkyline {
 public:
  struct Run {
    Time begin, end;
    Bytes floor;
  };

  GrowingSkyline(Time horizon, Bytes top) : top_(top) { add({0, horizon, 0}); }

  // The lowest run below the top (leftmost among equals), taken out; none when all are full.
  std::optional<Run> take_lowest() {
    if (open_.empty()) return std::nullopt;
    const Time begin = open_.begin()->second;
    open_.erase(open_.begin());
    const auto run = runs_.find(begin);
    const Run taken{begin, run->second.end, run->second.floor};
    runs_.erase(run);
    return taken;
  }

  // Adds a run where there is none, merged with neighbours of the same floor.
  void add(Run run) {
    if (const auto right = runs_.find(run.end); right != runs_.end() && right->second.floor == run.floor) {
      run.end = right->second.end;
      remove(right);
    }
    if (const auto left = runs_.lower_bound(run.begin); left != runs_.begin()) {
      if (const auto before = std::prev(left); before->second.end == run.begin && before->second.floor == run.floor) {
        run.begin = before->first;
        remove(before);
      }
    }
    runs_.emplace(run.begin, Ends{run.end, run.floor});
    if (run.floor < top_) open_.emplace(run.floor, run.begin);
  }

 private:
  struct Ends {
    Time end;
    Bytes floor;
  };
  void remove(std::map<Time, Ends>::iterator run) {
    open_.erase({run->second.floor, run->first});
    runs_.erase(run);
  }

  Bytes top_;
  std::map<Time, Ends> runs_;
  std::set<std::pair<Bytes, Time>> open_;
};

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
  while (!pieces.empty()) {
    done.push_back(pieces.top());
    pieces.pop();
  }
  return to_instance(std::move(done), height, random);
}

PerfectInstance generate_grown(std::size_t items, std::uint64_t seed, Bytes height, Time horizon, std::uint64_t size_steps) {
  if (items < 1) throw std::invalid_argument("a generated instance needs at least 1 item");
  std::mt19937_64 random(seed);
  const double side = std::sqrt(static_cast<double>(items) / kGrownPiecesPerCell);
  const auto longest = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(2 * static_cast<double>(horizon) / side));
  const auto largest = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(2 * static_cast<double>(height) / side));
  const std::uint64_t steps = size_steps == 0 ? largest : size_steps;
  const Bytes grain = static_cast<Bytes>(std::max<std::uint64_t>(1, largest / steps));
  GrowingSkyline skyline(horizon, height);
  std::vector<Piece> pieces;
  while (const std::optional<GrowingSkyline::Run> run = skyline.take_lowest()) {
    for (Time from = run->begin; from < run->end;) {
      const Time to = std::min<Time>(run->end, from + 1 + static_cast<Time>(random() % longest));
      const Bytes top = std::min<Bytes>(height, run->floor + grain * static_cast<Bytes>(1 + random() % steps));
      pieces.push_back({from, to, run->floor, top});
      skyline.add({from, to, top});
      from = to;
    }
  }
  return to_instance(std::move(pieces), height, random);
}

PerfectInstance generate_refill(std::size_t items, std::uint64_t seed, Bytes height) {
  if (items < 1) throw std::invalid_argument("a generated instance needs at least 1 item");
  std::mt19937_64 random(seed);
  const auto live_target = std::clamp<std::size_t>(std::llround(2 * std::sqrt(static_cast<double>(items))), 1, items);
  std::vector<Piece> live;  // in address order; `end` unset until the piece ends
  std::vector<Piece> pieces;
  // Cuts [bottom, top) at `count - 1` distinct random points into pieces that begin at `begin`.
  const auto cut_into = [&](std::vector<Piece>& out, Bytes bottom, Bytes top, Time begin, std::size_t count) {
    count = std::clamp<std::size_t>(count, 1, static_cast<std::size_t>(top - bottom));
    std::set<Bytes> cuts;
    while (cuts.size() + 1 < count) cuts.insert(bottom + 1 + static_cast<Bytes>(random() % static_cast<std::uint64_t>(top - bottom - 1)));
    cuts.insert(top);
    for (Bytes from = bottom; const Bytes to : cuts) {
      out.push_back({begin, 0, from, to});
      from = to;
    }
  };
  cut_into(live, 0, height, 0, live_target);
  Time now = 0;
  while (pieces.size() + live.size() < items) {
    now += 1 + static_cast<Time>(random() % 100);
    const std::uint64_t per_mille = 10 + random() % 71;
    std::vector<char> ending(live.size());
    for (char& ends : ending) ends = random() % 1000 < per_mille;
    if (std::ranges::find(ending, 1) == ending.end()) ending[random() % live.size()] = 1;
    std::vector<Piece> next;
    for (std::size_t k = 0; k < live.size();) {
      if (!ending[k]) {
        next.push_back(live[k++]);
        continue;
      }
      const Bytes bottom = live[k].bottom;
      std::size_t freed = 0;
      for (; k < live.size() && ending[k]; ++k, ++freed) {
        live[k].end = now;
        pieces.push_back(live[k]);
      }
      // About as many new buffers as were freed here: one more or one fewer, leaning back
      // towards the live target.
      const int lean = live.size() < live_target ? 1 : -1;
      const auto count = static_cast<std::int64_t>(freed) + lean * static_cast<std::int64_t>(random() % 2) + static_cast<std::int64_t>(random() % 3) - 1;
      cut_into(next, bottom, pieces.back().top, now, static_cast<std::size_t>(std::max<std::int64_t>(1, count)));
    }
    live = std::move(next);
  }
  now += 1 + static_cast<Time>(random() % 100);
  for (Piece& piece : live) {
    piece.end = now;
    pieces.push_back(piece);
  }
  return to_instance(std::move(pieces), height, random);
}

bool is_generator_spec(std::string_view text) {
  return text.starts_with("perfect:") || text.starts_with("grown:") || text.starts_with("refill:");
}

PerfectInstance generate_from_spec(std::string_view spec) {
  const std::size_t first = spec.find(':');
  const std::size_t second = first == std::string_view::npos ? first : spec.find(':', first + 1);
  if (!is_generator_spec(spec) || second == std::string_view::npos) bad_spec(spec);
  const std::size_t third = spec.find(':', second + 1);
  const std::uint64_t items = parse_number(spec.substr(first + 1, second - first - 1), spec);
  const std::uint64_t seed = parse_number(spec.substr(second + 1, third == std::string_view::npos ? third : third - second - 1), spec);
  if (items > kMaxGeneratedItems) {
    throw std::invalid_argument("instance spec '" + std::string(spec) + "' asks for more than " +
                                std::to_string(kMaxGeneratedItems) + " items");
  }
  if (spec.starts_with("perfect:")) {
    if (third == std::string_view::npos) return generate_perfect(items, seed);
    const std::uint64_t horizon = parse_number(spec.substr(third + 1), spec);
    if (horizon < 1 || horizon > std::uint64_t{1} << 62) bad_spec(spec);
    return generate_perfect(items, seed, Bytes{1} << 32, static_cast<Time>(horizon));
  }
  if (third != std::string_view::npos) bad_spec(spec);
  if (spec.starts_with("grown:")) return generate_grown(items, seed);
  return generate_refill(items, seed);
}

}  // namespace tidepool::packing
