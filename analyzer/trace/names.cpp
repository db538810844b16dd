// Names of record types and enum values, for text output and error messages.
#include "analyzer/trace/format.h"

namespace tidepool::trace {

std::string_view record_name(RecordTag tag) {
  switch (tag) {
    case RecordTag::header: return "header";
    case RecordTag::module: return "module";
    case RecordTag::stack: return "stack";
    case RecordTag::string: return "string";
    case RecordTag::alloc: return "alloc";
    case RecordTag::free: return "free";
    case RecordTag::vmm_map: return "vmm_map";
    case RecordTag::vmm_unmap: return "vmm_unmap";
    case RecordTag::launch: return "launch";
    case RecordTag::copy: return "copy";
    case RecordTag::set: return "set";
    case RecordTag::indirect_ref: return "indirect_ref";
    case RecordTag::address_query: return "address_query";
    case RecordTag::stream_create: return "stream_create";
    case RecordTag::stream_destroy: return "stream_destroy";
    case RecordTag::event_create: return "event_create";
    case RecordTag::event_record: return "event_record";
    case RecordTag::stream_wait_event: return "stream_wait_event";
    case RecordTag::event_synchronize: return "event_synchronize";
    case RecordTag::event_destroy: return "event_destroy";
    case RecordTag::stream_synchronize: return "stream_synchronize";
    case RecordTag::context_synchronize: return "context_synchronize";
    case RecordTag::host_func: return "host_func";
    case RecordTag::stream_mem_op: return "stream_mem_op";
    case RecordTag::capture_begin: return "capture_begin";
    case RecordTag::capture_end: return "capture_end";
    case RecordTag::graph_launch: return "graph_launch";
    case RecordTag::capture_mode: return "capture_mode";
    case RecordTag::context_create: return "context_create";
    case RecordTag::context_destroy: return "context_destroy";
    case RecordTag::module_load: return "module_load";
    case RecordTag::range_push: return "range_push";
    case RecordTag::range_pop: return "range_pop";
    case RecordTag::mark: return "mark";
    case RecordTag::device_timing: return "device_timing";
    case RecordTag::plan_installed: return "plan_installed";
    case RecordTag::pool_hit: return "pool_hit";
    case RecordTag::pool_miss: return "pool_miss";
    case RecordTag::fallback: return "fallback";
    case RecordTag::swap_out: return "swap_out";
    case RecordTag::swap_in: return "swap_in";
    case RecordTag::eviction: return "eviction";
    case RecordTag::return_to_recording: return "return_to_recording";
    case RecordTag::map_deferred: return "map_deferred";
    case RecordTag::mapped_at_first_use: return "mapped_at_first_use";
  }
  return "unknown";
}

std::string_view to_string(AllocKind kind) {
  switch (kind) {
    case AllocKind::device: return "device";
    case AllocKind::device_pitched: return "device_pitched";
    case AllocKind::stream_ordered: return "stream_ordered";
    case AllocKind::pool: return "pool";
    case AllocKind::vmm_physical: return "vmm_physical";
    case AllocKind::vmm_reserve: return "vmm_reserve";
    case AllocKind::managed: return "managed";
    case AllocKind::host_pinned: return "host_pinned";
    case AllocKind::host_registered: return "host_registered";
    case AllocKind::array: return "array";
    case AllocKind::imported: return "imported";
  }
  return "unknown";
}

std::string_view to_string(CopyKind kind) {
  switch (kind) {
    case CopyKind::host_to_device: return "host_to_device";
    case CopyKind::device_to_host: return "device_to_host";
    case CopyKind::device_to_device: return "device_to_device";
    case CopyKind::host_to_host: return "host_to_host";
    case CopyKind::peer: return "peer";
    case CopyKind::unified: return "unified";
    case CopyKind::prefetch: return "prefetch";
    case CopyKind::array: return "array";
  }
  return "unknown";
}

std::string_view to_string(QueryKind kind) {
  switch (kind) {
    case QueryKind::get_address_range: return "get_address_range";
    case QueryKind::pointer_attribute: return "pointer_attribute";
    case QueryKind::ipc_handle: return "ipc_handle";
    case QueryKind::export_shareable: return "export_shareable";
  }
  return "unknown";
}

std::string_view to_string(StreamMemOpKind kind) {
  switch (kind) {
    case StreamMemOpKind::wait_value: return "wait_value";
    case StreamMemOpKind::write_value: return "write_value";
    case StreamMemOpKind::barrier: return "barrier";
    case StreamMemOpKind::flush_remote_writes: return "flush_remote_writes";
  }
  return "unknown";
}

}  // namespace tidepool::trace
