// The subcommands of `tidepool`, one file each (cmd_<name>.cpp); main.cpp wires them up.
// Each add_* function declares its flags on the given app and sets a callback that does the work.
#pragma once

namespace CLI {
class App;
}

namespace tidepool::cli {

void add_run(CLI::App& app);
void add_report(CLI::App& app);
void add_dump(CLI::App& app);
void add_plan(CLI::App& app);
void add_synth(CLI::App& app);
// `tidepool bench <what>`: benchmark programs.
void add_bench_pack(CLI::App& bench);
void add_bench_overhead(CLI::App& bench);
void add_bench_swap(CLI::App& bench);
void add_bench_e2e(CLI::App& bench);

}  // namespace tidepool::cli
