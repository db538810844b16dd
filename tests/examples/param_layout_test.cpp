// The CPU twins' parameter layouts are those of the real kernels: for every kernel in the examples'
// PTX (compiled by nvcc from the same .cu files as the fatbins), the offsets and sizes simcuda
// reports through cuFuncGetParamInfo equal those of the kernel's .param declarations. A twin whose
// signature drifted from its kernel would otherwise still pass on simcuda and break on a GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/examples/run_example.h"

namespace examples_test {
namespace {

struct KernelParams {
  std::string name;
  std::vector<std::string> layout;  // "index offset size" per parameter
};

size_t type_bytes(const std::string& type) {
  const std::string bits = type.substr(2);  // ".u64" -> "64"
  return std::stoul(bits) / 8;
}

// The kernels of a PTX file with their parameters laid out as the CUDA ABI does: each at its
// alignment (.align N when given, its size otherwise).
std::vector<KernelParams> kernels_in_ptx(const std::string& ptx) {
  static const std::regex kEntry(R"(\.entry\s+(\w+)\s*\(([^)]*)\))");
  static const std::regex kParam(
      R"(\.param\s+(?:\.align\s+(\d+)\s+)?(\.[a-z]\d+)\s+(?:\.ptr\s+(?:\.\w+\s+)*)?\w+(?:\[(\d+)\])?)");
  std::vector<KernelParams> kernels;
  for (std::sregex_iterator e(ptx.begin(), ptx.end(), kEntry), end; e != end; ++e) {
    KernelParams kernel{(*e)[1].str(), {}};
    const std::string params = (*e)[2].str();
    size_t offset = 0, index = 0;
    for (std::sregex_iterator p(params.begin(), params.end(), kParam); p != end; ++p, ++index) {
      const size_t element = type_bytes((*p)[2].str());
      const size_t size = (*p)[3].matched ? element * std::stoul((*p)[3].str()) : element;
      const size_t align = (*p)[1].matched ? std::stoul((*p)[1].str()) : element;
      offset = (offset + align - 1) / align * align;
      kernel.layout.push_back(std::to_string(index) + " " + std::to_string(offset) + " " +
                              std::to_string(size));
      offset += size;
    }
    kernels.push_back(kernel);
  }
  return kernels;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class ParamLayoutTest : public testing::TestWithParam<std::string> {};

TEST_P(ParamLayoutTest, TwinsReportTheKernelsParameterLayout) {
  const std::string ptx_path = GetParam();
  const std::vector<KernelParams> kernels = kernels_in_ptx(read_text(ptx_path));
  ASSERT_FALSE(kernels.empty()) << "no kernels in " << ptx_path;
  std::vector<std::string> args{ptx_path};
  std::string expected;
  for (const KernelParams& kernel : kernels) {
    ASSERT_FALSE(kernel.layout.empty()) << kernel.name;
    args.push_back(kernel.name);
    for (const std::string& param : kernel.layout) expected += kernel.name + " " + param + "\n";
  }
  const ExampleRun run = run_program(TIDEPOOL_PARAM_PROBE, args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, expected);
}

// TIDEPOOL_EXAMPLE_PTX: the examples' PTX files, separated by ':'.
std::vector<std::string> ptx_files() {
  std::vector<std::string> files;
  std::istringstream list(TIDEPOOL_EXAMPLE_PTX);
  for (std::string file; std::getline(list, file, ':');) files.push_back(file);
  return files;
}

INSTANTIATE_TEST_SUITE_P(Examples, ParamLayoutTest, testing::ValuesIn(ptx_files()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           const std::string& path = info.param;
                           const size_t slash = path.find_last_of('/') + 1;
                           return path.substr(slash, path.rfind('.') - slash);
                         });

}  // namespace
}  // namespace examples_test
