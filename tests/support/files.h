// Test support: private temporary folders and whole-file reads.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace tidepool::test_support {

// A fresh folder under the system's temporary directory (named `<prefix>-XXXXXX`), removed with
// everything in it when the object goes.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The file's bytes ("" when it cannot be read).
std::string read_file(const std::filesystem::path& path);

}  // namespace tidepool::test_support
