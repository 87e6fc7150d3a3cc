#include "core/hlo/hlo_proto_file.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/hlo/atomic_file.h"
#include "core/hlo/first_text_format_error.h"
#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_module_from_proto.h"
#include "core/hlo/hlo_module_to_proto.h"
#include "core/hlo/hlo_proto_literal.h"
#include "core/hlo/hlo_verifier.h"
#include "core/hlo/quiet_proto_parse.h"
#include "core/hlo/status_macros.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"

namespace systolic {
namespace {

absl::string_view MessageName(HloProtoMessage message) {
  switch (message) {
    case HloProtoMessage::kHloModuleProto: return "HloModuleProto";
    case HloProtoMessage::kHloProto: return "HloProto";
    case HloProtoMessage::kHloSnapshot: return "HloSnapshot";
  }
  return "HloModuleProto";
}


absl::Status ParseMessage(absl::string_view bytes, const HloProtoSniff& kind,
                          const std::string& path, google::protobuf::Message* message) {
  if (kind.text_format) {
    FirstTextFormatError errors;
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&errors);
    if (!parser.ParseFromString(std::string(bytes), message)) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", errors.message(), " (in a text-format ",
                                                     MessageName(kind.message), ")"));
    }
    // Text format takes any bytes in a string; the wire format (what XLA
    // and this project write) takes only UTF-8, so a module read here must
    // survive being written: checked by writing and reading it back.
    std::unique_ptr<google::protobuf::Message> copy(message->New());
    if (!ParseProtoQuietly(message->SerializeAsString(), copy.get())) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": a string is not valid UTF-8 (in a text-format ",
                                                     MessageName(kind.message), ")"));
    }
    return absl::OkStatus();
  }
  if (!ParseProtoQuietly(bytes, message)) {
    return absl::DataLossError(absl::StrCat(path, ": a binary ", MessageName(kind.message),
                                            " that is truncated or corrupt (", bytes.size(),
                                            " bytes do not decode)"));
  }
  return absl::OkStatus();
}

}  // namespace

bool LooksLikeHloProto(absl::string_view head) { return SniffHloProto(head).has_value(); }

absl::StatusOr<HloFileModule> ParseHloProto(absl::string_view bytes, const std::string& path,
                                            bool verify) {
  std::optional<HloProtoSniff> kind = SniffHloProto(bytes);
  if (!kind) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not an HLO proto (an HloModuleProto, HloProto or HloSnapshot, binary or text)"));
  }
  hlo_proto::HloSnapshot snapshot;
  const hlo_proto::HloModuleProto* module_proto = nullptr;
  switch (kind->message) {
    case HloProtoMessage::kHloModuleProto:
      SYSTOLIC_RETURN_IF_ERROR(
          ParseMessage(bytes, *kind, path, snapshot.mutable_hlo()->mutable_hlo_module()));
      break;
    case HloProtoMessage::kHloProto:
      SYSTOLIC_RETURN_IF_ERROR(ParseMessage(bytes, *kind, path, snapshot.mutable_hlo()));
      break;
    case HloProtoMessage::kHloSnapshot:
      SYSTOLIC_RETURN_IF_ERROR(ParseMessage(bytes, *kind, path, &snapshot));
      break;
  }
  module_proto = &snapshot.hlo().hlo_module();
  HloFileModule result;
  absl::StatusOr<std::unique_ptr<HloModule>> module = ModuleFromProto(*module_proto);
  if (!module.ok()) {
    result.module = absl::InvalidArgumentError(absl::StrCat(path, ": ", module.status().message()));
    return result;
  }
  (*module)->set_source_filename(path);
  if (verify) {
    if (absl::Status verified = VerifyHloModule(**module); !verified.ok()) {
      result.module = absl::InvalidArgumentError(absl::StrCat(path, ": ", verified.message()));
      return result;
    }
  }
  for (int i = 0; i < snapshot.arguments_size(); ++i) {
    absl::StatusOr<Literal> argument = LiteralFromProto(snapshot.arguments(i));
    if (!argument.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": argument ", i, " of the snapshot: ", argument.status().message()));
    }
    result.arguments.push_back(*std::move(argument));
  }
  result.module = std::move(module);
  return result;
}

absl::StatusOr<HloFileModule> ReadHloProtoFile(const std::string& path, bool verify) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  return ParseHloProto(bytes, path, verify);
}

absl::StatusOr<std::string> SerializeHloModuleProto(const HloModule& module, ProtoFormat format) {
  SYSTOLIC_ASSIGN_OR_RETURN(hlo_proto::HloModuleProto proto, ModuleToProto(module));
  std::string out;
  if (format == ProtoFormat::kText) {
    if (!google::protobuf::TextFormat::PrintToString(proto, &out)) {
      return absl::InternalError("the module could not be printed in text format");
    }
    return out;
  }
  // Deterministic: map fields (schedules, frontend attributes) in key order,
  // so a module is always written as the same bytes.
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (!proto.SerializeToCodedStream(&coded)) {
      return absl::InternalError("the module could not be serialised");
    }
  }
  return out;
}

absl::Status WriteHloModuleProtoFile(const HloModule& module, const std::string& path,
                                     ProtoFormat format) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string bytes, SerializeHloModuleProto(module, format));
  return WriteFileAtomically(path, bytes);
}

}  // namespace systolic
