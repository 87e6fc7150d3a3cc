#include "core/stablehlo/chlo_special_functions.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/stablehlo/chlo_emitter.h"

namespace systolic::stablehlo {
namespace {

using Cmp = ComparisonDirection;

// The Lanczos approximation with g = 7 and 9 coefficients (Numerical Recipes'
// and XLA's choice): Gamma(z + 1) ~ sqrt(2 pi) t^(z + 1/2) e^-t A(z) with
// t = z + g + 1/2 and A(z) = c0 + sum_k c_k / (z + k).
constexpr double kLanczosGamma = 7;
constexpr double kBaseLanczosCoefficient = 0.99999999999980993227684700473478;
constexpr std::array<double, 8> kLanczosCoefficients = {
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,   -176.61502916214059906584551354,
    12.507343278686904814458936853,     -0.13857109526572011689554707,
    9.984369578019570859563e-6,         1.50563273514931155834e-7};

// log(t) for t = z + g + 1/2, as log(g + 1/2) + log1p(z / (g + 1/2)), which
// keeps its precision for small z.
HloInstruction* LogLanczosT(ChloEmitter& e, HloInstruction* z) {
  const double g_half = kLanczosGamma + 0.5;
  return e.Add(e.Constant(std::log(g_half), z),
               e.Unary(HloOpcode::kLog1p, e.Div(z, e.Constant(g_half, z))));
}

HloInstruction* Lgamma(ChloEmitter& e, HloInstruction* input) {
  // Reflect x < 1/2 through Gamma(x) Gamma(1 - x) = pi / sin(pi x).
  HloInstruction* reflect = e.Compare(input, e.Constant(0.5, input), Cmp::kLt);
  HloInstruction* z = e.Select(reflect, e.Unary(HloOpcode::kNegate, input),
                               e.Sub(input, e.Constant(1, input)));
  HloInstruction* a = e.Constant(kBaseLanczosCoefficient, z);
  for (size_t k = 0; k < kLanczosCoefficients.size(); ++k) {
    a = e.Add(a, e.Div(e.Constant(kLanczosCoefficients[k], z), e.Add(z, e.Constant(k + 1.0, z))));
  }
  HloInstruction* t = e.Add(z, e.Constant(kLanczosGamma + 0.5, z));
  HloInstruction* log_t = LogLanczosT(e, z);
  // log Gamma(z + 1) = log sqrt(2 pi) + (z + 1/2 - t / log t) log t + log A
  // (the t / log t form avoids t^(z+1/2) e^-t overflowing).
  HloInstruction* log_y =
      e.Add(e.Add(e.Constant(std::log(std::sqrt(2 * std::numbers::pi)), z),
                  e.Mul(e.Sub(e.Add(z, e.Constant(0.5, z)), e.Div(t, log_t)), log_t)),
            e.Unary(HloOpcode::kLog, a));
  // log|Gamma(x)| = log(pi) - log|sin(pi x)| - log Gamma(1 - x), with sin
  // taken of the fraction folded into [0, 1/2] for accuracy.
  HloInstruction* abs_input = e.Unary(HloOpcode::kAbs, input);
  HloInstruction* frac = e.Sub(abs_input, e.Unary(HloOpcode::kFloor, abs_input));
  HloInstruction* reduced = e.Select(e.Compare(frac, e.Constant(0.5, frac), Cmp::kGt),
                                     e.Sub(e.Constant(1, frac), frac), frac);
  HloInstruction* log_sin = e.Unary(
      HloOpcode::kLog,
      e.Unary(HloOpcode::kSin, e.Mul(e.Constant(std::numbers::pi, reduced), reduced)));
  // At the poles (non-positive integers) log_sin is -inf: the result is +inf.
  HloInstruction* reflection =
      e.Select(e.IsFinite(log_sin),
               e.Sub(e.Sub(e.Constant(std::log(std::numbers::pi), log_sin), log_sin), log_y),
               e.Unary(HloOpcode::kNegate, log_sin));
  HloInstruction* result = e.Select(reflect, reflection, log_y);
  return e.Select(e.IsInf(input), e.Constant(INFINITY, input), result);
}

HloInstruction* Digamma(ChloEmitter& e, HloInstruction* input) {
  HloInstruction* reflect = e.Compare(input, e.Constant(0.5, input), Cmp::kLt);
  HloInstruction* z = e.Select(reflect, e.Unary(HloOpcode::kNegate, input),
                               e.Sub(input, e.Constant(1, input)));
  // The derivative of log A(z): A'(z) / A(z).
  HloInstruction* num = e.Constant(0, z);
  HloInstruction* denom = e.Constant(kBaseLanczosCoefficient, z);
  for (size_t k = 0; k < kLanczosCoefficients.size(); ++k) {
    HloInstruction* zk = e.Add(z, e.Constant(k + 1.0, z));
    HloInstruction* c = e.Constant(kLanczosCoefficients[k], z);
    num = e.Sub(num, e.Div(c, e.Mul(zk, zk)));
    denom = e.Add(denom, e.Div(c, zk));
  }
  HloInstruction* t = e.Add(z, e.Constant(kLanczosGamma + 0.5, z));
  HloInstruction* y =
      e.Sub(e.Add(LogLanczosT(e, z), e.Div(num, denom)), e.Div(e.Constant(kLanczosGamma, t), t));
  // digamma(1 - x) - digamma(x) = pi cot(pi x); the argument is shifted by a
  // whole number so that pi x stays small.
  HloInstruction* reduced = e.Add(
      input, e.Unary(HloOpcode::kAbs,
                     e.Unary(HloOpcode::kFloor, e.Add(input, e.Constant(0.5, input)))));
  HloInstruction* pi_reduced = e.Mul(e.Constant(std::numbers::pi, reduced), reduced);
  HloInstruction* reflection =
      e.Sub(y, e.Div(e.Mul(e.Constant(std::numbers::pi, y), e.Unary(HloOpcode::kCos, pi_reduced)),
                     e.Unary(HloOpcode::kSin, pi_reduced)));
  HloInstruction* result = e.Select(reflect, reflection, y);
  // Poles at zero and the negative integers.
  HloInstruction* pole =
      e.Binary(HloOpcode::kAnd, e.Compare(input, e.Constant(0, input), Cmp::kLe),
               e.Compare(input, e.Unary(HloOpcode::kFloor, input), Cmp::kEq));
  return e.Select(pole, e.Constant(NAN, input), result);
}

// Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011): with
// w = -log(1 - x^2), erfinv(x) = x p(w) for one polynomial below w = 5 and
// another above.
constexpr std::array<double, 9> kErfInvSmallW = {
    2.81022636e-08,  3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
    -0.00125372503, -0.00417768164,  0.246640727,    1.50140941};
constexpr std::array<double, 9> kErfInvLargeW = {
    -0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
    -0.0076224613,   0.00943887047,  1.00167406,    2.83297682};

HloInstruction* ErfInv(ChloEmitter& e, HloInstruction* x) {
  HloInstruction* w =
      e.Unary(HloOpcode::kNegate,
              e.Unary(HloOpcode::kLog1p, e.Unary(HloOpcode::kNegate, e.Mul(x, x))));
  HloInstruction* small = e.Compare(w, e.Constant(5, w), Cmp::kLt);
  HloInstruction* shifted = e.Select(small, e.Sub(w, e.Constant(2.5, w)),
                                     e.Sub(e.Unary(HloOpcode::kSqrt, w), e.Constant(3, w)));
  auto coefficient = [&](size_t i) {
    return e.Select(small, e.Constant(kErfInvSmallW[i], w), e.Constant(kErfInvLargeW[i], w));
  };
  HloInstruction* p = coefficient(0);
  for (size_t i = 1; i < kErfInvSmallW.size(); ++i) p = e.Add(coefficient(i), e.Mul(p, shifted));
  HloInstruction* result = e.Mul(p, x);
  if (x->shape().element_type() == F64) {
    // The polynomials are good to f32's precision; two Newton steps on
    // erf(y) = x (erf'(y) = 2/sqrt(pi) e^-y^2) bring it to f64's.
    for (int step = 0; step < 2; ++step) {
      HloInstruction* slope =
          e.Mul(e.Constant(2 / std::sqrt(std::numbers::pi), result),
                e.Unary(HloOpcode::kExp, e.Unary(HloOpcode::kNegate, e.Mul(result, result))));
      result = e.Sub(result, e.Div(e.Sub(e.Unary(HloOpcode::kErf, result), x), slope));
    }
  }
  // erfinv(+-1) = +-inf; beyond, NaN (w is NaN there already).
  HloInstruction* at_one =
      e.Compare(e.Unary(HloOpcode::kAbs, x), e.Constant(1, x), Cmp::kEq);
  return e.Select(at_one, e.Mul(x, e.Constant(INFINITY, x)), result);
}

// The next representable value after x in the direction of y, on the bits:
// stepping the magnitude by one unit in the last place.
HloInstruction* NextAfter(ChloEmitter& e, HloInstruction* x, HloInstruction* y) {
  const int width = primitive_util::BitWidth(x->shape().element_type());
  const PrimitiveType bits = width == 64 ? S64 : width == 32 ? S32 : width == 16 ? S16 : S8;
  HloInstruction* xi = e.BitcastConvert(x, bits);
  HloInstruction* yi = e.BitcastConvert(y, bits);
  // The sign bit alone is the type's most negative integer.
  const int64_t sign_bit =
      width == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (width - 1));
  HloInstruction* sign_mask = e.IntConstant(sign_bit, bits, xi);
  HloInstruction* magnitude_mask = e.Unary(HloOpcode::kNot, sign_mask);
  HloInstruction* x_abs = e.Binary(HloOpcode::kAnd, xi, magnitude_mask);
  HloInstruction* y_abs = e.Binary(HloOpcode::kAnd, yi, magnitude_mask);
  HloInstruction* x_sign = e.Binary(HloOpcode::kAnd, xi, sign_mask);
  HloInstruction* y_sign = e.Binary(HloOpcode::kAnd, yi, sign_mask);
  HloInstruction* zero = e.IntConstant(0, bits, xi);
  // Away from zero when |x| > |y| or the signs differ, else towards it; in
  // the integer view both are +-1 on the bits.
  HloInstruction* shrink = e.Binary(HloOpcode::kOr, e.Compare(x_abs, y_abs, Cmp::kGt),
                                    e.Compare(x_sign, y_sign, Cmp::kNe));
  HloInstruction* step = e.Select(shrink, e.IntConstant(-1, bits, xi), e.IntConstant(1, bits, xi));
  HloInstruction* result = e.Add(xi, step);
  // From zero, the smallest subnormal with y's sign; from zero to zero, y.
  HloInstruction* from_zero =
      e.Select(e.Compare(y_abs, zero, Cmp::kEq), yi,
               e.Binary(HloOpcode::kOr, y_sign, e.IntConstant(1, bits, xi)));
  result = e.Select(e.Compare(x_abs, zero, Cmp::kEq), from_zero, result);
  result = e.Select(e.Compare(x, y, Cmp::kEq), yi, result);
  HloInstruction* as_float = e.BitcastConvert(result, x->shape().element_type());
  HloInstruction* any_nan = e.Binary(HloOpcode::kOr, e.Compare(x, x, Cmp::kNe),
                                     e.Compare(y, y, Cmp::kNe));
  return e.Select(any_nan, e.Constant(NAN, x), as_float);
}

}  // namespace

void AddChloSpecialFunctions(absl::flat_hash_map<std::string, OpConverter>* converters) {
  auto& m = *converters;
  m["chlo.lgamma"] = ChloElementwiseFloat(Lgamma);
  m["chlo.digamma"] = ChloElementwiseFloat(Digamma);
  m["chlo.erf_inv"] = ChloElementwiseFloat(ErfInv);
  m["chlo.next_after"] = ChloBinaryFloatNative(NextAfter);
}

}  // namespace systolic::stablehlo
