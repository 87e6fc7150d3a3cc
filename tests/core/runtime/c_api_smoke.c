/* A C program that uses the runtime only through systolic_c_api.h: loads a
 * plugin, creates a client, compiles a program, moves a value to a device,
 * executes, reads the result back, and checks the errors it should get.
 * Usage: c_api_smoke <plugin.so>. Prints "N passed, N failed". */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "core/runtime/systolic_c_api.h"

static const SYSTOLIC_Api* api;
static int passed, failed;

#define CHECK(cond)                                                  \
  do {                                                               \
    if (cond) {                                                      \
      ++passed;                                                      \
    } else {                                                         \
      ++failed;                                                      \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                \
  } while (0)

/* Prints and destroys an error; returns 1 if there was one. */
static int report(SYSTOLIC_Error* error, const char* what) {
  if (error == NULL) return 0;
  SYSTOLIC_Error_Message_Args message = {SYSTOLIC_Error_Message_Args_STRUCT_SIZE, NULL, error,
                                         NULL, 0};
  api->Error_Message(&message);
  fprintf(stderr, "%s: %.*s\n", what, (int)message.message_size, message.message);
  SYSTOLIC_Error_Destroy_Args destroy = {SYSTOLIC_Error_Destroy_Args_STRUCT_SIZE, NULL, error};
  api->Error_Destroy(&destroy);
  return 1;
}

static const char kProgram[] =
    "HloModule axpy\n"
    "ENTRY e {\n"
    "  a = f32[3] parameter(0)\n"
    "  x = f32[3] parameter(1)\n"
    "  ax = f32[3] multiply(a, x)\n"
    "  ROOT y = f32[3] add(ax, x)\n"
    "}\n";

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <plugin.so>\n", argv[0]);
    return 2;
  }
  void* handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  SYSTOLIC_GetApiFn get_api = (SYSTOLIC_GetApiFn)dlsym(handle, SYSTOLIC_API_ENTRY_POINT);
  CHECK(get_api != NULL);
  if (get_api == NULL) return 1;
  api = get_api();
  CHECK(api->version.major_version == SYSTOLIC_API_MAJOR);
  CHECK(api->struct_size >= SYSTOLIC_Api_STRUCT_SIZE);

  SYSTOLIC_Plugin_Initialize_Args init = {SYSTOLIC_Plugin_Initialize_Args_STRUCT_SIZE, NULL};
  CHECK(!report(api->Plugin_Initialize(&init), "initialize"));

  SYSTOLIC_Client_Create_Args create;
  memset(&create, 0, sizeof create);
  create.struct_size = SYSTOLIC_Client_Create_Args_STRUCT_SIZE;
  CHECK(!report(api->Client_Create(&create), "create"));
  SYSTOLIC_Client* client = create.client;

  SYSTOLIC_Client_Devices_Args devices = {SYSTOLIC_Client_Devices_Args_STRUCT_SIZE, NULL, client,
                                          NULL, 0};
  CHECK(!report(api->Client_Devices(&devices), "devices"));
  CHECK(devices.num_devices >= 1);
  SYSTOLIC_Device* device = devices.devices[0];

  SYSTOLIC_Program program = {SYSTOLIC_Program_STRUCT_SIZE, NULL, kProgram, sizeof kProgram - 1,
                              "hlo", 3};
  SYSTOLIC_Client_Compile_Args compile = {SYSTOLIC_Client_Compile_Args_STRUCT_SIZE, NULL, client,
                                          &program, NULL, NULL};
  CHECK(!report(api->Client_Compile(&compile), "compile"));

  float a[3] = {2, 3, 4}, x[3] = {1, 1, 2};
  int64_t dims[1] = {3};
  SYSTOLIC_Buffer* inputs[2];
  const float* host[2] = {a, x};
  for (int i = 0; i < 2; ++i) {
    SYSTOLIC_Client_BufferFromHostBuffer_Args h2d;
    memset(&h2d, 0, sizeof h2d);
    h2d.struct_size = SYSTOLIC_Client_BufferFromHostBuffer_Args_STRUCT_SIZE;
    h2d.client = client;
    h2d.data = host[i];
    h2d.type = SYSTOLIC_Buffer_Type_F32;
    h2d.dims = dims;
    h2d.num_dims = 1;
    h2d.host_buffer_semantics = SYSTOLIC_HostBufferSemantics_kImmutableOnlyDuringCall;
    h2d.device = device;
    CHECK(!report(api->Client_BufferFromHostBuffer(&h2d), "h2d"));
    inputs[i] = h2d.buffer;
    SYSTOLIC_Event_Destroy_Args destroy = {SYSTOLIC_Event_Destroy_Args_STRUCT_SIZE, NULL,
                                           h2d.done_with_host_buffer};
    api->Event_Destroy(&destroy);
  }

  SYSTOLIC_Buffer* const* argument_lists[1] = {inputs};
  SYSTOLIC_Buffer* outputs[1] = {NULL};
  SYSTOLIC_Buffer** output_lists[1] = {outputs};
  SYSTOLIC_Event* done[1] = {NULL};
  SYSTOLIC_LoadedExecutable_Execute_Args execute;
  memset(&execute, 0, sizeof execute);
  execute.struct_size = SYSTOLIC_LoadedExecutable_Execute_Args_STRUCT_SIZE;
  execute.executable = compile.executable;
  execute.argument_lists = argument_lists;
  execute.num_devices = 1;
  execute.num_args = 2;
  execute.output_lists = output_lists;
  execute.device_complete_events = done;
  CHECK(!report(api->LoadedExecutable_Execute(&execute), "execute"));

  float y[3] = {0, 0, 0};
  SYSTOLIC_Buffer_ToHostBuffer_Args d2h = {SYSTOLIC_Buffer_ToHostBuffer_Args_STRUCT_SIZE, NULL,
                                           outputs[0], y, sizeof y, NULL};
  CHECK(!report(api->Buffer_ToHostBuffer(&d2h), "d2h"));
  SYSTOLIC_Event_Await_Args await = {SYSTOLIC_Event_Await_Args_STRUCT_SIZE, NULL, d2h.event};
  CHECK(!report(api->Event_Await(&await), "await"));
  CHECK(y[0] == 3 && y[1] == 4 && y[2] == 10);
  printf("y = %g %g %g\n", y[0], y[1], y[2]);

  /* A struct from a caller that does not set struct_size is refused. */
  SYSTOLIC_Client_Devices_Args bad = {0, NULL, client, NULL, 0};
  SYSTOLIC_Error* error = api->Client_Devices(&bad);
  CHECK(error != NULL);
  if (error != NULL) {
    SYSTOLIC_Error_GetCode_Args code = {SYSTOLIC_Error_GetCode_Args_STRUCT_SIZE, NULL, error,
                                        SYSTOLIC_Error_Code_OK};
    api->Error_GetCode(&code);
    CHECK(code.code == SYSTOLIC_Error_Code_INVALID_ARGUMENT);
    report(error, "expected error");
  }

  /* Compile events, found through the extension list. */
  const SYSTOLIC_Extension_Base* ext = api->extension_start;
  while (ext != NULL && ext->type != SYSTOLIC_Extension_Type_CompileEvents) ext = ext->next;
  CHECK(ext != NULL);
  if (ext != NULL) {
    const SYSTOLIC_CompileEvents_Extension* events_ext = (const SYSTOLIC_CompileEvents_Extension*)ext;
    SYSTOLIC_CompileEvent events[4];
    for (int i = 0; i < 4; ++i) events[i].struct_size = SYSTOLIC_CompileEvent_STRUCT_SIZE;
    SYSTOLIC_Client_CompileEvents_Args get = {SYSTOLIC_Client_CompileEvents_Args_STRUCT_SIZE, NULL,
                                              client, 0, events, 4, 0, 0};
    CHECK(!report(events_ext->Client_CompileEvents(&get), "events"));
    CHECK(get.num_total == 1 && get.num_copied == 1);
    CHECK(strcmp(events[0].module_name, "axpy") == 0);
    CHECK(!events[0].cache_hit);
  }

  SYSTOLIC_Event_Destroy_Args destroy_event = {SYSTOLIC_Event_Destroy_Args_STRUCT_SIZE, NULL, d2h.event};
  api->Event_Destroy(&destroy_event);
  destroy_event.event = done[0];
  api->Event_Destroy(&destroy_event);
  SYSTOLIC_Buffer* all[3] = {inputs[0], inputs[1], outputs[0]};
  for (int i = 0; i < 3; ++i) {
    SYSTOLIC_Buffer_Destroy_Args destroy = {SYSTOLIC_Buffer_Destroy_Args_STRUCT_SIZE, NULL, all[i]};
    CHECK(!report(api->Buffer_Destroy(&destroy), "buffer destroy"));
  }
  SYSTOLIC_LoadedExecutable_Destroy_Args destroy_exe = {
      SYSTOLIC_LoadedExecutable_Destroy_Args_STRUCT_SIZE, NULL, compile.executable};
  CHECK(!report(api->LoadedExecutable_Destroy(&destroy_exe), "executable destroy"));
  SYSTOLIC_Client_Destroy_Args destroy_client = {SYSTOLIC_Client_Destroy_Args_STRUCT_SIZE, NULL, client};
  CHECK(!report(api->Client_Destroy(&destroy_client), "client destroy"));

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
