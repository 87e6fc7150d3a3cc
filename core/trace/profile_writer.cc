#include "core/trace/profile_writer.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/trace/chunk_writer.h"
#include "core/trace/partial_file.h"
#include "core/trace/profile_chunk_encoder.h"

namespace systolic::trace {

struct ProfileWriter::State {
  State(std::unique_ptr<ByteSink> owned_sink, PartialFile* file, const WriteOptions& options)
      : sink(std::move(owned_sink)),
        file(file),
        options(options),
        chunks(sink.get(), options.zstd_level),
        encoder(options.max_events_per_chunk) {}
  std::unique_ptr<ByteSink> sink;
  PartialFile* file;  // the sink when writing a file
  WriteOptions options;
  ChunkWriter chunks;
  ProfileChunkEncoder encoder;
  std::string raw;  // reused serialisation buffer
  bool header_written = false;
  bool closed = false;
};

absl::StatusOr<std::unique_ptr<ProfileWriter>> ProfileWriter::Create(const std::string& path,
                                                                     const WriteOptions& options) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<PartialFile> file, PartialFile::Create(path));
  PartialFile* raw_file = file.get();
  return std::unique_ptr<ProfileWriter>(
      new ProfileWriter(std::make_unique<State>(std::move(file), raw_file, options)));
}

std::unique_ptr<ProfileWriter> ProfileWriter::ToString(std::string* out,
                                                       const WriteOptions& options) {
  return std::unique_ptr<ProfileWriter>(new ProfileWriter(
      std::make_unique<State>(std::make_unique<StringByteSink>(out), nullptr, options)));
}

ProfileWriter::ProfileWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
ProfileWriter::~ProfileWriter() = default;

absl::Status ProfileWriter::Flush(const Profile& profile) {
  State& s = *state_;
  if (s.closed) return absl::FailedPreconditionError("the profile writer is closed");
  if (!s.header_written) {
    SYSTOLIC_RETURN_IF_ERROR(s.chunks.WriteFileHeader());
    s.header_written = true;
  }
  SYSTOLIC_RETURN_IF_ERROR(
      s.encoder.EncodeNew(profile, [&](const proto::Profile& chunk, int64_t events) {
        s.raw.clear();
        if (!chunk.SerializeToString(&s.raw)) {
          return absl::InternalError("a profile chunk is too large to serialise");
        }
        if (int64_t(s.raw.size()) > kMaxChunkRawBytes) {
          return absl::ResourceExhaustedError(absl::StrCat(
              "a profile chunk would hold ", s.raw.size(), " bytes, more than readers accept (",
              kMaxChunkRawBytes, "); write fewer events per chunk"));
        }
        events_written_ += events;
        return s.chunks.WriteChunk(ChunkType::kProfile, s.raw, events);
      }));
  return s.sink->Flush(s.options.durable_flush);
}

absl::Status ProfileWriter::Close(const Profile& profile) {
  State& s = *state_;
  SYSTOLIC_RETURN_IF_ERROR(Flush(profile));
  SYSTOLIC_RETURN_IF_ERROR(s.chunks.Finish());
  s.closed = true;
  if (s.file != nullptr) return s.file->Commit();
  return absl::OkStatus();
}

void ProfileWriter::Abandon() {
  state_->closed = true;
  if (state_->file != nullptr) state_->file->Abandon();
}

int64_t ProfileWriter::bytes_written() const { return state_->chunks.bytes_written(); }
int64_t ProfileWriter::chunks_written() const { return state_->chunks.chunk_count(); }

absl::Status WriteProfileFile(const Profile& profile, const std::string& path,
                              const WriteOptions& options) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<ProfileWriter> writer,
                            ProfileWriter::Create(path, options));
  absl::Status status = writer->Close(profile);
  if (!status.ok()) writer->Abandon();
  return status;
}

absl::StatusOr<std::string> SerializeProfile(const Profile& profile, const WriteOptions& options) {
  std::string bytes;
  SYSTOLIC_RETURN_IF_ERROR(ProfileWriter::ToString(&bytes, options)->Close(profile));
  return bytes;
}

}  // namespace systolic::trace
