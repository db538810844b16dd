// The link presets and the parser of --link values.
#include "analyzer/swap/link.h"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tidepool::swap {

Link parse_link(std::string_view text) {
  if (text == "pcie4") return Link{"pcie4", 25e9, 10e-6};
  if (text == "pcie5") return Link{"pcie5", 50e9, 10e-6};
  if (text == "nvlink-c2c") return Link{"nvlink-c2c", 300e9, 5e-6};
  double gbps = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(first, last, gbps);
  if (text.empty() || error != std::errc{} || end != last || !std::isfinite(gbps) || gbps <= 0)
    throw std::invalid_argument("unknown link '" + std::string(text) +
                                "': use pcie4, pcie5, nvlink-c2c or a bandwidth in GB/s");
  return Link{std::string(text) + " GB/s", gbps * 1e9, 10e-6};
}

}  // namespace tidepool::swap
