// The text of a literal's values, appended in place: the printer writes a
// large constant's megabytes straight into the module's text.
#pragma once

#include <string>

#include "core/hlo/literal.h"

namespace systolic {

// Appends Literal::ToStringWithoutShape().
void AppendLiteralText(const Literal& literal, std::string* out);

}  // namespace systolic
