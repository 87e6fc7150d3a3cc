// The `systolic` plugin: the runtime engine over simulated chips.
#include "core/runtime/c_api_plugin.h"
#include "core/runtime/systolic_backend.h"

SYSTOLIC_PLUGIN_EXPORT const SYSTOLIC_Api* GetSystolicApi(void) {
  return systolic::runtime::MakeSystolicApi(&systolic::runtime::NewSystolicBackend);
}
