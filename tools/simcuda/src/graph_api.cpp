// cuGraphInstantiate(WithFlags), cuGraphLaunch(_ptsz), cuGraphExecDestroy and cuGraphDestroy for
// graphs recorded by stream capture; a launch replays the recorded work on the simulated clock.
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/graph.h"
#include "tools/simcuda/src/scheduler.h"

using namespace simcuda;

namespace {

CUresult launch(CUgraphExec exec, CUstream handle, bool per_thread) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  const Graph* graph = find_graph_exec(exec);
  if (graph == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  // Launching a graph into a capture (a child graph) is not simulated.
  if (CaptureInfo i = capture_info(*stream); i.status != CU_STREAM_CAPTURE_STATUS_NONE)
    return CUDA_ERROR_NOT_SUPPORTED;
  enqueue_graph(*stream, *graph);
  return CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuGraphInstantiateWithFlags(CUgraphExec* phGraphExec, CUgraph hGraph, unsigned long long flags) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    // Auto-free-on-launch only concerns memory nodes, which captures never hold here.
    if ((flags & ~static_cast<unsigned long long>(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)) != 0)
      return CUDA_ERROR_INVALID_VALUE;
    return instantiate_graph(hGraph, phGraphExec);
  });
}

SIMCUDA_API CUresult cuGraphInstantiate_v2(CUgraphExec* phGraphExec, CUgraph hGraph, CUgraphNode* phErrorNode,
                                           char* logBuffer, size_t bufferSize) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (phErrorNode != nullptr) *phErrorNode = nullptr;
    if (logBuffer != nullptr && bufferSize > 0) logBuffer[0] = '\0';
    return instantiate_graph(hGraph, phGraphExec);
  });
}

SIMCUDA_API CUresult cuGraphInstantiate(CUgraphExec* phGraphExec, CUgraph hGraph, CUgraphNode* phErrorNode,
                                        char* logBuffer, size_t bufferSize) {
  return cuGraphInstantiate_v2(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

SIMCUDA_API CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
  return guard([&] { return launch(hGraphExec, hStream, false); });
}
SIMCUDA_API CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream) {
  return guard([&] { return launch(hGraphExec, hStream, true); });
}

SIMCUDA_API CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    return destroy_graph_exec(hGraphExec);
  });
}

SIMCUDA_API CUresult cuGraphDestroy(CUgraph hGraph) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    return destroy_graph(hGraph);
  });
}
