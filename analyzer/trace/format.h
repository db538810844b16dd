// The trace schema: every record a tidepool trace holds, as plain structs and enums.
// No CUDA dependency: addresses, handles, streams, events and contexts are uint64 values.
// The on-disk encoding is in codec.h and docs/trace-format.md; the field order of each record is
// in fields.h (one list serves the encoder, the decoder and `tidepool dump`).
//
// Conventions: allocation ids are unique per trace and start at 1 (0 = none / not a tracked
// allocation); op ids number launches, copies, sets and graph launches together, unique per trace,
// from 1; stack id 0 = no stack; string id 0 = no string. Additions keep old tags and field orders.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tidepool::trace {

inline constexpr std::array<char, 8> kMagic = {'T', 'I', 'D', 'E', 'P', 'O', 'O', 'L'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr size_t kPreambleBytes = 16;     // magic, version (u32), flags (u32)
inline constexpr size_t kChunkHeaderBytes = 8;   // payload length (u32), CRC32 of payload (u32)
inline constexpr size_t kMaxChunkBytes = 64 << 20;

// The on-disk tag of each record type. Values are stable forever; new types get new values.
enum class RecordTag : uint32_t {
  header = 1,
  module = 2,
  stack = 3,
  string = 4,
  alloc = 16,
  free = 17,
  vmm_map = 18,
  vmm_unmap = 19,
  launch = 20,
  copy = 21,
  set = 22,
  indirect_ref = 23,
  address_query = 24,
  stream_create = 32,
  stream_destroy = 33,
  event_create = 34,
  event_record = 35,
  stream_wait_event = 36,
  event_synchronize = 37,
  event_destroy = 38,
  stream_synchronize = 39,
  context_synchronize = 40,
  host_func = 41,
  stream_mem_op = 42,
  capture_begin = 43,
  capture_end = 44,
  graph_launch = 45,
  capture_mode = 46,
  context_create = 48,
  context_destroy = 49,
  module_load = 50,
  range_push = 56,
  range_pop = 57,
  mark = 58,
  device_timing = 64,
  plan_installed = 80,
  pool_hit = 81,
  pool_miss = 82,
  fallback = 83,
  swap_out = 84,
  swap_in = 85,
  eviction = 86,
  return_to_recording = 87,
  map_deferred = 88,
  mapped_at_first_use = 89,
};

// ---- Metadata records (not events) ----

// The first record of every trace.
struct Header {
  static constexpr RecordTag tag = RecordTag::header;
  uint32_t pid = 0;
  uint32_t parent_pid = 0;
  int32_t rank = -1;                      // from RANK, OMPI_COMM_WORLD_RANK, ...; -1 when none
  std::string host;
  std::string program;                    // the program's name (argv[0]'s base name)
  std::vector<std::string> command_line;  // argv
  uint64_t start_time_unix_ns = 0;        // wall clock at the start; event times count from here
  int32_t driver_version = 0;             // cuDriverGetVersion, 0 when unknown
  bool synthetic = false;                 // made by `tidepool synth`, not by a real program
  std::string source;                     // free-form: "tidepool run 0.1.0", "synth resnet50 ..."
  bool operator==(const Header&) const = default;
};

// A loaded ELF object, so that return addresses can be symbolized out of process.
struct Module {
  static constexpr RecordTag tag = RecordTag::module;
  std::string path;
  uint64_t base = 0;  // load bias (dl_iterate_phdr's dlpi_addr): runtime address = ELF vaddr + base
  uint64_t size = 0;  // the module covers [base, base + size): up to its highest segment's end
  std::string build_id;  // hex of NT_GNU_BUILD_ID, empty when none
  bool operator==(const Module&) const = default;
};

// A call stack, deduplicated by the writer's user; frames innermost first.
struct Stack {
  static constexpr RecordTag tag = RecordTag::stack;
  uint32_t id = 0;
  std::vector<uint64_t> frames;
  bool operator==(const Stack&) const = default;
};

// An interned string (kernel names, NVTX names, reasons), referenced by id.
struct String {
  static constexpr RecordTag tag = RecordTag::string;
  uint32_t id = 0;
  std::string text;
  bool operator==(const String&) const = default;
};

// ---- Memory ----

enum class AllocKind : uint8_t {
  device = 0,           // cuMemAlloc_v2
  device_pitched = 1,   // cuMemAllocPitch_v2: size = pitch * height
  stream_ordered = 2,   // cuMemAllocAsync
  pool = 3,             // cuMemAllocFromPoolAsync
  vmm_physical = 4,     // cuMemCreate: handle set, address 0 (mappings are VmmMap records)
  vmm_reserve = 5,      // cuMemAddressReserve: a virtual range, no memory
  managed = 6,          // cuMemAllocManaged
  host_pinned = 7,      // cuMemAllocHost_v2, cuMemHostAlloc
  host_registered = 8,  // cuMemHostRegister_v2
  array = 9,            // cuArrayCreate_v2, cuArray3DCreate_v2, cuMipmappedArrayCreate: handle set
  imported = 10,        // cuIpcOpenMemHandle_v2, cuMemImportFromShareableHandle, cuMemPoolImportPointer
};

// True for the kinds that count as device memory in simcuda's statistics and in reports.
constexpr bool is_device_memory(AllocKind k) {
  return k == AllocKind::device || k == AllocKind::device_pitched ||
         k == AllocKind::stream_ordered || k == AllocKind::pool || k == AllocKind::vmm_physical;
}

// A successful allocation (failed calls are not recorded).
struct Alloc {
  static constexpr RecordTag tag = RecordTag::alloc;
  uint64_t alloc_id = 0;
  AllocKind kind = AllocKind::device;
  uint64_t address = 0;  // device (or host) address; 0 for vmm_physical and arrays
  uint64_t size = 0;     // requested bytes (pitch * height for pitched)
  uint64_t stream = 0;   // for stream_ordered and pool
  uint64_t pool = 0;     // memory pool handle, for pool (and stream_ordered when known)
  uint64_t handle = 0;   // CUmemGenericAllocationHandle (vmm_physical) or CUarray (array)
  int32_t device = 0;
  uint64_t context = 0;
  uint32_t stack_id = 0;
  bool captured = false;  // made on a capturing stream: a memory node of the graph, no memory now
  bool operator==(const Alloc&) const = default;
};

// The release of an allocation: cuMemFree_v2, cuMemFreeAsync (stream set), cuMemRelease
// (vmm_physical), cuMemAddressFree, cuMemFreeHost, cuMemHostUnregister, cuArrayDestroy, ...
// Allocations that a context destruction frees get no Free record (ContextDestroy implies them).
struct Free {
  static constexpr RecordTag tag = RecordTag::free;
  uint64_t alloc_id = 0;
  AllocKind kind = AllocKind::device;
  uint64_t stream = 0;
  bool captured = false;  // on a capturing stream, of a captured Alloc: a free node of the graph
  bool operator==(const Free&) const = default;
};

// cuMemMap: [address, address + size) now shows physical allocation `physical_alloc_id`
// (handle `handle`) from byte `offset` of it.
struct VmmMap {
  static constexpr RecordTag tag = RecordTag::vmm_map;
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t offset = 0;
  uint64_t handle = 0;
  uint64_t physical_alloc_id = 0;
  bool operator==(const VmmMap&) const = default;
};

// cuMemUnmap of [address, address + size).
struct VmmUnmap {
  static constexpr RecordTag tag = RecordTag::vmm_unmap;
  uint64_t address = 0;
  uint64_t size = 0;
  bool operator==(const VmmUnmap&) const = default;
};

// ---- Work ----

// A range of memory an operation reads or writes. alloc_id 0: not in a tracked allocation, and
// offset then holds the raw address. For 2D/3D operations the range bounds every byte touched.
struct Range {
  uint64_t alloc_id = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  bool operator==(const Range&) const = default;
};

// An allocation a launch may touch, found by scanning the launch's parameter bytes: offset is the
// lowest offset pointed at; interior when some pointer pointed past the allocation's first byte.
// For memory mapped through VMM, alloc_id is the physical allocation.
struct Access {
  uint64_t alloc_id = 0;
  uint64_t offset = 0;
  bool interior = false;
  bool operator==(const Access&) const = default;
};

// cuLaunchKernel, cuLaunchKernelEx, cooperative launches, CUkernel launches.
struct Launch {
  static constexpr RecordTag tag = RecordTag::launch;
  uint64_t op_id = 0;
  uint32_t kernel_name_id = 0;  // string id of the kernel's name
  uint64_t function = 0;        // CUfunction (or CUkernel)
  uint64_t stream = 0;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t shared_bytes = 0;
  bool captured = false;        // issued on a capturing stream: recorded into a graph, not run
  bool params_decoded = false;  // false when the parameter layout was unknown
  std::vector<Access> accesses;
  bool operator==(const Launch&) const = default;
};

enum class CopyKind : uint8_t {
  host_to_device = 0,
  device_to_host = 1,
  device_to_device = 2,
  host_to_host = 3,
  peer = 4,       // between contexts/devices
  unified = 5,    // cuMemcpy / CU_MEMCPY_DEFAULT-like: direction from the pointers
  prefetch = 6,   // cuMemPrefetchAsync: src = dst = the managed range
  array = 7,      // to, from or between CUDA arrays
};

// A copy: exact reads of src, exact writes of dst.
struct Copy {
  static constexpr RecordTag tag = RecordTag::copy;
  uint64_t op_id = 0;
  CopyKind kind = CopyKind::device_to_device;
  uint8_t dims = 1;  // 1, 2 (cuMemcpy2D*) or 3 (cuMemcpy3D*)
  Range src;
  Range dst;
  uint64_t bytes = 0;  // bytes moved (may be less than the ranges for 2D/3D)
  uint64_t stream = 0;
  bool async = false;
  bool captured = false;
  bool operator==(const Copy&) const = default;
};

// cuMemset*: exact writes of dst.
struct Set {
  static constexpr RecordTag tag = RecordTag::set;
  uint64_t op_id = 0;
  uint8_t dims = 1;           // 1 or 2 (cuMemsetD2D*)
  uint8_t element_bytes = 1;  // 1, 2 or 4
  Range dst;
  uint64_t bytes = 0;
  uint64_t stream = 0;
  bool async = false;
  bool captured = false;
  bool operator==(const Set&) const = default;
};

// Allocation alloc_id's address was seen in the payload of host-to-device copy op_id: something on
// the device may reach it through a stored pointer, so it must never move.
struct IndirectRef {
  static constexpr RecordTag tag = RecordTag::indirect_ref;
  uint64_t alloc_id = 0;
  uint64_t op_id = 0;
  bool operator==(const IndirectRef&) const = default;
};

enum class QueryKind : uint8_t {
  get_address_range = 0,   // cuMemGetAddressRange_v2
  pointer_attribute = 1,   // cuPointerGetAttribute(s)
  ipc_handle = 2,          // cuIpcGetMemHandle
  export_shareable = 3,    // cuMemExportToShareableHandle
};

// The program asked about, or exported, allocation alloc_id.
struct AddressQuery {
  static constexpr RecordTag tag = RecordTag::address_query;
  uint64_t alloc_id = 0;
  QueryKind kind = QueryKind::get_address_range;
  bool operator==(const AddressQuery&) const = default;
};

// ---- Ordering ----

struct StreamCreate {
  static constexpr RecordTag tag = RecordTag::stream_create;
  uint64_t stream = 0;
  uint32_t flags = 0;
  int32_t priority = 0;
  bool operator==(const StreamCreate&) const = default;
};
struct StreamDestroy {
  static constexpr RecordTag tag = RecordTag::stream_destroy;
  uint64_t stream = 0;
  bool operator==(const StreamDestroy&) const = default;
};
struct EventCreate {
  static constexpr RecordTag tag = RecordTag::event_create;
  uint64_t event = 0;
  uint32_t flags = 0;
  bool operator==(const EventCreate&) const = default;
};
struct EventRecord {
  static constexpr RecordTag tag = RecordTag::event_record;
  uint64_t event = 0;
  uint64_t stream = 0;
  bool captured = false;
  bool operator==(const EventRecord&) const = default;
};
struct StreamWaitEvent {
  static constexpr RecordTag tag = RecordTag::stream_wait_event;
  uint64_t stream = 0;
  uint64_t event = 0;
  bool captured = false;
  bool operator==(const StreamWaitEvent&) const = default;
};
struct EventSynchronize {
  static constexpr RecordTag tag = RecordTag::event_synchronize;
  uint64_t event = 0;
  bool operator==(const EventSynchronize&) const = default;
};
struct EventDestroy {
  static constexpr RecordTag tag = RecordTag::event_destroy;
  uint64_t event = 0;
  bool operator==(const EventDestroy&) const = default;
};
struct StreamSynchronize {
  static constexpr RecordTag tag = RecordTag::stream_synchronize;
  uint64_t stream = 0;
  bool operator==(const StreamSynchronize&) const = default;
};
struct ContextSynchronize {
  static constexpr RecordTag tag = RecordTag::context_synchronize;
  uint64_t context = 0;
  bool operator==(const ContextSynchronize&) const = default;
};
// cuLaunchHostFunc, cuStreamAddCallback.
struct HostFunc {
  static constexpr RecordTag tag = RecordTag::host_func;
  uint64_t stream = 0;
  bool captured = false;
  bool operator==(const HostFunc&) const = default;
};

enum class StreamMemOpKind : uint8_t {
  wait_value = 0,   // cuStreamWaitValue32/64
  write_value = 1,  // cuStreamWriteValue32/64
  barrier = 2,
  flush_remote_writes = 3,
};

// One stream memory operation (a cuStreamBatchMemOp gives one record per operation).
struct StreamMemOp {
  static constexpr RecordTag tag = RecordTag::stream_mem_op;
  uint64_t stream = 0;
  StreamMemOpKind kind = StreamMemOpKind::wait_value;
  Range target;  // the word waited on or written
  bool captured = false;
  bool operator==(const StreamMemOp&) const = default;
};

struct CaptureBegin {
  static constexpr RecordTag tag = RecordTag::capture_begin;
  uint64_t stream = 0;
  uint32_t mode = 0;  // CUstreamCaptureMode
  bool operator==(const CaptureBegin&) const = default;
};
struct CaptureEnd {
  static constexpr RecordTag tag = RecordTag::capture_end;
  uint64_t stream = 0;
  uint64_t graph = 0;
  bool operator==(const CaptureEnd&) const = default;
};
// cuThreadExchangeStreamCaptureMode: the calling thread's capture interaction mode (a
// CUstreamCaptureMode) is now `mode`; it was `previous`.
struct CaptureMode {
  static constexpr RecordTag tag = RecordTag::capture_mode;
  uint32_t mode = 0;
  uint32_t previous = 0;
  bool operator==(const CaptureMode&) const = default;
};
struct GraphLaunch {
  static constexpr RecordTag tag = RecordTag::graph_launch;
  uint64_t op_id = 0;
  uint64_t graph_exec = 0;
  uint64_t stream = 0;
  bool operator==(const GraphLaunch&) const = default;
};

// ---- Contexts and modules ----

struct ContextCreate {
  static constexpr RecordTag tag = RecordTag::context_create;
  uint64_t context = 0;
  int32_t device = 0;
  bool primary = false;
  bool operator==(const ContextCreate&) const = default;
};
// cuCtxDestroy, or cuDevicePrimaryCtxReset (primary_reset): every allocation the context still
// held is freed from here on.
struct ContextDestroy {
  static constexpr RecordTag tag = RecordTag::context_destroy;
  uint64_t context = 0;
  int32_t device = 0;
  bool primary_reset = false;
  bool operator==(const ContextDestroy&) const = default;
};
struct ModuleLoad {
  static constexpr RecordTag tag = RecordTag::module_load;
  uint64_t module = 0;
  uint32_t name_id = 0;  // string id: file path, or "<image>" for cuModuleLoadData*
  bool operator==(const ModuleLoad&) const = default;
};

// ---- NVTX (per thread: the event's thread field tells which stack) ----

struct RangePush {
  static constexpr RecordTag tag = RecordTag::range_push;
  uint32_t name_id = 0;
  bool operator==(const RangePush&) const = default;
};
struct RangePop {
  static constexpr RecordTag tag = RecordTag::range_pop;
  bool operator==(const RangePop&) const = default;
};
struct Mark {
  static constexpr RecordTag tag = RecordTag::mark;
  uint32_t name_id = 0;
  bool operator==(const Mark&) const = default;
};

// ---- Device timing: written later than the operation it times ----

// Device start and end of op op_id, in ns on a device clock whose origin is the same for all
// timings of one trace (durations are end - start; origins are not comparable to host times).
struct DeviceTiming {
  static constexpr RecordTag tag = RecordTag::device_timing;
  uint64_t op_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  bool operator==(const DeviceTiming&) const = default;
};

// ---- Runtime decisions (tidepool run --optimize) ----

struct PlanInstalled {
  static constexpr RecordTag tag = RecordTag::plan_installed;
  uint32_t fingerprint_id = 0;  // string id of the plan's fingerprint
  uint64_t arena_bytes = 0;
  uint64_t planned_peak_bytes = 0;
  uint32_t swaps = 0;
  bool operator==(const PlanInstalled&) const = default;
};
// Allocation alloc_id (whose Alloc record precedes) was served from the arena at offset.
struct PoolHit {
  static constexpr RecordTag tag = RecordTag::pool_hit;
  uint64_t alloc_id = 0;
  uint64_t offset = 0;
  bool operator==(const PoolHit&) const = default;
};
struct PoolMiss {
  static constexpr RecordTag tag = RecordTag::pool_miss;
  uint64_t alloc_id = 0;
  uint32_t reason_id = 0;  // string id
  bool operator==(const PoolMiss&) const = default;
};
// The runtime gave up on its plan for this allocation and used the plain driver.
struct Fallback {
  static constexpr RecordTag tag = RecordTag::fallback;
  uint64_t alloc_id = 0;
  uint32_t reason_id = 0;
  bool operator==(const Fallback&) const = default;
};
struct SwapOut {
  static constexpr RecordTag tag = RecordTag::swap_out;
  uint64_t alloc_id = 0;
  uint64_t bytes = 0;
  uint64_t start_ns = 0;  // device clock, as DeviceTiming
  uint64_t end_ns = 0;
  bool operator==(const SwapOut&) const = default;
};
struct SwapIn {
  static constexpr RecordTag tag = RecordTag::swap_in;
  uint64_t alloc_id = 0;
  uint64_t bytes = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  bool on_demand = false;  // a launch needed it before the plan brought it back (a miss)
  bool operator==(const SwapIn&) const = default;
};
// Rescue: an idle buffer moved to host memory to let an allocation succeed.
struct Eviction {
  static constexpr RecordTag tag = RecordTag::eviction;
  uint64_t alloc_id = 0;
  uint64_t bytes = 0;
  bool operator==(const Eviction&) const = default;
};
// Allocation alloc_id (whose Alloc record precedes) got its address only: its device memory is
// mapped at its first use (MappedAtFirstUse), as the swap plan that moves it charges it.
struct MapDeferred {
  static constexpr RecordTag tag = RecordTag::map_deferred;
  uint64_t alloc_id = 0;
  bool operator==(const MapDeferred&) const = default;
};
struct MappedAtFirstUse {
  static constexpr RecordTag tag = RecordTag::mapped_at_first_use;
  uint64_t alloc_id = 0;
  bool operator==(const MappedAtFirstUse&) const = default;
};
struct ReturnToRecording {
  static constexpr RecordTag tag = RecordTag::return_to_recording;
  uint32_t reason_id = 0;
  bool operator==(const ReturnToRecording&) const = default;
};

// ---- Events ----

using Record =
    std::variant<Alloc, Free, VmmMap, VmmUnmap, Launch, Copy, Set, IndirectRef, AddressQuery,
                 StreamCreate, StreamDestroy, EventCreate, EventRecord, StreamWaitEvent,
                 EventSynchronize, EventDestroy, StreamSynchronize, ContextSynchronize, HostFunc,
                 StreamMemOp, CaptureBegin, CaptureEnd, GraphLaunch, ContextCreate, ContextDestroy,
                 ModuleLoad, RangePush, RangePop, Mark, DeviceTiming, PlanInstalled, PoolHit,
                 PoolMiss, Fallback, SwapOut, SwapIn, Eviction, ReturnToRecording, CaptureMode,
                 MapDeferred, MappedAtFirstUse>;

// The tag a record is written with.
inline RecordTag tag_of(const Record& record) {
  return std::visit([](const auto& r) { return std::decay_t<decltype(r)>::tag; }, record);
}

// One event: when (host ns since Header::start_time_unix_ns), which thread (kernel tid), and a
// global sequence number (unique per trace, the order the calls happened in; the reader sorts
// by it, since per-thread buffers reach the file out of order).
struct Event {
  uint64_t seq = 0;
  uint64_t time_ns = 0;
  uint32_t thread = 0;
  Record record;
  bool operator==(const Event&) const = default;
};

// Names for text output and errors.
std::string_view record_name(RecordTag tag);
std::string_view to_string(AllocKind kind);
std::string_view to_string(CopyKind kind);
std::string_view to_string(QueryKind kind);
std::string_view to_string(StreamMemOpKind kind);

}  // namespace tidepool::trace
