// The `tidepool` command line: parses the subcommand and hands over to cmd_<name>.cpp.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "commands.h"
#include "errors.h"

int main(int argc, char** argv) {
  CLI::App app{"tidepool: profile the GPU memory of any CUDA program, and cut its peak"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tidepool 0.1.0");
  using namespace tidepool::cli;
  // One line per subcommand (declared in commands.h, defined in cmd_<name>.cpp).
  CLI::App* bench = app.add_subcommand("bench", "Benchmark programs");
  bench->require_subcommand(1);
  add_bench_pack(*bench);
  add_bench_overhead(*bench);
  add_bench_swap(*bench);
  add_bench_e2e(*bench);
  add_run(app);
  add_report(app);
  add_dump(app);
  add_plan(app);
  add_synth(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error of tidepool.
    std::fprintf(stderr, "tidepool: %s (see tidepool --help)\n", e.what());
    return 2;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "tidepool: %s\n", e.what());
    return 2;
  } catch (const ExitCodeError& e) {
    std::fprintf(stderr, "tidepool: %s\n", e.what());
    return e.code;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tidepool: %s\n", e.what());
    return 1;
  }
  return exit_code();
}
