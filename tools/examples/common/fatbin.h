// The program's module image: the fatbin built from its .cu file by nvcc and embedded into the
// executable by a generated assembly block (see tools/examples/CMakeLists.txt).
#pragma once

#include <span>

extern "C" const unsigned char tidepool_example_fatbin[];
extern "C" const unsigned char tidepool_example_fatbin_end[];

namespace examples {

inline std::span<const unsigned char> embedded_fatbin() {
  return {tidepool_example_fatbin, tidepool_example_fatbin_end};
}

}  // namespace examples
