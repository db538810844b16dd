// The CPU twins' parameter layouts are those of the real kernels: for every kernel in the examples'
// PTX (compiled by nvcc from the same .cu files as the fatbins), the offsets and sizes simcuda
// reports through cuFuncGetParamInfo equal those of the kernel's .param declarations. A twin whose
// signature drifted from its kernel would otherwise still pass on simcuda and break on a GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/examples/run_example.h"

namespace examples_test {
namespace {

struct KernelParams {
  std::string name;
  std::vector<std::string> layout;  // "index offset size" per parameter
};

// ".u64" -> 8, ".b8" -> 1; 0 for any other token.
size_t type_bytes(std::string_view token) {
  if (token.size() < 3 || token[0] != '.' ||
      std::string_view("usbf").find(token[1]) == token.npos) {
    return 0;
  }
  size_t bits = 0;
  for (char c : token.substr(2)) {
    if (c < '0' || c > '9') return 0;
    bits = bits * 10 + (c - '0');
  }
  return bits / 8;
}

// One .param declaration: ".param [.align A] .TYPE [.ptr [.space] .align P] NAME[[COUNT]]".
// Returns {size, alignment}.
std::pair<size_t, size_t> param_size_and_align(const std::string& declaration) {
  std::istringstream tokens(declaration);
  std::vector<std::string> words;
  for (std::string word; tokens >> word;) words.push_back(word);
  size_t align = 0, element = 0, count = 1;
  for (size_t i = 0; i < words.size(); ++i) {
    if (element == 0 && words[i] == ".align" && i + 1 < words.size()) {
      align = std::stoul(words[++i]);
    } else if (element == 0 && type_bytes(words[i]) != 0) {
      element = type_bytes(words[i]);
    }
  }
  const std::string& name = words.back();
  if (const size_t bracket = name.find('['); bracket != std::string::npos) {
    count = std::stoul(name.substr(bracket + 1));
  }
  return {element * count, align != 0 ? align : element};
}

// The kernels of a PTX file with their parameters laid out as the CUDA ABI does: each at its
// alignment (.align N when given, its size otherwise).
std::vector<KernelParams> kernels_in_ptx(const std::string& ptx) {
  std::vector<KernelParams> kernels;
  for (size_t at = ptx.find(".entry "); at != std::string::npos; at = ptx.find(".entry ", at)) {
    const size_t open = ptx.find('(', at), close = ptx.find(')', open);
    KernelParams kernel;
    std::istringstream(ptx.substr(at + 7, open - at - 7)) >> kernel.name;
    std::istringstream params(ptx.substr(open + 1, close - open - 1));
    size_t offset = 0, index = 0;
    for (std::string declaration; std::getline(params, declaration, ',');) {
      if (declaration.find(".param") == std::string::npos) continue;
      const auto [size, align] = param_size_and_align(declaration);
      offset = (offset + align - 1) / align * align;
      kernel.layout.push_back(std::to_string(index++) + " " + std::to_string(offset) + " " +
                              std::to_string(size));
      offset += size;
    }
    kernels.push_back(kernel);
    at = close;
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
