// The canonical form of a compile request: the module printed without names,
// ids or metadata (so renaming a value or moving a line in the source does
// not recompile), its argument shapes and shardings, and the resolved
// compile options. Its fingerprint is the compile cache key; its parts are
// what recompilation causes are stated in.
#pragma once

#include <string>
#include <vector>

#include "core/hlo/hlo_module.h"
#include "core/runtime/compile_options.h"

namespace systolic::runtime {

struct ModuleSignature {
  struct Instruction {
    std::string canonical;    // `%i4 = f32[8]{0} add(f32[8]{0} %i2, f32[8]{0} %i3)`
    std::string display;      // the same with the module's own names
    std::string computation;  // the module's name for its computation
    bool is_constant = false;
    std::string shape;     // of the instruction, for constant messages
    std::string sharding;  // "" when none
  };

  std::string module_name;
  std::vector<Shape> parameter_shapes;         // entry parameters
  std::vector<std::string> parameter_names;
  std::vector<std::string> parameter_shardings;  // "" when none
  // Every computation, callees first, instructions in post order.
  std::vector<Instruction> instructions;
  // The canonical module header (aliasing, entry layout, replica count...).
  std::string header;
  CompileOptions options;  // resolved: no zeros, no empty device list
  std::string fingerprint;  // of everything above except the names

  static ModuleSignature Of(const HloModule& module, const CompileOptions& resolved_options);
};

}  // namespace systolic::runtime
