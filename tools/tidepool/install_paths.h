// Where tidepool's pieces are, relative to the running `tidepool` executable: <prefix>/bin/tidepool,
// <prefix>/lib/tidepool/libtidepool.so, <prefix>/lib/tidepool/simcuda/libcuda.so.1 and
// <prefix>/lib/tidepool/tidepool-overhead-probe, the same in
// the build tree and after `cmake --install` to any prefix.
#pragma once

#include <filesystem>

namespace tidepool::cli {

struct InstallPaths {
  std::filesystem::path preload_library;  // libtidepool.so
  std::filesystem::path simcuda_dir;      // holds simcuda's libcuda.so.1
  std::filesystem::path overhead_probe;   // the program `tidepool bench overhead` times
};

InstallPaths install_paths();

// The preload library; throws a one-line error when it is missing.
std::filesystem::path require_preload_library();
// simcuda's directory; throws a one-line error when it is missing.
std::filesystem::path require_simcuda_dir();

}  // namespace tidepool::cli
