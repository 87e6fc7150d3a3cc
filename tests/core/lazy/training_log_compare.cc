#include "tests/core/lazy/training_log_compare.h"

#include <algorithm>
#include <cmath>

#include "gtest/gtest.h"

namespace systolic::samples::testing {

double MaxParameterDifference(const TrainingLog& a, const TrainingLog& b) {
  double worst = 0;
  EXPECT_EQ(a.parameters.size(), b.parameters.size());
  for (size_t p = 0; p < std::min(a.parameters.size(), b.parameters.size()); ++p) {
    const Literal& x = a.parameters[p].value;
    const Literal& y = b.parameters[p].value;
    EXPECT_EQ(x.shape().dimensions(), y.shape().dimensions()) << a.parameters[p].name;
    for (int64_t i = 0; i < std::min(x.element_count(), y.element_count()); ++i) {
      worst = std::max(worst, std::abs(x.GetAsDouble(i) - y.GetAsDouble(i)));
    }
  }
  return worst;
}

}  // namespace systolic::samples::testing
