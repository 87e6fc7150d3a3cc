// The plugin side of the C ABI: the function table every plugin returns
// from GetSystolicApi(), implemented once over the runtime engine
// (LocalClient). A plugin only supplies its Backend.
#pragma once

#include <memory>

#include "core/runtime/backend.h"
#include "core/runtime/systolic_c_api.h"

// Marks the entry point as the one symbol a plugin exports.
#define SYSTOLIC_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace systolic::runtime {

using BackendFactory = std::unique_ptr<Backend> (*)();

// The table for a plugin whose devices `factory` makes (a new backend per
// client). Built once; lives for the life of the process.
const SYSTOLIC_Api* MakeSystolicApi(BackendFactory factory);

}  // namespace systolic::runtime
