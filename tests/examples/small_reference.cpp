// CPU references of the small examples (see small_reference.h).
#include "tests/examples/small_reference.h"

#include <algorithm>
#include <span>
#include <vector>

#include "tools/examples/async_alloc/async_math.h"
#include "tools/examples/common/checksum.h"
#include "tools/examples/common/hash.h"
#include "tools/examples/multistream/stage_math.h"
#include "tools/examples/table_driven/table_math.h"

namespace examples_test {
namespace {

std::vector<float> uniform_vector(uint64_t seed, uint64_t stream_id, long long n) {
  std::vector<float> values(n);
  for (long long i = 0; i < n; ++i) values[i] = examples::uniform_pm1(seed, stream_id, i);
  return values;
}

}  // namespace

uint64_t multistream_reference(int stages, int iterations, long long elements, uint64_t seed) {
  examples::Checksum checksum;
  for (int i = 0; i < iterations; ++i) {
    std::vector<float> values = uniform_vector(seed, i, elements);
    for (int stage = 0; stage < stages; ++stage) {
      for (long long e = 0; e < elements; ++e) {
        values[e] = multistream::stage_value(values[e], stage, e);
      }
    }
    checksum.add_values(std::span<const float>(values));
  }
  return checksum.value();
}

uint64_t async_alloc_reference(int iterations, long long elements, uint64_t seed) {
  examples::Checksum checksum;
  for (int i = 0; i < iterations; ++i) {
    const long long n = async_alloc::iteration_elements(elements, i);
    const std::vector<float> a = uniform_vector(seed, 2 * i, n),
                             b = uniform_vector(seed, 2 * i + 1, n);
    std::vector<float> c(n);
    for (long long e = 0; e < n; ++e) c[e] = async_alloc::combine(a[e], b[e]);
    std::vector<float> sums;
    for (long long begin = 0; begin < n; begin += async_alloc::kSumBlock) {
      sums.push_back(
          async_alloc::range_sum(c.data(), begin, std::min(begin + async_alloc::kSumBlock, n)));
    }
    checksum.add_values(std::span<const float>(sums));
  }
  return checksum.value();
}

uint64_t table_driven_reference(int iterations, long long elements, uint64_t seed) {
  examples::Checksum checksum;
  for (int i = 0; i < iterations; ++i) {
    const std::vector<float> x = uniform_vector(seed, i, elements);
    std::vector<float> y(elements, table_driven::initial_y(i));
    for (long long e = 0; e < elements; ++e) {
      y[e] = table_driven::axpy(table_driven::axpy_scale(i), x[e], y[e]);
    }
    std::vector<float> sums;
    for (long long begin = 0; begin < elements; begin += table_driven::kSumBlock) {
      sums.push_back(table_driven::range_square_sum(
          y.data(), begin, std::min(begin + table_driven::kSumBlock, elements)));
    }
    checksum.add_values(std::span<const float>(sums));
  }
  return checksum.value();
}

}  // namespace examples_test
