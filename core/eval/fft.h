// fft, ifft, rfft and irfft over the last fft_length.size() dimensions, as XLA
// defines them (ifft and irfft scaled by 1/n; irfft ignores the imaginary
// parts of the zero and Nyquist terms). Computed in double precision with
// Eigen's FFT and rounded to the result type.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

absl::StatusOr<Literal> Fft(const Literal& operand, FftType type,
                            absl::Span<const int64_t> fft_length, const Shape& result_shape);

}  // namespace systolic::eval
