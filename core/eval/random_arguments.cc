#include "core/eval/random_arguments.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/hlo/element_convert.h"

namespace systolic {
namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1) with 53 random bits.
  double Symmetric() { return double(Next() >> 11) * 0x1.0p-52 - 1.0; }

 private:
  uint64_t state_;
};

uint64_t Mix(uint64_t a, uint64_t b) {
  SplitMix64 m(a ^ (b * 0xD1B54A32D192ED03ull));
  return m.Next();
}

void Fill(Literal& literal, SplitMix64& rng) {
  const Shape& shape = literal.shape();
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < literal.tuple_size(); ++i) Fill(literal.tuple_element(i), rng);
    return;
  }
  if (!shape.IsArray()) return;
  ArrayTypeSwitch(shape.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::Native;
    auto data = literal.data<T>();
    for (auto& v : data) {
      if constexpr (std::is_same_v<T, bool>) {
        v = (rng.Next() >> 63) != 0;
      } else if constexpr (kIsComplex<T>) {
        using R = typename T::value_type;
        const double re = rng.Symmetric();
        v = T(R(re), R(rng.Symmetric()));
      } else if constexpr (kIsIntegral<T>) {
        int64_t lo = std::numeric_limits<T>::is_signed ? -8 : 0;
        int64_t hi = std::numeric_limits<T>::is_signed ? 7 : 15;
        if constexpr (kIsSubByteInt<T>) {
          lo = std::max<int64_t>(lo, T::kMin);
          hi = std::min<int64_t>(hi, T::kMax);
        }
        v = T(lo + int64_t(rng.Next() % uint64_t(hi - lo + 1)));
      } else {
        v = ConvertElement<T>(rng.Symmetric());
      }
    }
  });
}

// In double: a pod-sized shape can overflow int64 bytes.
double HostBytes(const Shape& shape) {
  if (shape.IsTuple()) {
    double bytes = 0;
    for (const Shape& element : shape.tuple_shapes()) bytes += HostBytes(element);
    return bytes;
  }
  if (!shape.IsArray()) return 0;
  double elements = 1;
  for (int64_t d : shape.dimensions()) elements *= double(d);
  return elements * double(std::max<int64_t>(1, primitive_util::ByteWidth(shape.element_type())));
}

}  // namespace

Literal MakeRandomLiteral(const Shape& shape, uint64_t seed) {
  Literal literal(shape);
  SplitMix64 rng(seed);
  Fill(literal, rng);
  return literal;
}

std::vector<Literal> MakeRandomArguments(const HloComputation& computation, uint64_t seed,
                                         uint64_t stream) {
  std::vector<Literal> args;
  for (int64_t i = 0; i < computation.num_parameters(); ++i) {
    const uint64_t parameter_seed = Mix(Mix(seed, stream), uint64_t(i));
    args.push_back(MakeRandomLiteral(computation.parameter_instruction(i)->shape(), parameter_seed));
  }
  return args;
}

absl::Status CheckArgumentsFit(const HloComputation& computation, int64_t max_bytes) {
  double total = 0;
  for (int64_t i = 0; i < computation.num_parameters(); ++i) {
    const HloInstruction* parameter = computation.parameter_instruction(i);
    total += HostBytes(parameter->shape());
    if (total > double(max_bytes)) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the arguments need ", int64_t(total), " bytes of host memory by parameter %",
          parameter->name(), " (", parameter->shape().ToString(), "); the budget is ", max_bytes));
    }
  }
  return absl::OkStatus();
}

}  // namespace systolic
