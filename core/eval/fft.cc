#include "core/eval/fft.h"

#include <unsupported/Eigen/FFT>
#include <complex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/eval/strided_copy.h"

namespace systolic::eval {
namespace {

using Complex = std::complex<double>;

// A dense complex128 array with its dimensions.
struct Signal {
  std::vector<int64_t> dims;
  std::vector<Complex> data;
};

// In-place 1-D transform of every line along `axis`.
void TransformAxis(Signal& s, int64_t axis, bool inverse, Eigen::FFT<double>& fft) {
  const int64_t n = s.dims[axis];
  if (n == 0) return;
  const std::vector<int64_t> strides = RowMajorStrides(s.dims);
  const int64_t stride = strides[axis];
  const int64_t lines = int64_t(s.data.size()) / n;
  std::vector<Complex> in(n), out(n);
  for (int64_t line = 0; line < lines; ++line) {
    // Start of the line: split `line` into the index above and below `axis`.
    const int64_t below = line % stride, above = line / stride;
    const int64_t base = above * stride * n + below;
    for (int64_t i = 0; i < n; ++i) in[i] = s.data[base + i * stride];
    if (inverse) {
      fft.inv(out, in);  // scaled by 1/n
    } else {
      fft.fwd(out, in);
    }
    for (int64_t i = 0; i < n; ++i) s.data[base + i * stride] = out[i];
  }
}

Signal ToSignal(const Literal& l) {
  Signal s{l.shape().dimensions(), std::vector<Complex>(size_t(l.element_count()))};
  for (int64_t i = 0; i < l.element_count(); ++i) s.data[i] = l.GetAsComplex128(i);
  return s;
}

}  // namespace

absl::StatusOr<Literal> Fft(const Literal& operand, FftType type,
                            absl::Span<const int64_t> fft_length, const Shape& result_shape) {
  const Shape& s = operand.shape();
  const int64_t rank = s.rank();
  const int64_t k = int64_t(fft_length.size());
  if (!s.IsArray() || k < 1 || k > 3 || k > rank || !result_shape.IsArray() ||
      result_shape.rank() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("fft: fft_length of size ", k,
                                                   " does not fit ", s.ToString()));
  }
  for (int64_t i = 0; i < k; ++i) {
    const int64_t d = rank - k + i;
    if (result_shape.dimensions(d) !=
        (type == FftType::kRfft && i == k - 1 ? fft_length[i] / 2 + 1 : fft_length[i])) {
      if (!(type == FftType::kIrfft && i < k - 1 && result_shape.dimensions(d) == fft_length[i])) {
        return absl::InvalidArgumentError(absl::StrCat("fft: the result ", result_shape.ToString(),
                                                       " does not match fft_length"));
      }
    }
  }
  Eigen::FFT<double> fft;
  Signal sig = ToSignal(operand);
  switch (type) {
    case FftType::kFft:
    case FftType::kIfft:
      for (int64_t i = 0; i < k; ++i) TransformAxis(sig, rank - k + i, type == FftType::kIfft, fft);
      break;
    case FftType::kRfft: {
      for (int64_t i = 0; i < k; ++i) TransformAxis(sig, rank - k + i, false, fft);
      // Keep the first n/2 + 1 terms of the last dimension.
      std::vector<int64_t> limits = sig.dims;
      limits.back() = fft_length[k - 1] / 2 + 1;
      Signal cut{limits, std::vector<Complex>(result_shape.num_elements())};
      StridedCopy(limits, sig.data.data(), 0, RowMajorStrides(sig.dims), cut.data.data(), 0,
                  RowMajorStrides(limits), sizeof(Complex));
      sig = std::move(cut);
      break;
    }
    case FftType::kIrfft: {
      // numpy's irfftn: invert the outer axes on the kept half spectrum, then
      // extend each last-axis line to its full Hermitian spectrum, invert it
      // and keep the real part.
      const int64_t n = fft_length[k - 1];
      const int64_t half = sig.dims.back();
      std::vector<int64_t> full_dims = sig.dims;
      full_dims.back() = n;
      Signal full{full_dims, std::vector<Complex>(result_shape.num_elements())};
      const int64_t rows = half == 0 ? 0 : int64_t(sig.data.size()) / half;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < std::min(half, n); ++j) full.data[r * n + j] = sig.data[r * half + j];
      }
      sig = std::move(full);
      for (int64_t i = 0; i < k - 1; ++i) TransformAxis(sig, rank - k + i, true, fft);
      for (int64_t r = 0; r < rows; ++r) {
        Complex* row = sig.data.data() + r * n;
        for (int64_t j = half; j < n; ++j) {
          if (n - j < half) row[j] = std::conj(row[n - j]);
        }
      }
      TransformAxis(sig, rank - 1, true, fft);
      for (Complex& c : sig.data) c = Complex(c.real(), 0);
      break;
    }
  }
  Literal out(result_shape);
  if (int64_t(sig.data.size()) != out.element_count()) {
    return absl::InvalidArgumentError("fft: internal size mismatch");
  }
  const bool complex_out = primitive_util::IsComplexType(result_shape.element_type());
  for (int64_t i = 0; i < out.element_count(); ++i) {
    if (complex_out) {
      out.SetFromComplex128(i, sig.data[i]);
    } else {
      out.SetFromDouble(i, sig.data[i].real());
    }
  }
  return out;
}

}  // namespace systolic::eval
