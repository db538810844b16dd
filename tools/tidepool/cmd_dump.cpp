// `tidepool dump TRACE`: the trace as text, one line per record: the header, the modules, the
// stacks, then the events in sequence order, read in order without holding them (trace/in_order.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/trace/in_order.h"
#include "analyzer/trace/text.h"
#include "commands.h"

namespace tidepool::cli {
namespace {

void print(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
}

void run_dump(const std::string& path) {
  const trace::InOrderReader reader(path);
  const trace::Trace& trace = reader.trace();
  print("version " + std::to_string(trace.format_version));
  print(trace::to_text(trace.header));
  for (const trace::Module& m : trace.modules) print(trace::to_text(m));
  std::vector<uint32_t> stack_ids;
  for (const auto& [id, frames] : trace.stacks) stack_ids.push_back(id);
  std::sort(stack_ids.begin(), stack_ids.end());
  for (uint32_t id : stack_ids) print(trace::to_text(trace::Stack{id, trace.stacks.at(id)}));
  reader.read([](trace::RecordTag) { return true; },
              [&](trace::Event&& e, uint64_t) { print(trace::to_text(trace, e)); });
  if (trace.truncated) {
    std::fprintf(stderr, "tidepool: warning: %s is truncated; read up to its last whole record\n",
                 path.c_str());
  }
}

}  // namespace

void add_dump(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("dump", "Print a trace's records as text, one per line");
  cmd->add_option("trace", *path, "Trace file")->required();
  cmd->callback([path] { run_dump(*path); });
}

}  // namespace tidepool::cli
