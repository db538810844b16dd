// The exit code a subcommand asked for (see errors.h).
#include "errors.h"

namespace tidepool::cli {
namespace {
int g_exit_code = 0;
}
void set_exit_code(int code) { g_exit_code = code; }
int exit_code() { return g_exit_code; }
}  // namespace tidepool::cli
