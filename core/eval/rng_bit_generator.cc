#include "core/eval/rng_bit_generator.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/eval/strided_copy.h"
#include "core/hlo/element_convert.h"

namespace systolic::eval {
namespace {

inline uint32_t RotateLeft(uint32_t v, int distance) {
  return (v << distance) | (v >> (32 - distance));
}

struct U128 {
  uint64_t low = 0, high = 0;
  U128 Plus(uint64_t v) const {
    U128 r{low + v, high};
    if (r.low < low) ++r.high;
    return r;
  }
};

// Writes the low `bits` of `value` as element i of a buffer of `type`.
void StoreBits(uint8_t* data, int64_t i, int bytes, uint64_t value) {
  std::memcpy(data + i * bytes, &value, size_t(bytes));  // little-endian: the low bytes
}

}  // namespace

std::array<uint32_t, 2> ThreeFry2x32(std::array<uint32_t, 2> key, std::array<uint32_t, 2> counter) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  uint32_t x0 = counter[0] + ks[0];
  uint32_t x1 = counter[1] + ks[1];
  for (int block = 0; block < 5; ++block) {
    const int* rotations = kRotations + (block % 2) * 4;
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = RotateLeft(x1, rotations[r]);
      x1 ^= x0;
    }
    // Key injection after every four rounds.
    x0 += ks[(block + 1) % 3];
    x1 += ks[(block + 2) % 3] + uint32_t(block + 1);
  }
  return {x0, x1};
}

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 2> key, std::array<uint32_t, 4> x) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(x[0]) * 0xD2511F53u;
    const uint64_t p1 = uint64_t(x[2]) * 0xCD9E8D57u;
    x = {uint32_t(p1 >> 32) ^ x[1] ^ key[0], uint32_t(p1), uint32_t(p0 >> 32) ^ x[3] ^ key[1],
         uint32_t(p0)};
    key[0] += 0x9E3779B9u;
    key[1] += 0xBB67AE85u;
  }
  return x;
}

absl::StatusOr<Literal> RngBitGenerator(RandomAlgorithm algorithm, const Literal& state,
                                        const Shape& shape) {
  if (!shape.IsArray()) return absl::InvalidArgumentError("rng-bit-generator needs an array result");
  const PrimitiveType type = shape.element_type();
  const int bits = primitive_util::BitWidth(type);
  if (type == PRED || primitive_util::IsComplexType(type) ||
      (bits != 8 && bits != 16 && bits != 32 && bits != 64)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rng-bit-generator cannot produce ", primitive_util::LowercasePrimitiveTypeName(type)));
  }
  const bool philox = algorithm != RandomAlgorithm::kThreeFry;
  const int64_t state_words = philox ? 3 : 2;
  if (state.element_type() != U64 || state.shape().rank() != 1 ||
      state.element_count() < state_words) {
    return absl::InvalidArgumentError(absl::StrCat("rng-bit-generator (",
                                                   philox ? "philox" : "three_fry",
                                                   ") needs a u64[", state_words,
                                                   "] state, got ", state.shape().ToString()));
  }
  auto words = state.data<uint64_t>();
  const std::array<uint32_t, 2> key = {uint32_t(words[0]), uint32_t(words[0] >> 32)};
  Literal out(Shape(type, shape.dimensions()));
  Literal new_state = state.Clone();
  uint8_t* data = static_cast<uint8_t*>(out.untyped_data());
  const int bytes = bits / 8;
  const int64_t n = out.element_count();

  if (!philox) {
    const uint64_t counter = words[1];
    if (bits == 64) {
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t c = counter + uint64_t(i);
        auto r = ThreeFry2x32(key, {uint32_t(c), uint32_t(c >> 32)});
        StoreBits(data, i, bytes, uint64_t(r[0]) | (uint64_t(r[1]) << 32));
      }
      new_state.data<uint64_t>()[1] = counter + uint64_t(n);
    } else if (shape.rank() == 0) {
      auto r = ThreeFry2x32(key, {uint32_t(counter), uint32_t(counter >> 32)});
      StoreBits(data, 0, bytes, r[0]);
      new_state.data<uint64_t>()[1] = counter + 1;
    } else {
      // XLA splits the shape in halves along its first even dimension (else
      // its largest): each draw fills positions 2h and 2h+1 of that
      // dimension, counted over the halved shape.
      const std::vector<int64_t>& dims = shape.dimensions();
      int64_t split = -1;
      for (int64_t d = 0; d < shape.rank() && split < 0; ++d) {
        if (dims[d] % 2 == 0) split = d;
      }
      if (split < 0) {
        split = 0;
        for (int64_t d = 1; d < shape.rank(); ++d) {
          if (dims[d] > dims[split]) split = d;
        }
      }
      std::vector<int64_t> half = dims;
      half[split] = (dims[split] + 1) / 2;
      int64_t half_count = 1;
      for (int64_t d : half) half_count *= d;
      const std::vector<int64_t> out_strides = RowMajorStrides(dims);
      std::vector<int64_t> index(shape.rank(), 0);
      for (int64_t j = 0; j < half_count; ++j) {
        const uint64_t c = counter + uint64_t(j);
        auto r = ThreeFry2x32(key, {uint32_t(c), uint32_t(c >> 32)});
        int64_t pos = 0;
        for (int64_t d = 0; d < shape.rank(); ++d) {
          pos += (d == split ? 2 * index[d] : index[d]) * out_strides[d];
        }
        StoreBits(data, pos, bytes, r[0]);
        if (2 * index[split] + 1 < dims[split]) StoreBits(data, pos + out_strides[split], bytes, r[1]);
        for (int64_t d = shape.rank() - 1; d >= 0; --d) {
          if (++index[d] < half[d]) break;
          index[d] = 0;
        }
      }
      new_state.data<uint64_t>()[1] = counter + uint64_t(half_count);
    }
    return Literal::MakeTupleOwned(std::move(new_state), std::move(out));
  }

  // Philox: blocks of four 32-bit words from a 128-bit counter, dealt out
  // round robin (two 64-bit words per block for 64-bit results).
  const U128 counter{words[1], words[2]};
  const int64_t per_block = bits == 64 ? 2 : 4;
  const int64_t blocks = (n + per_block - 1) / per_block;
  for (int64_t b = 0; b < blocks; ++b) {
    const U128 c = counter.Plus(uint64_t(b));
    auto r = Philox4x32(key, {uint32_t(c.low), uint32_t(c.low >> 32), uint32_t(c.high),
                              uint32_t(c.high >> 32)});
    for (int64_t w = 0; w < per_block; ++w) {
      const int64_t i = b * per_block + w;
      if (i >= n) break;
      uint64_t v = bits == 64 ? uint64_t(r[2 * w]) | (uint64_t(r[2 * w + 1]) << 32) : r[w];
      StoreBits(data, i, bytes, v);
    }
  }
  const U128 next = counter.Plus(uint64_t(blocks));
  new_state.data<uint64_t>()[1] = next.low;
  new_state.data<uint64_t>()[2] = next.high;
  return Literal::MakeTupleOwned(std::move(new_state), std::move(out));
}

absl::StatusOr<Literal> Rng(RandomDistribution distribution, const Literal& a, const Literal& b,
                            const Shape& shape, std::mt19937_64& engine) {
  if (!shape.IsArray() || a.element_count() != 1 || b.element_count() != 1) {
    return absl::InvalidArgumentError("rng needs scalar parameters and an array result");
  }
  const PrimitiveType type = shape.element_type();
  Literal out(Shape(type, shape.dimensions()));
  const int64_t n = out.element_count();
  auto uniform01 = [&] { return double(engine() >> 11) * 0x1.0p-53; };
  if (distribution == RandomDistribution::kNormal) {
    if (!primitive_util::IsFloatingPointType(type)) {
      return absl::InvalidArgumentError("rng_normal needs a floating-point result");
    }
    const double mean = a.GetAsDouble(0), stddev = b.GetAsDouble(0);
    for (int64_t i = 0; i < n; ++i) {
      double u1 = std::max(uniform01(), 1e-300), u2 = uniform01();
      out.SetFromDouble(i, mean + stddev * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2));
    }
    return out;
  }
  if (primitive_util::IsFloatingPointType(type)) {
    const double lo = a.GetAsDouble(0), hi = b.GetAsDouble(0);
    for (int64_t i = 0; i < n; ++i) out.SetFromDouble(i, lo + (hi - lo) * uniform01());
    return out;
  }
  if (primitive_util::IsIntegralType(type) || type == PRED) {
    const int64_t lo = a.GetAsInt64(0), hi = b.GetAsInt64(0);
    const uint64_t range = uint64_t(hi) - uint64_t(lo);
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t r = hi > lo ? engine() % range : 0;
      out.SetFromInt64(i, int64_t(uint64_t(lo) + r));
    }
    return out;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "rng does not produce ", primitive_util::LowercasePrimitiveTypeName(type)));
}

}  // namespace systolic::eval
