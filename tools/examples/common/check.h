// Turns a failed driver call into one line on stderr ("<program>: <call site>: CUDA_ERROR_...")
// and a non-zero exit. The error's name comes through whatever cuGetErrorName the program holds, so
// programs that do not link the driver use it too.
#pragma once

#include <cuda.h>

#include <source_location>
#include <string_view>

namespace examples {

using ErrorNameFn = CUresult (*)(CUresult, const char**);

class DriverCheck {
 public:
  DriverCheck(std::string_view program, ErrorNameFn error_name)
      : program_(program), error_name_(error_name) {}

  void operator()(CUresult result,
                  std::source_location where = std::source_location::current()) const;

 private:
  std::string_view program_;
  ErrorNameFn error_name_;
};

// One line "<program>: <message>" on stderr, exit status 1.
[[noreturn]] void fail(std::string_view program, std::string_view message);

}  // namespace examples
