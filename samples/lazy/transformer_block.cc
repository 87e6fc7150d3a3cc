#include "samples/lazy/transformer_block.h"

#include <cmath>

#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/shape_ops.h"

namespace systolic::samples {
namespace {

using lazy::Tensor;

// x @ w with both operands rounded to `type`, result back in f32.
Tensor MatMulIn(PrimitiveType type, const Tensor& x, const Tensor& w) {
  return lazy::Cast(lazy::MatMul(lazy::Cast(x, type), lazy::Cast(w, type)), F32);
}

Literal Filled(int64_t n, float value) {
  Literal l(Shape(F32, {n}));
  for (float& v : l.data<float>()) v = value;
  return l;
}

}  // namespace

std::vector<std::string> BlockParamNames(const std::string& prefix) {
  std::vector<std::string> names;
  for (const char* name :
       {"attention/layer_norm/gamma", "attention/layer_norm/beta", "attention/query/weight",
        "attention/key/weight", "attention/value/weight", "attention/output/weight",
        "mlp/layer_norm/gamma", "mlp/layer_norm/beta", "mlp/up/weight", "mlp/up/bias",
        "mlp/down/weight", "mlp/down/bias"}) {
    names.push_back(prefix + "/" + name);
  }
  return names;
}

std::vector<Literal> InitialBlockParams(int64_t model, int64_t hidden, HostRandom& random) {
  const double init = 1.0 / std::sqrt(double(model));
  std::vector<Literal> p;
  p.push_back(Filled(model, 1));
  p.push_back(Filled(model, 0));
  for (int i = 0; i < 4; ++i) p.push_back(random.Normal({model, model}, init));
  p.push_back(Filled(model, 1));
  p.push_back(Filled(model, 0));
  p.push_back(random.Normal({model, hidden}, init));
  p.push_back(Filled(hidden, 0));
  p.push_back(random.Normal({hidden, model}, 1.0 / std::sqrt(double(hidden))));
  p.push_back(Filled(model, 0));
  return p;
}

int64_t BlockMatmulParameterCount(int64_t model, int64_t hidden) {
  return 4 * model * model + 2 * model * hidden;
}

int64_t BlockParameterCount(int64_t model, int64_t hidden) {
  return BlockMatmulParameterCount(model, hidden) + 5 * model + hidden;
}

Literal TanhOfLinearMap(const Literal& inputs, const Literal& map) {
  const int64_t model = map.shape().dimensions(0);
  const int64_t rows = inputs.shape().num_elements() / model;
  Literal targets(inputs.shape());
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t j = 0; j < model; ++j) {
      double sum = 0;
      for (int64_t i = 0; i < model; ++i) {
        sum += inputs.data<float>()[row * model + i] * map.data<float>()[i * model + j];
      }
      targets.data<float>()[row * model + j] = float(std::tanh(sum));
    }
  }
  return targets;
}

Literal CausalMask(int64_t tokens) {
  Literal mask(Shape(F32, {tokens, tokens}));
  for (int64_t r = 0; r < tokens; ++r) {
    for (int64_t c = r + 1; c < tokens; ++c) mask.data<float>()[r * tokens + c] = -1e9f;
  }
  return mask;
}

Tensor TransformerBlock(const Tensor& x, absl::Span<const Tensor> p, const Tensor& mask,
                        PrimitiveType matmul_type) {
  auto matmul = [&](const Tensor& a, const Tensor& b) { return MatMulIn(matmul_type, a, b); };
  const double scale = 1.0 / std::sqrt(double(x.dim(-1)));
  lazy::NameScope scope("transformer");
  Tensor h;
  {
    lazy::NameScope attention("attention");
    Tensor a = lazy::LayerNorm(x, p[kLn1Gamma], p[kLn1Beta]);
    Tensor q, k, v;
    {
      lazy::NameScope s("query");
      q = matmul(a, p[kQuery]);
    }
    {
      lazy::NameScope s("key");
      k = matmul(a, p[kKey]);
    }
    {
      lazy::NameScope s("value");
      v = matmul(a, p[kValue]);
    }
    Tensor scores = matmul(q, lazy::TransposeLast2(k)) * scale;
    Tensor weights = lazy::Softmax(scores + mask, -1);
    Tensor context = matmul(weights, v);
    lazy::NameScope s("output");
    h = x + matmul(context, p[kOutput]);
  }
  lazy::NameScope mlp("mlp");
  Tensor m = lazy::LayerNorm(h, p[kLn2Gamma], p[kLn2Beta]);
  Tensor up;
  {
    lazy::NameScope s("up");
    up = lazy::Gelu(matmul(m, p[kUp]) + p[kUpBias]);
  }
  lazy::NameScope s("down");
  return h + matmul(up, p[kDown]) + p[kDownBias];
}

}  // namespace systolic::samples
