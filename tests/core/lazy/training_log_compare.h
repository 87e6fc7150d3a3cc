// Comparing two training runs of a lazy sample (a distributed run against a
// single-device one, or one backend against another).
#pragma once

#include "samples/lazy/lazy_sample.h"

namespace systolic::samples::testing {

// Largest |a - b| over every trained parameter element; a mismatch in the
// parameters' count or shapes is a test failure.
double MaxParameterDifference(const TrainingLog& a, const TrainingLog& b);

}  // namespace systolic::samples::testing
