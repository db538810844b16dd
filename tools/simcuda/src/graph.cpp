// The registries of graphs and executable graphs (see graph.h).
#include "tools/simcuda/src/graph.h"

#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace simcuda {
namespace {

struct Graphs {
  std::mutex mutex;
  std::map<Graph*, std::unique_ptr<Graph>> graphs;
  std::map<Graph*, std::unique_ptr<Graph>> execs;
};

Graphs& graphs() {
  static Graphs& instance = *new Graphs;
  return instance;
}

// A copy whose dependencies point into the copy.
std::unique_ptr<Graph> copy_graph(const Graph& from) {
  auto to = std::make_unique<Graph>();
  std::unordered_map<const GraphNode*, const GraphNode*> moved;
  for (const GraphNode& node : from.nodes) {
    GraphNode copy = node;
    for (const GraphNode*& dep : copy.deps) dep = moved.at(dep);
    to->nodes.push_back(std::move(copy));
    moved[&node] = &to->nodes.back();
  }
  return to;
}

}  // namespace

CUgraph register_graph(std::unique_ptr<Graph> graph) {
  Graph* raw = graph.get();
  const std::lock_guard lock(graphs().mutex);
  graphs().graphs.emplace(raw, std::move(graph));
  return reinterpret_cast<CUgraph>(raw);
}

Graph* find_graph(CUgraph handle) {
  const std::lock_guard lock(graphs().mutex);
  const auto it = graphs().graphs.find(reinterpret_cast<Graph*>(handle));
  return it == graphs().graphs.end() ? nullptr : it->first;
}

CUresult destroy_graph(CUgraph handle) {
  const std::lock_guard lock(graphs().mutex);
  return graphs().graphs.erase(reinterpret_cast<Graph*>(handle)) == 1 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult instantiate_graph(CUgraph handle, CUgraphExec* out) {
  if (out == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const std::lock_guard lock(graphs().mutex);
  const auto it = graphs().graphs.find(reinterpret_cast<Graph*>(handle));
  if (it == graphs().graphs.end()) return CUDA_ERROR_INVALID_VALUE;
  std::unique_ptr<Graph> exec = copy_graph(*it->second);
  *out = reinterpret_cast<CUgraphExec>(exec.get());
  graphs().execs.emplace(exec.get(), std::move(exec));
  return CUDA_SUCCESS;
}

const Graph* find_graph_exec(CUgraphExec handle) {
  const std::lock_guard lock(graphs().mutex);
  const auto it = graphs().execs.find(reinterpret_cast<Graph*>(handle));
  return it == graphs().execs.end() ? nullptr : it->first;
}

CUresult destroy_graph_exec(CUgraphExec handle) {
  const std::lock_guard lock(graphs().mutex);
  return graphs().execs.erase(reinterpret_cast<Graph*>(handle)) == 1 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

}  // namespace simcuda
