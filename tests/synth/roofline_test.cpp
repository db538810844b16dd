// The roofline durations: matrix work at the given fraction of the dtype's peak, the rest at the
// given fraction of memory bandwidth, never below a launch.
#include <gtest/gtest.h>

#include "analyzer/synth/roofline.h"

namespace tidepool::synth {
namespace {

TEST(Roofline, MatrixWorkAndMemoryWork) {
  const Roofline h200{parse_gpu("h200"), Dtype::bf16};
  EXPECT_NEAR(h200.seconds(989e12, 1e6, true), 2.0, 1e-9);            // 50% of 989 TFLOP/s
  EXPECT_NEAR(h200.seconds(0, 4.8e12 * 0.7, false), 1.0, 1e-9);       // 70% of 4.8 TB/s
  EXPECT_NEAR(h200.seconds(1, 4.8e12 * 0.7, true), 1.0, 1e-9);        // a memory-bound matmul
  EXPECT_DOUBLE_EQ(h200.seconds(0, 1, false), Roofline::kMinKernelSeconds);
  const Roofline fp32{parse_gpu("a100"), Dtype::fp32, 1.0, 1.0};
  EXPECT_NEAR(fp32.seconds(156e12, 0, true), 1.0, 1e-9);
}

TEST(Roofline, BadChoicesAreRejected) {
  EXPECT_THROW(parse_gpu("h100x"), std::invalid_argument);
  EXPECT_THROW(parse_dtype("fp8"), std::invalid_argument);
  EXPECT_THROW((Roofline{parse_gpu("v100"), Dtype::bf16}.validate()), std::invalid_argument);
  EXPECT_THROW((Roofline{parse_gpu("h200"), Dtype::bf16, 0.0}.validate()), std::invalid_argument);
  EXPECT_THROW((Roofline{parse_gpu("h200"), Dtype::bf16, 0.5, 1.5}.validate()), std::invalid_argument);
  EXPECT_NO_THROW((Roofline{parse_gpu("v100"), Dtype::fp32}.validate()));
}

}  // namespace
}  // namespace tidepool::synth
