#include "core/trace/timeline_codec.h"

#include "absl/strings/str_cat.h"
#include "core/trace/varint.h"

namespace systolic::trace {

void EncodeStat(const Stat& stat, proto::Stat* out) {
  out->set_name_id(stat.name_id);
  switch (stat.kind) {
    case StatKind::kInt64: out->set_int64_value(stat.int64_value); break;
    case StatKind::kUint64: out->set_uint64_value(stat.uint64_value); break;
    case StatKind::kDouble: out->set_double_value(stat.double_value); break;
    case StatKind::kString: out->set_string_ref(stat.string_ref); break;
  }
}

absl::Status DecodeStat(const proto::Stat& in, const TimelinePlane& plane, Stat* out) {
  if (in.name_id() < 0 || in.name_id() >= plane.stat_name_count()) {
    return absl::DataLossError(absl::StrCat("stat name ", in.name_id(), " of plane ", plane.id(),
                                            " does not exist (", plane.stat_name_count(),
                                            " names)"));
  }
  switch (in.value_case()) {
    case proto::Stat::kInt64Value: *out = Stat::Int64(in.name_id(), in.int64_value()); break;
    case proto::Stat::kUint64Value: *out = Stat::Uint64(in.name_id(), in.uint64_value()); break;
    case proto::Stat::kDoubleValue: *out = Stat::Double(in.name_id(), in.double_value()); break;
    case proto::Stat::kStringRef:
      if (in.string_ref() >= plane.string_count()) {
        return absl::DataLossError(absl::StrCat("stat string ", in.string_ref(), " of plane ",
                                                plane.id(), " does not exist (",
                                                plane.string_count(), " strings)"));
      }
      *out = Stat::StringRef(in.name_id(), in.string_ref());
      break;
    case proto::Stat::VALUE_NOT_SET:
      return absl::DataLossError(absl::StrCat("stat \"", plane.stat_name(in.name_id()),
                                              "\" of plane ", plane.id(), " has no value"));
  }
  return absl::OkStatus();
}

void EncodeLineEvents(const TimelineLine& line, int64_t begin, int64_t end, proto::Line* out) {
  // Written straight into the bytes fields, at most 10 bytes a varint.
  const size_t n = size_t(end - begin);
  std::string* starts = out->mutable_start_deltas_ps();
  std::string* durations = out->mutable_durations_ps();
  std::string* ids = out->mutable_metadata_ids();
  starts->resize(n * kMaxVarintBytes);
  durations->resize(n * kMaxVarintBytes);
  ids->resize(n * kMaxVarintBytes);
  char* s = starts->data();
  char* d = durations->data();
  char* m = ids->data();
  // Deltas wrap around like the readers' sums, so any start round-trips.
  uint64_t previous = 0;
  for (int64_t i = begin; i < end; ++i) {
    const uint64_t start = uint64_t(line.start_ps(i));
    s = WriteVarint(s, ZigZag(int64_t(start - previous)));
    previous = start;
    d = WriteVarint(d, uint64_t(line.duration_ps(i)));
    m = WriteVarint(m, uint32_t(line.metadata_id(i)));
  }
  starts->resize(size_t(s - starts->data()));
  durations->resize(size_t(d - durations->data()));
  ids->resize(size_t(m - ids->data()));
  if (!line.has_event_stats()) return;
  for (int64_t i = begin; i < end; ++i) {
    absl::Span<const Stat> stats = line.stats(i);
    out->add_stat_counts(uint32_t(stats.size()));
    for (const Stat& stat : stats) EncodeStat(stat, out->add_event_stats());
  }
}

absl::Status DecodeLineEvents(const proto::Line& in, const TimelinePlane& plane,
                              TimelineLine* line) {
  auto where = [&] { return absl::StrCat("lane ", in.id(), " of plane ", plane.id()); };
  auto columns_differ = [&] {
    return absl::DataLossError(absl::StrCat(
        where(), ": event columns differ in length (", CountVarints(in.start_deltas_ps()),
        " starts, ", CountVarints(in.durations_ps()), " durations, ",
        CountVarints(in.metadata_ids()), " names, ", in.stat_counts_size(), " stat counts)"));
  };
  // Only the starts are counted up front; the other columns are checked to
  // end with the last event as they are decoded.
  const int64_t n = CountVarints(in.start_deltas_ps());
  if (n < 0) {
    return absl::DataLossError(absl::StrCat(where(), ": an event column ends inside a varint"));
  }
  if (in.stat_counts_size() != 0 && in.stat_counts_size() != n) return columns_differ();
  std::vector<Stat> stats;
  if (in.stat_counts_size() > 0) {
    uint64_t total = 0;
    for (uint32_t count : in.stat_counts()) total += count;
    if (total != uint64_t(in.event_stats_size())) {
      return absl::DataLossError(absl::StrCat(where(), ": stat counts add up to ", total,
                                              " but there are ", in.event_stats_size(),
                                              " stats"));
    }
    if (total + line->stats_count() > UINT32_MAX) {
      return absl::DataLossError(absl::StrCat(where(), ": too many stats"));
    }
    stats.resize(in.event_stats_size());
    for (int i = 0; i < in.event_stats_size(); ++i) {
      absl::Status s = DecodeStat(in.event_stats(i), plane, &stats[i]);
      if (!s.ok()) return absl::DataLossError(absl::StrCat(where(), ": ", s.message()));
    }
  }

  // Decoded straight into the lane's columns, checking as it goes; a bad
  // event abandons the whole batch. A varint running past the end of its
  // column stops at the string's terminating NUL (below 0x80), one byte
  // beyond, where the per-event check catches it.
  const uint64_t metadata_count = uint64_t(plane.event_metadata_count());
  const int64_t first = line->size();
  std::string error;
  const bool appended = line->AppendColumns(
      n,
      [&](int64_t* starts, int64_t* durations, int32_t* ids) {
        const char* s = in.start_deltas_ps().data();
        const char* d = in.durations_ps().data();
        const char* d_end = d + in.durations_ps().size();
        const char* m = in.metadata_ids().data();
        const char* m_end = m + in.metadata_ids().size();
        uint64_t start = 0;
        for (int64_t i = 0; i < n; ++i) {
          uint64_t delta, duration, id;
          if (d >= d_end || m >= m_end) {
            error = std::string(columns_differ().message());
            return false;
          }
          if (!ReadVarint(s, &delta) || !ReadVarint(d, &duration) || !ReadVarint(m, &id)) {
            error = absl::StrCat(where(), ", event ", first + i, ": a varint is too long");
            return false;
          }
          start += uint64_t(UnZigZag(delta));
          int64_t end;
          if (duration > uint64_t(INT64_MAX) ||
              __builtin_add_overflow(int64_t(start), int64_t(duration), &end)) {
            error = absl::StrCat(where(), ", event ", first + i, ": time out of range");
            return false;
          }
          if (id >= metadata_count) {
            error = absl::StrCat(where(), ", event ", first + i, ": name ", id,
                                 " does not exist (", metadata_count, " names)");
            return false;
          }
          starts[i] = int64_t(start);
          durations[i] = int64_t(duration);
          ids[i] = int32_t(id);
        }
        if (d != d_end || m != m_end) {
          error = std::string(columns_differ().message());
          return false;
        }
        return true;
      },
      absl::Span<const uint32_t>(in.stat_counts().data(), in.stat_counts_size()), stats);
  if (!appended) return absl::DataLossError(error);
  return absl::OkStatus();
}

}  // namespace systolic::trace
