// Reporting of failed driver calls (see check.h).
#include "tools/examples/common/check.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace examples {

void fail(std::string_view program, std::string_view message) {
  std::fprintf(stderr, "%.*s: %.*s\n", static_cast<int>(program.size()), program.data(),
               static_cast<int>(message.size()), message.data());
  std::exit(1);
}

void DriverCheck::operator()(CUresult result, std::source_location where) const {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (error_name_ == nullptr || error_name_(result, &name) != CUDA_SUCCESS || name == nullptr) {
    name = "unknown CUresult";
  }
  std::string file = where.file_name();
  file = file.substr(file.find_last_of('/') + 1);
  fail(program_, file + ":" + std::to_string(where.line()) + ": " + name + " (" +
                     std::to_string(static_cast<int>(result)) + ")");
}

}  // namespace examples
