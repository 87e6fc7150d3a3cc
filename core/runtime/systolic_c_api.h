/* The runtime's C ABI, in the PJRT design: a plugin (a shared library found
 * on a search path and loaded at run time) exports one entry point,
 * GetSystolicApi(), which returns a table of functions. Every function takes
 * one argument struct whose first field is its `struct_size`, so a caller
 * built against an older header (smaller structs) and a newer plugin keep
 * working; fields are only ever appended. A plugin whose major version
 * differs from the caller's is refused; a newer minor version is accepted.
 *
 * Every function returns NULL on success or an error (code + message) that
 * the caller destroys with Error_Destroy. Objects returned through `out`
 * fields are owned by the caller when a matching *_Destroy exists, otherwise
 * they live as long as their client.
 *
 * Pure C: this header is included by C programs. */
#ifndef SYSTOLIC_RUNTIME_SYSTOLIC_C_API_H_
#define SYSTOLIC_RUNTIME_SYSTOLIC_C_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYSTOLIC_API_MAJOR 1
#define SYSTOLIC_API_MINOR 2

/* The size of `type` up to and including `last_field`: what a caller built
 * against this header puts in `struct_size`. */
#define SYSTOLIC_STRUCT_SIZE(type, last_field) \
  (offsetof(type, last_field) + sizeof(((type*)0)->last_field))

/* ------------------------------ Extensions ------------------------------- */

typedef enum {
  SYSTOLIC_Extension_Type_CompileEvents = 1,
  SYSTOLIC_Extension_Type_ExecutionTiming = 2,
} SYSTOLIC_Extension_Type;

/* Optional extensions form a linked list starting at `extension_start` of
 * the API table (or of an argument struct); unknown types are skipped. */
typedef struct SYSTOLIC_Extension_Base {
  size_t struct_size;
  SYSTOLIC_Extension_Type type;
  struct SYSTOLIC_Extension_Base* next;
} SYSTOLIC_Extension_Base;
#define SYSTOLIC_Extension_Base_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Extension_Base, next)

/* -------------------------------- Opaque --------------------------------- */

typedef struct SYSTOLIC_Error SYSTOLIC_Error;
typedef struct SYSTOLIC_Client SYSTOLIC_Client;
typedef struct SYSTOLIC_Device SYSTOLIC_Device;
typedef struct SYSTOLIC_Memory SYSTOLIC_Memory;
typedef struct SYSTOLIC_Buffer SYSTOLIC_Buffer;
typedef struct SYSTOLIC_LoadedExecutable SYSTOLIC_LoadedExecutable;
typedef struct SYSTOLIC_Event SYSTOLIC_Event;
typedef struct SYSTOLIC_TopologyDescription SYSTOLIC_TopologyDescription;

/* -------------------------------- Values --------------------------------- */

/* The codes of absl::Status (and of PJRT). */
typedef enum {
  SYSTOLIC_Error_Code_OK = 0,
  SYSTOLIC_Error_Code_CANCELLED = 1,
  SYSTOLIC_Error_Code_UNKNOWN = 2,
  SYSTOLIC_Error_Code_INVALID_ARGUMENT = 3,
  SYSTOLIC_Error_Code_DEADLINE_EXCEEDED = 4,
  SYSTOLIC_Error_Code_NOT_FOUND = 5,
  SYSTOLIC_Error_Code_ALREADY_EXISTS = 6,
  SYSTOLIC_Error_Code_PERMISSION_DENIED = 7,
  SYSTOLIC_Error_Code_RESOURCE_EXHAUSTED = 8,
  SYSTOLIC_Error_Code_FAILED_PRECONDITION = 9,
  SYSTOLIC_Error_Code_ABORTED = 10,
  SYSTOLIC_Error_Code_OUT_OF_RANGE = 11,
  SYSTOLIC_Error_Code_UNIMPLEMENTED = 12,
  SYSTOLIC_Error_Code_INTERNAL = 13,
  SYSTOLIC_Error_Code_UNAVAILABLE = 14,
  SYSTOLIC_Error_Code_DATA_LOSS = 15,
  SYSTOLIC_Error_Code_UNAUTHENTICATED = 16,
} SYSTOLIC_Error_Code;

/* Element types. Values never move: types added later come after the last
 * one (F6E2M3FN and F6E3M2FN came in version 1.2). */
typedef enum {
  SYSTOLIC_Buffer_Type_INVALID = 0,
  SYSTOLIC_Buffer_Type_PRED = 1,
  SYSTOLIC_Buffer_Type_S2 = 2,
  SYSTOLIC_Buffer_Type_S4 = 3,
  SYSTOLIC_Buffer_Type_S8 = 4,
  SYSTOLIC_Buffer_Type_S16 = 5,
  SYSTOLIC_Buffer_Type_S32 = 6,
  SYSTOLIC_Buffer_Type_S64 = 7,
  SYSTOLIC_Buffer_Type_U2 = 8,
  SYSTOLIC_Buffer_Type_U4 = 9,
  SYSTOLIC_Buffer_Type_U8 = 10,
  SYSTOLIC_Buffer_Type_U16 = 11,
  SYSTOLIC_Buffer_Type_U32 = 12,
  SYSTOLIC_Buffer_Type_U64 = 13,
  SYSTOLIC_Buffer_Type_F16 = 14,
  SYSTOLIC_Buffer_Type_BF16 = 15,
  SYSTOLIC_Buffer_Type_F32 = 16,
  SYSTOLIC_Buffer_Type_F64 = 17,
  SYSTOLIC_Buffer_Type_C64 = 18,
  SYSTOLIC_Buffer_Type_C128 = 19,
  SYSTOLIC_Buffer_Type_F8E5M2 = 20,
  SYSTOLIC_Buffer_Type_F8E4M3 = 21,
  SYSTOLIC_Buffer_Type_F8E4M3FN = 22,
  SYSTOLIC_Buffer_Type_F8E4M3B11FNUZ = 23,
  SYSTOLIC_Buffer_Type_F8E5M2FNUZ = 24,
  SYSTOLIC_Buffer_Type_F8E4M3FNUZ = 25,
  SYSTOLIC_Buffer_Type_F8E3M4 = 26,
  SYSTOLIC_Buffer_Type_F8E8M0FNU = 27,
  SYSTOLIC_Buffer_Type_F4E2M1FN = 28,
  SYSTOLIC_Buffer_Type_TOKEN = 29,
  SYSTOLIC_Buffer_Type_F6E2M3FN = 30,
  SYSTOLIC_Buffer_Type_F6E3M2FN = 31,
} SYSTOLIC_Buffer_Type;

typedef enum {
  SYSTOLIC_NamedValue_kString = 0,
  SYSTOLIC_NamedValue_kInt64 = 1,
  SYSTOLIC_NamedValue_kInt64List = 2,
  SYSTOLIC_NamedValue_kFloat = 3,
  SYSTOLIC_NamedValue_kBool = 4,
} SYSTOLIC_NamedValue_Type;

/* A named option or attribute ("chip" = "v4", "num_devices" = 2). */
typedef struct SYSTOLIC_NamedValue {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  const char* name;
  size_t name_size;
  SYSTOLIC_NamedValue_Type type;
  union {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  };
  /* Characters of a string, elements of a list, 1 otherwise. */
  size_t value_size;
} SYSTOLIC_NamedValue;
#define SYSTOLIC_NamedValue_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_NamedValue, value_size)

/* -------------------------------- Errors --------------------------------- */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Error* error;
} SYSTOLIC_Error_Destroy_Args;
#define SYSTOLIC_Error_Destroy_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Error_Destroy_Args, error)
typedef void SYSTOLIC_Error_Destroy(SYSTOLIC_Error_Destroy_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  const SYSTOLIC_Error* error;
  const char* message;  /* out; lives as long as the error */
  size_t message_size;  /* out */
} SYSTOLIC_Error_Message_Args;
#define SYSTOLIC_Error_Message_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Error_Message_Args, message_size)
typedef void SYSTOLIC_Error_Message(SYSTOLIC_Error_Message_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  const SYSTOLIC_Error* error;
  SYSTOLIC_Error_Code code; /* out */
} SYSTOLIC_Error_GetCode_Args;
#define SYSTOLIC_Error_GetCode_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Error_GetCode_Args, code)
typedef SYSTOLIC_Error* SYSTOLIC_Error_GetCode(SYSTOLIC_Error_GetCode_Args* args);

/* -------------------------------- Plugin --------------------------------- */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
} SYSTOLIC_Plugin_Initialize_Args;
#define SYSTOLIC_Plugin_Initialize_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Plugin_Initialize_Args, extension_start)
typedef SYSTOLIC_Error* SYSTOLIC_Plugin_Initialize(SYSTOLIC_Plugin_Initialize_Args* args);

/* What the plugin says about itself: "platform" ("cpu"), "timing"
 * ("simulated", "none" or "pending: ..."), ... Owned by the plugin. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  const SYSTOLIC_NamedValue* attributes; /* out */
  size_t num_attributes;                 /* out */
} SYSTOLIC_Plugin_Attributes_Args;
#define SYSTOLIC_Plugin_Attributes_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Plugin_Attributes_Args, num_attributes)
typedef SYSTOLIC_Error* SYSTOLIC_Plugin_Attributes(SYSTOLIC_Plugin_Attributes_Args* args);

/* -------------------------------- Events --------------------------------- */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Event* event;
} SYSTOLIC_Event_Destroy_Args;
#define SYSTOLIC_Event_Destroy_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Event_Destroy_Args, event)
typedef SYSTOLIC_Error* SYSTOLIC_Event_Destroy(SYSTOLIC_Event_Destroy_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Event* event;
  bool is_ready; /* out */
} SYSTOLIC_Event_IsReady_Args;
#define SYSTOLIC_Event_IsReady_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Event_IsReady_Args, is_ready)
typedef SYSTOLIC_Error* SYSTOLIC_Event_IsReady(SYSTOLIC_Event_IsReady_Args* args);

/* Returns the event's error once it is ready (NULL if it succeeded); the
 * event must be ready. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Event* event;
} SYSTOLIC_Event_Error_Args;
#define SYSTOLIC_Event_Error_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Event_Error_Args, event)
typedef SYSTOLIC_Error* SYSTOLIC_Event_Error(SYSTOLIC_Event_Error_Args* args);

/* Blocks until the event is ready; returns its error. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Event* event;
} SYSTOLIC_Event_Await_Args;
#define SYSTOLIC_Event_Await_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Event_Await_Args, event)
typedef SYSTOLIC_Error* SYSTOLIC_Event_Await(SYSTOLIC_Event_Await_Args* args);

/* `callback` runs once, when the event is ready (at once if it already
 * is), on whatever thread readies it; it owns `error` (NULL on success). */
typedef void (*SYSTOLIC_Event_Callback)(SYSTOLIC_Error* error, void* user_arg);
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Event* event;
  SYSTOLIC_Event_Callback callback;
  void* user_arg;
} SYSTOLIC_Event_OnReady_Args;
#define SYSTOLIC_Event_OnReady_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Event_OnReady_Args, user_arg)
typedef SYSTOLIC_Error* SYSTOLIC_Event_OnReady(SYSTOLIC_Event_OnReady_Args* args);

/* -------------------------------- Client --------------------------------- */

/* Options: "chip" (preset name or spec file), "num_devices", "topology",
 * "memory_limit_bytes" (overrides the chip's HBM, for tests). */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  const SYSTOLIC_NamedValue* create_options;
  size_t num_options;
  SYSTOLIC_Client* client; /* out */
} SYSTOLIC_Client_Create_Args;
#define SYSTOLIC_Client_Create_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_Create_Args, client)
typedef SYSTOLIC_Error* SYSTOLIC_Client_Create(SYSTOLIC_Client_Create_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
} SYSTOLIC_Client_Destroy_Args;
#define SYSTOLIC_Client_Destroy_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_Destroy_Args, client)
typedef SYSTOLIC_Error* SYSTOLIC_Client_Destroy(SYSTOLIC_Client_Destroy_Args* args);

/* A string owned by the client. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  const char* value; /* out */
  size_t value_size; /* out */
} SYSTOLIC_Client_String_Args;
#define SYSTOLIC_Client_String_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_String_Args, value_size)
typedef SYSTOLIC_Error* SYSTOLIC_Client_PlatformName(SYSTOLIC_Client_String_Args* args);
typedef SYSTOLIC_Error* SYSTOLIC_Client_PlatformVersion(SYSTOLIC_Client_String_Args* args);

/* Devices owned by the client. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  SYSTOLIC_Device* const* devices; /* out */
  size_t num_devices;              /* out */
} SYSTOLIC_Client_Devices_Args;
#define SYSTOLIC_Client_Devices_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_Devices_Args, num_devices)
typedef SYSTOLIC_Error* SYSTOLIC_Client_Devices(SYSTOLIC_Client_Devices_Args* args);
typedef SYSTOLIC_Error* SYSTOLIC_Client_AddressableDevices(SYSTOLIC_Client_Devices_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  SYSTOLIC_Memory* const* memories; /* out */
  size_t num_memories;              /* out */
} SYSTOLIC_Client_AddressableMemories_Args;
#define SYSTOLIC_Client_AddressableMemories_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_AddressableMemories_Args, num_memories)
typedef SYSTOLIC_Error* SYSTOLIC_Client_AddressableMemories(
    SYSTOLIC_Client_AddressableMemories_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  int64_t id;
  SYSTOLIC_Device* device; /* out */
} SYSTOLIC_Client_LookupDevice_Args;
#define SYSTOLIC_Client_LookupDevice_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_LookupDevice_Args, device)
typedef SYSTOLIC_Error* SYSTOLIC_Client_LookupDevice(SYSTOLIC_Client_LookupDevice_Args* args);

/* Owned by the client. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  SYSTOLIC_TopologyDescription* topology; /* out */
} SYSTOLIC_Client_TopologyDescription_Args;
#define SYSTOLIC_Client_TopologyDescription_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_TopologyDescription_Args, topology)
typedef SYSTOLIC_Error* SYSTOLIC_Client_TopologyDescription(
    SYSTOLIC_Client_TopologyDescription_Args* args);

/* A program: `code` is HLO text (format "hlo") or StableHLO MLIR text
 * (format "mlir"). */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  const char* code;
  size_t code_size;
  const char* format;
  size_t format_size;
} SYSTOLIC_Program;
#define SYSTOLIC_Program_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Program, format_size)

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  /* Chip preset ("v4") or spec file; NULL/empty: the client's chip. */
  const char* chip;
  size_t chip_size;
  /* "v4:2x2x2"; NULL/empty: the client's topology. */
  const char* topology;
  size_t topology_size;
  int64_t num_replicas;   /* 0: the module's replica_count */
  int64_t num_partitions; /* 0: the module's num_partitions */
  /* device_assignment[replica * num_partitions + partition] = device id;
   * NULL: devices 0..n-1 in order. */
  const int64_t* device_assignment;
  size_t device_assignment_size;
} SYSTOLIC_CompileOptions;
#define SYSTOLIC_CompileOptions_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_CompileOptions, device_assignment_size)

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  const SYSTOLIC_Program* program;
  const SYSTOLIC_CompileOptions* options;
  SYSTOLIC_LoadedExecutable* executable; /* out */
} SYSTOLIC_Client_Compile_Args;
#define SYSTOLIC_Client_Compile_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_Compile_Args, executable)
typedef SYSTOLIC_Error* SYSTOLIC_Client_Compile(SYSTOLIC_Client_Compile_Args* args);

typedef enum {
  /* The data is copied before the call returns. */
  SYSTOLIC_HostBufferSemantics_kImmutableOnlyDuringCall = 0,
  /* The data stays untouched until `done_with_host_buffer` is ready. */
  SYSTOLIC_HostBufferSemantics_kImmutableUntilTransferCompletes = 1,
} SYSTOLIC_HostBufferSemantics;

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  const void* data; /* dense, row-major */
  SYSTOLIC_Buffer_Type type;
  const int64_t* dims;
  size_t num_dims;
  SYSTOLIC_HostBufferSemantics host_buffer_semantics;
  SYSTOLIC_Device* device;
  /* A name for the buffer in errors and memory reports; may be NULL. */
  const char* name;
  size_t name_size;
  SYSTOLIC_Event* done_with_host_buffer; /* out; caller destroys */
  SYSTOLIC_Buffer* buffer;               /* out; caller destroys */
} SYSTOLIC_Client_BufferFromHostBuffer_Args;
#define SYSTOLIC_Client_BufferFromHostBuffer_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_BufferFromHostBuffer_Args, buffer)
typedef SYSTOLIC_Error* SYSTOLIC_Client_BufferFromHostBuffer(
    SYSTOLIC_Client_BufferFromHostBuffer_Args* args);

/* -------------------------------- Devices -------------------------------- */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Device* device;
  int64_t id;                /* out: global id */
  int64_t process_index;     /* out */
  int64_t core_on_chip;      /* out */
  int64_t coords[3];         /* out: the chip's coordinates in the topology */
  bool is_addressable;       /* out */
  const char* kind;          /* out: "cpu", "systolic v4 core" */
  size_t kind_size;          /* out */
  const char* debug_string;  /* out: "systolic:0 (chip 0,0,0 core 0)" */
  size_t debug_string_size;  /* out */
} SYSTOLIC_Device_Describe_Args;
#define SYSTOLIC_Device_Describe_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Device_Describe_Args, debug_string_size)
typedef SYSTOLIC_Error* SYSTOLIC_Device_Describe(SYSTOLIC_Device_Describe_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Device* device;
  SYSTOLIC_Memory* memory; /* out */
} SYSTOLIC_Device_DefaultMemory_Args;
#define SYSTOLIC_Device_DefaultMemory_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Device_DefaultMemory_Args, memory)
typedef SYSTOLIC_Error* SYSTOLIC_Device_DefaultMemory(SYSTOLIC_Device_DefaultMemory_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Device* device;
  int64_t bytes_in_use;      /* out */
  int64_t peak_bytes_in_use; /* out */
  int64_t bytes_limit;       /* out */
  int64_t num_allocs;        /* out: live buffers */
  int64_t largest_alloc_size; /* out */
} SYSTOLIC_Device_MemoryStats_Args;
#define SYSTOLIC_Device_MemoryStats_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Device_MemoryStats_Args, largest_alloc_size)
typedef SYSTOLIC_Error* SYSTOLIC_Device_MemoryStats(SYSTOLIC_Device_MemoryStats_Args* args);

/* -------------------------------- Memories ------------------------------- */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Memory* memory;
  int64_t id;               /* out */
  const char* kind;         /* out: "hbm" or "host" */
  size_t kind_size;         /* out */
  const char* debug_string; /* out */
  size_t debug_string_size; /* out */
  SYSTOLIC_Device* const* devices; /* out: devices that address it */
  size_t num_devices;              /* out */
} SYSTOLIC_Memory_Describe_Args;
#define SYSTOLIC_Memory_Describe_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Memory_Describe_Args, num_devices)
typedef SYSTOLIC_Error* SYSTOLIC_Memory_Describe(SYSTOLIC_Memory_Describe_Args* args);

/* -------------------------------- Topology ------------------------------- */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_TopologyDescription* topology;
  const char* platform_name; /* out */
  size_t platform_name_size; /* out */
  const char* chip;          /* out: the chip preset or spec name */
  size_t chip_size;          /* out */
  const char* text;          /* out: "v4:2x2x2", or "1 chip" */
  size_t text_size;          /* out */
  int64_t bounds[3];         /* out: chips along x, y, z */
  int64_t num_chips;         /* out */
  int64_t cores_per_chip;    /* out */
  bool wraparound[3];        /* out: torus links per axis */
} SYSTOLIC_TopologyDescription_Describe_Args;
#define SYSTOLIC_TopologyDescription_Describe_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_TopologyDescription_Describe_Args, wraparound)
typedef SYSTOLIC_Error* SYSTOLIC_TopologyDescription_Describe(
    SYSTOLIC_TopologyDescription_Describe_Args* args);

/* ------------------------------ Executables ------------------------------ */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_LoadedExecutable* executable;
} SYSTOLIC_LoadedExecutable_Destroy_Args;
#define SYSTOLIC_LoadedExecutable_Destroy_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_LoadedExecutable_Destroy_Args, executable)
typedef SYSTOLIC_Error* SYSTOLIC_LoadedExecutable_Destroy(
    SYSTOLIC_LoadedExecutable_Destroy_Args* args);

/* Strings and arrays are owned by the executable. Parameters and outputs
 * are the array leaves of the entry's parameters and root, in order. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_LoadedExecutable* executable;
  const char* name;             /* out: the module's name */
  size_t name_size;             /* out */
  const char* fingerprint;      /* out: 32 hex digits */
  size_t fingerprint_size;      /* out */
  int64_t num_replicas;         /* out */
  int64_t num_partitions;       /* out */
  size_t num_parameters;        /* out */
  size_t num_outputs;           /* out */
  SYSTOLIC_Device* const* addressable_devices; /* out: one per replica x partition */
  size_t num_addressable_devices;              /* out */
} SYSTOLIC_LoadedExecutable_Describe_Args;
#define SYSTOLIC_LoadedExecutable_Describe_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_LoadedExecutable_Describe_Args, num_addressable_devices)
typedef SYSTOLIC_Error* SYSTOLIC_LoadedExecutable_Describe(
    SYSTOLIC_LoadedExecutable_Describe_Args* args);

/* The type and dimensions of parameter or output `index`. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_LoadedExecutable* executable;
  bool output; /* false: a parameter */
  size_t index;
  SYSTOLIC_Buffer_Type type; /* out */
  const int64_t* dims;       /* out; owned by the executable */
  size_t num_dims;           /* out */
} SYSTOLIC_LoadedExecutable_ValueShape_Args;
#define SYSTOLIC_LoadedExecutable_ValueShape_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_LoadedExecutable_ValueShape_Args, num_dims)
typedef SYSTOLIC_Error* SYSTOLIC_LoadedExecutable_ValueShape(
    SYSTOLIC_LoadedExecutable_ValueShape_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  /* Parameter indices (leaf positions) never to donate, even if aliased. */
  const int64_t* non_donatable_input_indices;
  size_t num_non_donatable_input_indices;
} SYSTOLIC_ExecuteOptions;
#define SYSTOLIC_ExecuteOptions_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_ExecuteOptions, num_non_donatable_input_indices)

/* Returns at once: the outputs are futures that later executes may take as
 * arguments before they are ready. argument_lists[d][i] is argument i on the
 * d-th addressable device of the executable; output_lists[d] must have room
 * for num_outputs buffers. device_complete_events, if not NULL, receives one
 * event per device (caller destroys). Arguments whose parameters the module
 * aliases to an output (input_output_alias) are donated: they are dead after
 * the call. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_LoadedExecutable* executable;
  const SYSTOLIC_ExecuteOptions* options; /* may be NULL */
  SYSTOLIC_Buffer* const* const* argument_lists;
  size_t num_devices;
  size_t num_args;
  SYSTOLIC_Buffer** const* output_lists; /* out */
  SYSTOLIC_Event** device_complete_events; /* out; may be NULL */
} SYSTOLIC_LoadedExecutable_Execute_Args;
#define SYSTOLIC_LoadedExecutable_Execute_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_LoadedExecutable_Execute_Args, device_complete_events)
typedef SYSTOLIC_Error* SYSTOLIC_LoadedExecutable_Execute(
    SYSTOLIC_LoadedExecutable_Execute_Args* args);

/* -------------------------------- Buffers -------------------------------- */

/* Destroys the handle (and deletes the buffer if not already deleted). */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Buffer* buffer;
} SYSTOLIC_Buffer_Destroy_Args;
#define SYSTOLIC_Buffer_Destroy_Args_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Buffer_Destroy_Args, buffer)
typedef SYSTOLIC_Error* SYSTOLIC_Buffer_Destroy(SYSTOLIC_Buffer_Destroy_Args* args);

/* Frees the device memory; the handle stays valid and reports deleted. */
typedef SYSTOLIC_Error* SYSTOLIC_Buffer_Delete(SYSTOLIC_Buffer_Destroy_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Buffer* buffer;
  int64_t id;                    /* out */
  SYSTOLIC_Buffer_Type type;     /* out */
  const int64_t* dims;           /* out; owned by the buffer */
  size_t num_dims;               /* out */
  size_t on_device_size_in_bytes; /* out */
  SYSTOLIC_Device* device;       /* out */
  SYSTOLIC_Memory* memory;       /* out */
  bool is_deleted;               /* out: deleted or donated */
  const char* name;              /* out; owned by the buffer */
  size_t name_size;              /* out */
} SYSTOLIC_Buffer_Describe_Args;
#define SYSTOLIC_Buffer_Describe_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Buffer_Describe_Args, name_size)
typedef SYSTOLIC_Error* SYSTOLIC_Buffer_Describe(SYSTOLIC_Buffer_Describe_Args* args);

/* Copies the value, row-major, into `dst` once it is ready; `event` (caller
 * destroys) is ready when `dst` is filled. dst_size must be the buffer's
 * size in bytes. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Buffer* src;
  void* dst;
  size_t dst_size;
  SYSTOLIC_Event* event; /* out */
} SYSTOLIC_Buffer_ToHostBuffer_Args;
#define SYSTOLIC_Buffer_ToHostBuffer_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Buffer_ToHostBuffer_Args, event)
typedef SYSTOLIC_Error* SYSTOLIC_Buffer_ToHostBuffer(SYSTOLIC_Buffer_ToHostBuffer_Args* args);

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Buffer* buffer;
  SYSTOLIC_Device* dst_device;
  SYSTOLIC_Buffer* dst_buffer; /* out; caller destroys */
} SYSTOLIC_Buffer_CopyToDevice_Args;
#define SYSTOLIC_Buffer_CopyToDevice_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Buffer_CopyToDevice_Args, dst_buffer)
typedef SYSTOLIC_Error* SYSTOLIC_Buffer_CopyToDevice(SYSTOLIC_Buffer_CopyToDevice_Args* args);

/* Ready when the buffer's value is defined (or failed). Caller destroys. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Buffer* buffer;
  SYSTOLIC_Event* event; /* out */
} SYSTOLIC_Buffer_ReadyEvent_Args;
#define SYSTOLIC_Buffer_ReadyEvent_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Buffer_ReadyEvent_Args, event)
typedef SYSTOLIC_Error* SYSTOLIC_Buffer_ReadyEvent(SYSTOLIC_Buffer_ReadyEvent_Args* args);

/* ------------------------- Extension: compile events --------------------- */

/* One compile request: a cache hit, or a miss with its cause against the
 * nearest cached program of the same name. Strings live as long as the
 * client. */
typedef struct {
  size_t struct_size;
  int64_t timestamp_ns; /* since the client was created */
  const char* module_name;
  const char* fingerprint;
  bool cache_hit;
  int64_t compile_time_ns;
  int64_t program_id;          /* the executable that serves the request */
  int64_t compared_program_id; /* nearest cached program, -1 if none */
  int cause_kind;              /* systolic::trace::RecompilationKind */
  const char* cause;           /* "" for a hit */
  /* Since 1.1: what differs, as fields. */
  int64_t cause_argument;      /* first argument that differs, -1 if none */
  int64_t cause_instruction;   /* first instruction that differs, -1 if none */
  const char* cause_before;    /* what differs as it was ("" if nothing is named) */
  const char* cause_now;       /* ... and as it is now */
} SYSTOLIC_CompileEvent;
#define SYSTOLIC_CompileEvent_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_CompileEvent, cause_now)
#define SYSTOLIC_CompileEvent_STRUCT_SIZE_1_0 SYSTOLIC_STRUCT_SIZE(SYSTOLIC_CompileEvent, cause)

/* Copies up to `capacity` events starting at `first` into `events`;
 * `num_total` is how many the client has recorded. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Client* client;
  size_t first;
  SYSTOLIC_CompileEvent* events; /* caller-owned, each struct_size set */
  size_t capacity;
  size_t num_copied; /* out */
  size_t num_total;  /* out */
} SYSTOLIC_Client_CompileEvents_Args;
#define SYSTOLIC_Client_CompileEvents_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Client_CompileEvents_Args, num_total)
typedef SYSTOLIC_Error* SYSTOLIC_Client_CompileEvents(SYSTOLIC_Client_CompileEvents_Args* args);

typedef struct {
  SYSTOLIC_Extension_Base base;
  SYSTOLIC_Client_CompileEvents* Client_CompileEvents;
} SYSTOLIC_CompileEvents_Extension;
#define SYSTOLIC_CompileEvents_Extension_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_CompileEvents_Extension, Client_CompileEvents)

/* ------------------------ Extension: execution timing -------------------- */

/* How long the last completed execute on `device` took on the simulated
 * device. `available` is false while the plugin cannot time programs;
 * `note` then says why. */
typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Device* device;
  bool available;        /* out */
  int64_t cycles;        /* out */
  int64_t time_ps;       /* out */
  const char* note;      /* out; owned by the client */
  size_t note_size;      /* out */
} SYSTOLIC_Device_LastExecutionTiming_Args;
#define SYSTOLIC_Device_LastExecutionTiming_Args_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Device_LastExecutionTiming_Args, note_size)
typedef SYSTOLIC_Error* SYSTOLIC_Device_LastExecutionTiming(
    SYSTOLIC_Device_LastExecutionTiming_Args* args);

typedef struct {
  SYSTOLIC_Extension_Base base;
  SYSTOLIC_Device_LastExecutionTiming* Device_LastExecutionTiming;
} SYSTOLIC_ExecutionTiming_Extension;
#define SYSTOLIC_ExecutionTiming_Extension_STRUCT_SIZE \
  SYSTOLIC_STRUCT_SIZE(SYSTOLIC_ExecutionTiming_Extension, Device_LastExecutionTiming)

/* ------------------------------- The table ------------------------------- */

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  int major_version;
  int minor_version;
} SYSTOLIC_Api_Version;

#define SYSTOLIC_API_FIELD(name) SYSTOLIC_##name* name

typedef struct {
  size_t struct_size;
  SYSTOLIC_Extension_Base* extension_start;
  SYSTOLIC_Api_Version version;

  SYSTOLIC_API_FIELD(Error_Destroy);
  SYSTOLIC_API_FIELD(Error_Message);
  SYSTOLIC_API_FIELD(Error_GetCode);

  SYSTOLIC_API_FIELD(Plugin_Initialize);
  SYSTOLIC_API_FIELD(Plugin_Attributes);

  SYSTOLIC_API_FIELD(Event_Destroy);
  SYSTOLIC_API_FIELD(Event_IsReady);
  SYSTOLIC_API_FIELD(Event_Error);
  SYSTOLIC_API_FIELD(Event_Await);
  SYSTOLIC_API_FIELD(Event_OnReady);

  SYSTOLIC_API_FIELD(Client_Create);
  SYSTOLIC_API_FIELD(Client_Destroy);
  SYSTOLIC_API_FIELD(Client_PlatformName);
  SYSTOLIC_API_FIELD(Client_PlatformVersion);
  SYSTOLIC_API_FIELD(Client_Devices);
  SYSTOLIC_API_FIELD(Client_AddressableDevices);
  SYSTOLIC_API_FIELD(Client_AddressableMemories);
  SYSTOLIC_API_FIELD(Client_LookupDevice);
  SYSTOLIC_API_FIELD(Client_TopologyDescription);
  SYSTOLIC_API_FIELD(Client_Compile);
  SYSTOLIC_API_FIELD(Client_BufferFromHostBuffer);

  SYSTOLIC_API_FIELD(Device_Describe);
  SYSTOLIC_API_FIELD(Device_DefaultMemory);
  SYSTOLIC_API_FIELD(Device_MemoryStats);

  SYSTOLIC_API_FIELD(Memory_Describe);

  SYSTOLIC_API_FIELD(TopologyDescription_Describe);

  SYSTOLIC_API_FIELD(LoadedExecutable_Destroy);
  SYSTOLIC_API_FIELD(LoadedExecutable_Describe);
  SYSTOLIC_API_FIELD(LoadedExecutable_ValueShape);
  SYSTOLIC_API_FIELD(LoadedExecutable_Execute);

  SYSTOLIC_API_FIELD(Buffer_Destroy);
  SYSTOLIC_API_FIELD(Buffer_Delete);
  SYSTOLIC_API_FIELD(Buffer_Describe);
  SYSTOLIC_API_FIELD(Buffer_ToHostBuffer);
  SYSTOLIC_API_FIELD(Buffer_CopyToDevice);
  SYSTOLIC_API_FIELD(Buffer_ReadyEvent);
} SYSTOLIC_Api;

#undef SYSTOLIC_API_FIELD

#define SYSTOLIC_Api_STRUCT_SIZE SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Api, Buffer_ReadyEvent)

/* The one symbol a plugin exports. */
#define SYSTOLIC_API_ENTRY_POINT "GetSystolicApi"
typedef const SYSTOLIC_Api* (*SYSTOLIC_GetApiFn)(void);

#ifdef __cplusplus
}
#endif

#endif /* SYSTOLIC_RUNTIME_SYSTOLIC_C_API_H_ */
