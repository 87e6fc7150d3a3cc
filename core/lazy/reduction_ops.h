// Reductions over dimensions: sum, mean, max, min. An empty dimension list
// reduces every dimension; negative dimensions count from the end.
#pragma once

#include <cstdint>
#include <vector>

#include "core/lazy/tensor.h"

namespace systolic::lazy {

Tensor Sum(const Tensor& x, std::vector<int64_t> dims = {}, bool keepdim = false);
Tensor Mean(const Tensor& x, std::vector<int64_t> dims = {}, bool keepdim = false);
Tensor Max(const Tensor& x, std::vector<int64_t> dims = {}, bool keepdim = false);
Tensor Min(const Tensor& x, std::vector<int64_t> dims = {}, bool keepdim = false);

}  // namespace systolic::lazy
