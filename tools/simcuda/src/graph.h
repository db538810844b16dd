// A graph recorded by stream capture, and its executable form: device operations (kernels,
// copies, sets, host functions) with their dependencies, replayed on a stream by cuGraphLaunch.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/op.h"

namespace simcuda {

struct GraphNode {
  Engine engine;
  int64_t duration_ns;               // -1: known once run (kernels)
  std::function<void(Op&)> work;     // copied for every launch
  std::function<void()> account;     // the statistics of one execution (may be empty)
  std::vector<const GraphNode*> deps;  // nodes recorded before this one
};

struct Graph {
  std::deque<GraphNode> nodes;  // in recording order, which is a topological order; addresses are stable
};

// Handles: a CUgraph is a Graph*, a CUgraphExec an executable copy, a CUgraphNode a GraphNode*.
CUgraph register_graph(std::unique_ptr<Graph> graph);
Graph* find_graph(CUgraph handle);
CUresult destroy_graph(CUgraph handle);
CUresult instantiate_graph(CUgraph handle, CUgraphExec* out);
// The executable graph a handle names, nullptr when none.
const Graph* find_graph_exec(CUgraphExec handle);
CUresult destroy_graph_exec(CUgraphExec handle);

}  // namespace simcuda
