// How the table-driven examples reach the driver, read from their dynamic symbol tables (nm):
// procaddress imports exactly one driver function, cuGetProcAddress_v2; dlopen_driver imports none
// and does not even list libcuda.so.1 as needed.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/examples/run_example.h"

namespace examples_test {
namespace {

std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string text;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe.get())) text.append(buffer, n);
  return text;
}

// Undefined dynamic symbols whose names start with "cu".
std::vector<std::string> imported_driver_functions(const std::string& binary) {
  std::istringstream lines(command_output("nm -D --undefined-only " + binary + " 2>&1"));
  std::vector<std::string> names;
  for (std::string line; std::getline(lines, line);) {
    const std::string name = line.substr(line.find_last_of(' ') + 1);
    if (name.starts_with("cu")) names.push_back(name);
  }
  return names;
}

TEST(LinkageTest, ProcAddressImportsOnlyCuGetProcAddress) {
  EXPECT_EQ(imported_driver_functions(example_path("procaddress")),
            std::vector<std::string>{"cuGetProcAddress_v2"});
}

TEST(LinkageTest, DlopenDriverDoesNotLinkTheDriver) {
  EXPECT_TRUE(imported_driver_functions(example_path("dlopen_driver")).empty());
  const std::string dynamic = command_output("readelf -d " + example_path("dlopen_driver"));
  ASSERT_NE(dynamic.find("NEEDED"), std::string::npos) << dynamic;
  EXPECT_EQ(dynamic.find("libcuda"), std::string::npos);
}

}  // namespace
}  // namespace examples_test
