// Looks rows of the hook list up by symbol, or by the real function the driver handed out.
#include "intercept/hook_table.h"

#include "intercept/hook_index.h"
#include "intercept/real_driver.h"

namespace tidepool::intercept {

const HookRow* find_hook_by_symbol(std::string_view symbol) {
  for (const HookRow& row : hook_rows()) {
    if (row.symbol == symbol) return &row;
  }
  return nullptr;
}

void* wrapper_for_real(std::string_view api, void* real) {
  if (real == nullptr) return nullptr;
  const auto rows = hook_rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].api == api && driver_own_function(static_cast<HookIndex>(i)) == real) return rows[i].wrapper();
  }
  return nullptr;
}

}  // namespace tidepool::intercept
