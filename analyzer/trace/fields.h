// The fields of every record, in their on-disk order: one list that the encoder, the decoder and
// the text output all walk. for_each_field(record, visitor) calls visitor("name", record.name)
// for each field; it works on const and mutable records alike. Append new fields at the end only.
#pragma once

#include <concepts>
#include <type_traits>
#include <vector>

#include "analyzer/trace/format.h"

namespace tidepool::trace {

// Whether a field's type is a list (std::vector): the walkers give its size, then each element.
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

#define TIDEPOOL_TRACE_FIELDS(Type)                                 \
  template <class Self, class Visitor>                              \
    requires std::same_as<std::remove_const_t<Self>, Type>          \
  void for_each_field([[maybe_unused]] Self& r, [[maybe_unused]] Visitor&& v)

TIDEPOOL_TRACE_FIELDS(Header) {
  v("pid", r.pid);
  v("parent_pid", r.parent_pid);
  v("rank", r.rank);
  v("host", r.host);
  v("program", r.program);
  v("command_line", r.command_line);
  v("start_time_unix_ns", r.start_time_unix_ns);
  v("driver_version", r.driver_version);
  v("synthetic", r.synthetic);
  v("source", r.source);
}
TIDEPOOL_TRACE_FIELDS(Module) {
  v("path", r.path);
  v("base", r.base);
  v("size", r.size);
  v("build_id", r.build_id);
}
TIDEPOOL_TRACE_FIELDS(Stack) { v("id", r.id); v("frames", r.frames); }
TIDEPOOL_TRACE_FIELDS(String) { v("id", r.id); v("text", r.text); }
TIDEPOOL_TRACE_FIELDS(Alloc) {
  v("alloc_id", r.alloc_id);
  v("kind", r.kind);
  v("address", r.address);
  v("size", r.size);
  v("stream", r.stream);
  v("pool", r.pool);
  v("handle", r.handle);
  v("device", r.device);
  v("context", r.context);
  v("stack_id", r.stack_id);
  v("captured", r.captured);
}
TIDEPOOL_TRACE_FIELDS(Free) {
  v("alloc_id", r.alloc_id);
  v("kind", r.kind);
  v("stream", r.stream);
  v("captured", r.captured);
}
TIDEPOOL_TRACE_FIELDS(VmmMap) {
  v("address", r.address);
  v("size", r.size);
  v("offset", r.offset);
  v("handle", r.handle);
  v("physical_alloc_id", r.physical_alloc_id);
}
TIDEPOOL_TRACE_FIELDS(VmmUnmap) { v("address", r.address); v("size", r.size); }
TIDEPOOL_TRACE_FIELDS(Range) {
  v("alloc_id", r.alloc_id);
  v("offset", r.offset);
  v("bytes", r.bytes);
}
TIDEPOOL_TRACE_FIELDS(Access) {
  v("alloc_id", r.alloc_id);
  v("offset", r.offset);
  v("interior", r.interior);
}
TIDEPOOL_TRACE_FIELDS(Launch) {
  v("op_id", r.op_id);
  v("kernel_name_id", r.kernel_name_id);
  v("function", r.function);
  v("stream", r.stream);
  v("grid", r.grid);
  v("block", r.block);
  v("shared_bytes", r.shared_bytes);
  v("captured", r.captured);
  v("params_decoded", r.params_decoded);
  v("accesses", r.accesses);
}
TIDEPOOL_TRACE_FIELDS(Copy) {
  v("op_id", r.op_id);
  v("kind", r.kind);
  v("dims", r.dims);
  v("src", r.src);
  v("dst", r.dst);
  v("bytes", r.bytes);
  v("stream", r.stream);
  v("async", r.async);
  v("captured", r.captured);
}
TIDEPOOL_TRACE_FIELDS(Set) {
  v("op_id", r.op_id);
  v("dims", r.dims);
  v("element_bytes", r.element_bytes);
  v("dst", r.dst);
  v("bytes", r.bytes);
  v("stream", r.stream);
  v("async", r.async);
  v("captured", r.captured);
}
TIDEPOOL_TRACE_FIELDS(IndirectRef) { v("alloc_id", r.alloc_id); v("op_id", r.op_id); }
TIDEPOOL_TRACE_FIELDS(AddressQuery) { v("alloc_id", r.alloc_id); v("kind", r.kind); }
TIDEPOOL_TRACE_FIELDS(StreamCreate) {
  v("stream", r.stream);
  v("flags", r.flags);
  v("priority", r.priority);
}
TIDEPOOL_TRACE_FIELDS(StreamDestroy) { v("stream", r.stream); }
TIDEPOOL_TRACE_FIELDS(EventCreate) { v("event", r.event); v("flags", r.flags); }
TIDEPOOL_TRACE_FIELDS(EventRecord) {
  v("event", r.event);
  v("stream", r.stream);
  v("captured", r.captured);
}
TIDEPOOL_TRACE_FIELDS(StreamWaitEvent) {
  v("stream", r.stream);
  v("event", r.event);
  v("captured", r.captured);
}
TIDEPOOL_TRACE_FIELDS(EventSynchronize) { v("event", r.event); }
TIDEPOOL_TRACE_FIELDS(EventDestroy) { v("event", r.event); }
TIDEPOOL_TRACE_FIELDS(StreamSynchronize) { v("stream", r.stream); }
TIDEPOOL_TRACE_FIELDS(ContextSynchronize) { v("context", r.context); }
TIDEPOOL_TRACE_FIELDS(HostFunc) { v("stream", r.stream); v("captured", r.captured); }
TIDEPOOL_TRACE_FIELDS(StreamMemOp) {
  v("stream", r.stream);
  v("kind", r.kind);
  v("target", r.target);
  v("captured", r.captured);
}
TIDEPOOL_TRACE_FIELDS(CaptureBegin) { v("stream", r.stream); v("mode", r.mode); }
TIDEPOOL_TRACE_FIELDS(CaptureEnd) { v("stream", r.stream); v("graph", r.graph); }
TIDEPOOL_TRACE_FIELDS(CaptureMode) { v("mode", r.mode); v("previous", r.previous); }
TIDEPOOL_TRACE_FIELDS(GraphLaunch) {
  v("op_id", r.op_id);
  v("graph_exec", r.graph_exec);
  v("stream", r.stream);
}
TIDEPOOL_TRACE_FIELDS(ContextCreate) {
  v("context", r.context);
  v("device", r.device);
  v("primary", r.primary);
}
TIDEPOOL_TRACE_FIELDS(ContextDestroy) {
  v("context", r.context);
  v("device", r.device);
  v("primary_reset", r.primary_reset);
}
TIDEPOOL_TRACE_FIELDS(ModuleLoad) { v("module", r.module); v("name_id", r.name_id); }
TIDEPOOL_TRACE_FIELDS(RangePush) { v("name_id", r.name_id); }
TIDEPOOL_TRACE_FIELDS(RangePop) {  }
TIDEPOOL_TRACE_FIELDS(Mark) { v("name_id", r.name_id); }
TIDEPOOL_TRACE_FIELDS(DeviceTiming) {
  v("op_id", r.op_id);
  v("start_ns", r.start_ns);
  v("end_ns", r.end_ns);
}
TIDEPOOL_TRACE_FIELDS(PlanInstalled) {
  v("fingerprint_id", r.fingerprint_id);
  v("arena_bytes", r.arena_bytes);
  v("planned_peak_bytes", r.planned_peak_bytes);
  v("swaps", r.swaps);
}
TIDEPOOL_TRACE_FIELDS(PoolHit) { v("alloc_id", r.alloc_id); v("offset", r.offset); }
TIDEPOOL_TRACE_FIELDS(PoolMiss) { v("alloc_id", r.alloc_id); v("reason_id", r.reason_id); }
TIDEPOOL_TRACE_FIELDS(Fallback) { v("alloc_id", r.alloc_id); v("reason_id", r.reason_id); }
TIDEPOOL_TRACE_FIELDS(SwapOut) {
  v("alloc_id", r.alloc_id);
  v("bytes", r.bytes);
  v("start_ns", r.start_ns);
  v("end_ns", r.end_ns);
}
TIDEPOOL_TRACE_FIELDS(SwapIn) {
  v("alloc_id", r.alloc_id);
  v("bytes", r.bytes);
  v("start_ns", r.start_ns);
  v("end_ns", r.end_ns);
  v("on_demand", r.on_demand);
}
TIDEPOOL_TRACE_FIELDS(Eviction) { v("alloc_id", r.alloc_id); v("bytes", r.bytes); }
TIDEPOOL_TRACE_FIELDS(ReturnToRecording) { v("reason_id", r.reason_id); }
TIDEPOOL_TRACE_FIELDS(MapDeferred) { v("alloc_id", r.alloc_id); }
TIDEPOOL_TRACE_FIELDS(MappedAtFirstUse) { v("alloc_id", r.alloc_id); }

#undef TIDEPOOL_TRACE_FIELDS

}  // namespace tidepool::trace
