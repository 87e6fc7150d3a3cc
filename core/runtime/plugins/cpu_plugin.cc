// The `cpu` plugin: the runtime engine over the reference evaluator.
#include "core/runtime/c_api_plugin.h"
#include "core/runtime/cpu_backend.h"

SYSTOLIC_PLUGIN_EXPORT const SYSTOLIC_Api* GetSystolicApi(void) {
  return systolic::runtime::MakeSystolicApi(&systolic::runtime::NewCpuBackend);
}
