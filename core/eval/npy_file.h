// NumPy .npy files (format versions 1.0, 2.0 and 3.0) as literals.
//
// dtypes: bool '|b1'; int8..int64 '|i1' '<i2' '<i4' '<i8'; uint8..uint64;
// float16 '<f2', float32 '<f4', float64 '<f8'; complex64 '<c8', complex128
// '<c16'; big-endian ('>') files are byte-swapped; Fortran-order files are
// transposed to row-major.
//
// Types NumPy lacks follow the ml_dtypes convention: an array of ml_dtypes'
// bfloat16 is saved by numpy.save as raw 2-byte void, descr '|V2', so bf16 is
// written as '|V2' and '|V2' reads as bf16 (or as another 2-byte type when the
// caller expects one). The 8- and 4-bit floats are written as '|V1' with
// their bits, and read back only when the caller says which type they are.
// Sub-byte integers (s2, s4, u2, u4) are written one per byte as int8 / uint8
// and read back from those.
//
// Corrupt or truncated files give an error saying what is wrong and where.
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/literal.h"

namespace systolic {

// `expected`: the element type the caller wants (resolves '|V2' / '|V1' and
// sub-byte integers; any other mismatch is an error).
absl::StatusOr<Literal> ParseNpy(absl::string_view bytes,
                                 std::optional<PrimitiveType> expected = std::nullopt);
absl::StatusOr<Literal> ReadNpyFile(const std::string& path,
                                    std::optional<PrimitiveType> expected = std::nullopt);

absl::StatusOr<std::string> SerializeNpy(const Literal& literal);
absl::Status WriteNpyFile(const std::string& path, const Literal& literal);

}  // namespace systolic
