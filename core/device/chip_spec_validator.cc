#include "core/device/chip_spec_validator.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/utf8.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace systolic::device {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// The fields a spec may leave out: its description, the data-centre
// network of a chip that is never joined to other slices, and the int8 rate
// of an MXU without an int8 mode (when given, they are checked like any
// other).
bool IsOptionalField(const FieldDescriptor& field, const Message& message) {
  if (field.name() == "description") return true;
  return (field.name() == "dcn" || field.name() == "int8_macs_per_cycle") &&
         !message.GetReflection()->HasField(message, &field);
}

// Durations (in ns) may be zero: an ideal chip without that latency.
bool MayBeZero(const FieldDescriptor& field) { return absl::EndsWith(field.name(), "_ns"); }

// Walks the message by reflection so that a field added to the schema is
// checked without touching this file.
void CheckMessage(const Message& message, const std::string& prefix,
                  std::vector<std::string>& problems) {
  const Reflection& reflection = *message.GetReflection();
  const google::protobuf::Descriptor& descriptor = *message.GetDescriptor();
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const FieldDescriptor& field = *descriptor.field(i);
    const std::string path = absl::StrCat(prefix, field.name());
    if (field.cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      const int64_t bad = FirstInvalidUtf8Byte(reflection.GetString(message, &field));
      if (bad >= 0) {
        problems.push_back(absl::StrCat(path, " is not UTF-8 text (byte ", bad, ")"));
        continue;
      }
    }
    if (IsOptionalField(field, message)) continue;
    const bool present = !field.has_presence() || reflection.HasField(message, &field);
    if (!present) {
      problems.push_back(absl::StrCat(path, " is missing"));
      continue;
    }
    auto check_positive = [&](double value) {
      if (MayBeZero(field)) {
        if (!std::isfinite(value) || value < 0) {
          problems.push_back(absl::StrCat(path, " must not be negative, got ", value));
        }
      } else if (!std::isfinite(value) || value <= 0) {
        problems.push_back(absl::StrCat(path, " must be positive, got ", value));
      }
    };
    switch (field.cpp_type()) {
      case FieldDescriptor::CPPTYPE_MESSAGE:
        CheckMessage(reflection.GetMessage(message, &field), path + ".", problems);
        break;
      case FieldDescriptor::CPPTYPE_STRING:
        if (reflection.GetString(message, &field).empty()) {
          problems.push_back(absl::StrCat(path, " is missing"));
        }
        break;
      case FieldDescriptor::CPPTYPE_ENUM: {
        const int value = reflection.GetEnumValue(message, &field);
        if (value == 0) {
          problems.push_back(absl::StrCat(path, " is missing"));
        } else if (field.enum_type()->FindValueByNumber(value) == nullptr) {
          problems.push_back(absl::StrCat(path, " has an unknown value ", value));
        }
        break;
      }
      case FieldDescriptor::CPPTYPE_INT32:
        check_positive(reflection.GetInt32(message, &field));
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        check_positive(double(reflection.GetInt64(message, &field)));
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        check_positive(reflection.GetDouble(message, &field));
        break;
      case FieldDescriptor::CPPTYPE_FLOAT:
        check_positive(reflection.GetFloat(message, &field));
        break;
      default:
        problems.push_back(absl::StrCat(path, " has a type the validator does not know"));
    }
  }
}

}  // namespace

absl::Status ValidateChipSpec(const ChipSpec& spec) {
  std::vector<std::string> problems;
  CheckMessage(spec, "", problems);
  if (problems.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(problems, "; "));
}

}  // namespace systolic::device
