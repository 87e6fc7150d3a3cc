#include "core/trace/timeline_codec.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
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

namespace {

// Writes values(i) for i in [begin, end) as varints into `out`.
template <typename Value>
void EncodeColumn(int64_t begin, int64_t end, std::string* out, Value value) {
  out->resize(size_t(end - begin) * kMaxVarintBytes);
  char* p = out->data();
  for (int64_t i = begin; i < end; ++i) p = WriteVarint(p, value(i));
  out->resize(size_t(p - out->data()));
}

// Decodes a column of exactly `n` varints below `limit` into `out`; an empty
// column gives an empty `out`.
absl::Status DecodeIdColumn(absl::string_view column, int64_t n, uint64_t limit,
                            absl::string_view what, const std::string& where,
                            std::vector<uint32_t>* out) {
  out->clear();
  if (column.empty()) return absl::OkStatus();
  if (CountVarints(column) != n) {
    return absl::DataLossError(
        absl::StrCat(where, ": ", what, " column holds ", CountVarints(column), " entries for ",
                     n, " events"));
  }
  out->resize(size_t(n));
  const char* p = column.data();
  for (int64_t i = 0; i < n; ++i) {
    uint64_t v = 0;
    if (!ReadVarint(p, &v) || v >= limit) {
      return absl::DataLossError(absl::StrCat(where, ", event ", i, " of the chunk: ", what, " ",
                                              v, " does not exist (", limit, " known)"));
    }
    (*out)[size_t(i)] = uint32_t(v);
  }
  return absl::OkStatus();
}

}  // namespace

void EncodeLineEvents(const TimelineLine& line, int64_t begin, int64_t end,
                      int64_t* sets_written, proto::Line* out) {
  // Deltas wrap around like the readers' sums, so any start round-trips.
  uint64_t previous = 0;
  EncodeColumn(begin, end, out->mutable_start_deltas_ps(), [&](int64_t i) {
    const uint64_t start = uint64_t(line.start_ps(i));
    const uint64_t delta = ZigZag(int64_t(start - previous));
    previous = start;
    return delta;
  });
  EncodeColumn(begin, end, out->mutable_durations_ps(),
               [&](int64_t i) { return uint64_t(line.duration_ps(i)); });
  EncodeColumn(begin, end, out->mutable_metadata_ids(),
               [&](int64_t i) { return uint32_t(line.metadata_id(i)); });
  if (line.has_event_stats()) {
    uint32_t last_set = 0;
    for (int64_t i = begin; i < end; ++i) last_set = std::max(last_set, line.stat_set_id(i));
    for (; *sets_written <= int64_t(last_set); ++*sets_written) {
      proto::StatSet* set = out->add_stat_sets();
      for (const Stat& s : line.stat_set(uint32_t(*sets_written))) EncodeStat(s, set->add_stats());
    }
    EncodeColumn(begin, end, out->mutable_stat_set_ids(),
                 [&](int64_t i) { return line.stat_set_id(i); });
  }
  if (line.has_details()) {
    EncodeColumn(begin, end, out->mutable_details(), [&](int64_t i) {
      const uint32_t detail = line.detail(i);
      return detail == kNoDetail ? uint64_t(0) : uint64_t(detail) + 1;
    });
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

  auto decode_stats = [&](const google::protobuf::RepeatedPtrField<proto::Stat>& in_stats, int from,
                          int count, std::vector<Stat>* out) -> absl::Status {
    out->resize(size_t(count));
    for (int i = 0; i < count; ++i) {
      absl::Status s = DecodeStat(in_stats.Get(from + i), plane, &(*out)[size_t(i)]);
      if (!s.ok()) return absl::DataLossError(absl::StrCat(where(), ": ", s.message()));
    }
    return absl::OkStatus();
  };
  std::vector<Stat> stats;
  for (const proto::StatSet& set : in.stat_sets()) {
    SYSTOLIC_RETURN_IF_ERROR(decode_stats(set.stats(), 0, set.stats_size(), &stats));
    if (line->stat_set_count() >= int64_t(UINT32_MAX)) {
      return absl::DataLossError(absl::StrCat(where(), ": too many stat sets"));
    }
    line->AddStatSet(stats);
  }
  std::vector<uint32_t> set_ids;
  SYSTOLIC_RETURN_IF_ERROR(DecodeIdColumn(in.stat_set_ids(), n, uint64_t(line->stat_set_count()),
                                          "stat set", where(), &set_ids));
  if (in.stat_counts_size() > 0) {
    // Version 2: each event's own stats, shared here as sets.
    uint64_t total = 0;
    for (uint32_t count : in.stat_counts()) total += count;
    if (total != uint64_t(in.event_stats_size())) {
      return absl::DataLossError(absl::StrCat(where(), ": stat counts add up to ", total,
                                              " but there are ", in.event_stats_size(),
                                              " stats"));
    }
    set_ids.resize(size_t(n));
    int from = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int count = int(in.stat_counts(int(i)));
      SYSTOLIC_RETURN_IF_ERROR(decode_stats(in.event_stats(), from, count, &stats));
      from += count;
      set_ids[size_t(i)] = line->InternStatSet(stats);
    }
  }
  std::vector<uint32_t> details;
  SYSTOLIC_RETURN_IF_ERROR(DecodeIdColumn(in.details(), n, uint64_t(plane.string_count()) + 1,
                                          "detail", where(), &details));
  for (uint32_t& d : details) d = d == 0 ? kNoDetail : d - 1;

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
      set_ids, details);
  if (!appended) return absl::DataLossError(error);
  return absl::OkStatus();
}

}  // namespace systolic::trace
