// Early-return helpers for absl::Status / absl::StatusOr, as XLA's code uses.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define SYSTOLIC_STATUS_CONCAT_INNER(a, b) a##b
#define SYSTOLIC_STATUS_CONCAT(a, b) SYSTOLIC_STATUS_CONCAT_INNER(a, b)

// Returns the status from the enclosing function if `expr` is not OK.
#define SYSTOLIC_RETURN_IF_ERROR(expr)            \
  do {                                            \
    ::absl::Status _systolic_status = (expr);     \
    if (!_systolic_status.ok()) return _systolic_status; \
  } while (0)

// `lhs = value of expr`, or returns its error status.
#define SYSTOLIC_ASSIGN_OR_RETURN(lhs, expr) \
  SYSTOLIC_ASSIGN_OR_RETURN_IMPL(SYSTOLIC_STATUS_CONCAT(_systolic_or_, __LINE__), lhs, expr)
#define SYSTOLIC_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return tmp.status();                  \
  lhs = std::move(tmp).value()
