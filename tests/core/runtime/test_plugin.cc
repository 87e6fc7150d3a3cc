// The `test` plugin: the runtime engine over the test backend. Built also
// with another API version (SYSTOLIC_TEST_PLUGIN_MAJOR / _MINOR) so the
// loader's version checks can be tested against a real shared library.
#include "core/runtime/c_api_plugin.h"
#include "tests/core/runtime/engine_test_backend.h"

SYSTOLIC_PLUGIN_EXPORT const SYSTOLIC_Api* GetSystolicApi(void) {
  const SYSTOLIC_Api* api = systolic::runtime::MakeSystolicApi(&systolic::runtime::NewTestBackend);
#if defined(SYSTOLIC_TEST_PLUGIN_MAJOR) && defined(SYSTOLIC_TEST_PLUGIN_MINOR)
  static SYSTOLIC_Api versioned = [api] {
    SYSTOLIC_Api copy = *api;
    copy.version.major_version = SYSTOLIC_TEST_PLUGIN_MAJOR;
    copy.version.minor_version = SYSTOLIC_TEST_PLUGIN_MINOR;
    return copy;
  }();
  return &versioned;
#else
  return api;
#endif
}
