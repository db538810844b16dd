// NVTX ranges and marks, through NVTX's injection interface: with NVTX_INJECTION64_PATH pointing
// at libtidepool.so, the program's first NVTX call loads us and calls InitializeInjectionNvtx2,
// where we install our handlers for the core push/pop/mark functions.
#include <nvtx3/nvToolsExt.h>

#include <string_view>

#include "intercept/optimize_hooks.h"
#include "intercept/recording.h"

namespace tidepool::intercept {
namespace {

thread_local int t_depth = 0;

std::string_view message_of(const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr || attributes->messageType != NVTX_MESSAGE_TYPE_ASCII || attributes->message.ascii == nullptr) {
    return "<unnamed>";
  }
  return attributes->message.ascii;
}

int push(std::string_view name) {
  if (auto* rec = recorder()) rec->record(trace::RangePush{rec->intern(name)});
  optimize_range_push(name);
  return t_depth++;
}

void NVTX_API mark_a(const char* message) {
  if (auto* rec = recorder()) rec->record(trace::Mark{rec->intern(message != nullptr ? message : "<unnamed>")});
}

void NVTX_API mark_ex(const nvtxEventAttributes_t* attributes) {
  if (auto* rec = recorder()) rec->record(trace::Mark{rec->intern(message_of(attributes))});
}

int NVTX_API range_push_a(const char* message) { return push(message != nullptr ? message : "<unnamed>"); }

int NVTX_API range_push_ex(const nvtxEventAttributes_t* attributes) { return push(message_of(attributes)); }

int NVTX_API range_pop() {
  if (t_depth == 0) return -1;  // as NVTX: popping an empty stack is an error
  if (auto* rec = recorder()) rec->record(trace::RangePop{});
  return --t_depth;
}

template <class Fn>
void install(NvtxFunctionTable table, unsigned size, unsigned id, Fn fn) {
  if (id < size && table[id] != nullptr) *table[id] = reinterpret_cast<NvtxFunctionPointer>(fn);
}

}  // namespace
}  // namespace tidepool::intercept

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table) {
  using namespace tidepool::intercept;
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->GetModuleFunctionTable == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) == 0 || table == nullptr) return 0;
  install(table, size, NVTX_CBID_CORE_MarkEx, &mark_ex);
  install(table, size, NVTX_CBID_CORE_MarkA, &mark_a);
  install(table, size, NVTX_CBID_CORE_RangePushEx, &range_push_ex);
  install(table, size, NVTX_CBID_CORE_RangePushA, &range_push_a);
  install(table, size, NVTX_CBID_CORE_RangePop, &range_pop);
  return 1;
}
