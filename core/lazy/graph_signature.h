// A canonical description of a graph a sync would compile: equal
// signatures make the same program, so the signature's key is the compile
// cache key. Its entries keep what recompilation causes are stated in: the
// op sequence, argument shapes, baked-in constants, shardings, attributes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/shape.h"
#include "core/lazy/graph_walk.h"

namespace systolic::lazy {

class GraphSignature {
 public:
  // One node of the walk, in post order.
  struct Entry {
    // Opcode, called computations and operand positions: the op sequence.
    std::string structure;
    // Everything that makes the program: the node's signature and operands.
    std::string full;
    int64_t parameter_number = -1;  // >= 0 for device data
    Shape shape;
    std::string constant;  // value text of a constant
    std::string sharding;  // "" when not annotated
    std::string op_name;   // the user's name for it, for messages
    std::string opcode;
  };

  static GraphSignature Of(const GraphWalk& walk);

  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<int64_t>& roots() const { return roots_; }
  // Positions (in entries) of the parameters, by parameter number.
  const std::vector<int64_t>& parameters() const { return parameters_; }
  // Equal keys mean equal programs.
  const std::string& key() const { return key_; }
  uint64_t hash() const { return hash_; }
  // The hash as 16 hex digits.
  std::string fingerprint() const;

 private:
  std::vector<Entry> entries_;
  std::vector<int64_t> roots_;
  std::vector<int64_t> parameters_;
  std::string key_;
  uint64_t hash_ = 0;
};

// 64-bit FNV-1a: stable across runs, so fingerprints can be compared between
// saved profiles.
uint64_t StableHash(const std::string& text);

}  // namespace systolic::lazy
