// The table of solvers, looked up by name (see solver.h).
#include "analyzer/packing/solver.h"

#include <array>
#include <stdexcept>
#include <string>

#include "analyzer/packing/best.h"
#include "analyzer/packing/heuristics.h"

namespace tidepool::packing {
namespace {

const std::array<SolverInfo, 6> kSolvers = {{
    {"smartpool", "SmartPool: by size, best-fitting gap among time-overlapping items",
     [](const Problem& p, Deadline d) { return solve_smartpool(p, Fit::best, d); }},
    {"smartpool-firstfit", "SmartPool with first fit",
     [](const Problem& p, Deadline d) { return solve_smartpool(p, Fit::first, d); }},
    {"tflite-greedy-size", "TensorFlow Lite's greedy by size",
     [](const Problem& p, Deadline d) { return solve_tflite_greedy_size(p, d); }},
    {"xla-heap", "XLA's best-fit heap over several orders",
     [](const Problem& p, Deadline d) { return solve_xla_heap(p, d); }},
    {"online-bestfit", "online best-fit with coalescing, in time order (CnMeM-like)",
     [](const Problem& p, Deadline) { return solve_online_bestfit(p); }},
    {"best", "greedy portfolio, exact search and local search, anytime", solve_best},
}};

}  // namespace

std::span<const SolverInfo> solvers() { return kSolvers; }

const SolverInfo& find_solver(std::string_view name) {
  for (const SolverInfo& solver : kSolvers) {
    if (solver.name == name) return solver;
  }
  std::string known;
  for (const SolverInfo& solver : kSolvers) known += (known.empty() ? "" : ", ") + std::string(solver.name);
  throw std::invalid_argument("unknown packing algorithm '" + std::string(name) + "' (known: " + known + ")");
}

Solution solve(std::string_view name, const Problem& problem, Deadline deadline) {
  const SolverInfo& solver = find_solver(name);
  validate(problem);
  return solver.solve(problem, deadline);
}

}  // namespace tidepool::packing
