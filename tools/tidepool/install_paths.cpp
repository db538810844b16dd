// Finds libtidepool.so and simcuda next to the `tidepool` executable.
#include "install_paths.h"

#include <stdexcept>
#include <system_error>

namespace tidepool::cli {

InstallPaths install_paths() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path prefix = exe.parent_path().parent_path();
  const std::filesystem::path lib = prefix / "lib" / "tidepool";
  return {lib / "libtidepool.so", lib / "simcuda", lib / "tidepool-overhead-probe"};
}

std::filesystem::path require_preload_library() {
  const auto path = install_paths().preload_library;
  if (!std::filesystem::exists(path)) throw std::runtime_error("cannot find libtidepool.so (looked for " + path.string() + ")");
  return path;
}

std::filesystem::path require_simcuda_dir() {
  const auto dir = install_paths().simcuda_dir;
  if (!std::filesystem::exists(dir / "libcuda.so.1")) {
    throw std::runtime_error("cannot find simcuda (looked for " + (dir / "libcuda.so.1").string() + ")");
  }
  return dir;
}

}  // namespace tidepool::cli
