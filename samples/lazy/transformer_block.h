// The transformer block the samples train: pre-layer-norm causal
// self-attention and a GELU MLP, matrix products in a chosen type (bf16:
// the MXU's input type), with its parameters' names and initial values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "core/hlo/literal.h"
#include "core/lazy/tensor.h"
#include "samples/lazy/sample_support.h"

namespace systolic::samples {

enum BlockParam {
  kLn1Gamma, kLn1Beta, kQuery, kKey, kValue, kOutput,
  kLn2Gamma, kLn2Beta, kUp, kUpBias, kDown, kDownBias, kBlockParamCount
};

// "<prefix>/attention/query/weight", … in BlockParam order.
std::vector<std::string> BlockParamNames(const std::string& prefix);

// Layer-norm scales of one, zero offsets and biases, normal weights scaled
// by their fan-in; drawn from `random` in BlockParam order.
std::vector<Literal> InitialBlockParams(int64_t model, int64_t hidden, HostRandom& random);

// The parameters of a block and their matrix products' FLOPs per token.
int64_t BlockParameterCount(int64_t model, int64_t hidden);
int64_t BlockMatmulParameterCount(int64_t model, int64_t hidden);

// What the transformer samples learn: tanh(inputs @ map) for inputs
// [..., model] and map [model, model].
Literal TanhOfLinearMap(const Literal& inputs, const Literal& map);

// 0 on and below the diagonal, -1e9 above: a token sees only earlier ones.
Literal CausalMask(int64_t tokens);

// The block on x [batch, tokens, model]; `p` in BlockParam order.
lazy::Tensor TransformerBlock(const lazy::Tensor& x, absl::Span<const lazy::Tensor> p,
                              const lazy::Tensor& mask, PrimitiveType matmul_type);

}  // namespace systolic::samples
