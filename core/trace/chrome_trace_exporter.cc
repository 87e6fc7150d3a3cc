#include "core/trace/chrome_trace_exporter.h"

#include <cmath>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/hlo/status_macros.h"
#include "core/trace/partial_file.h"
#include "nlohmann/json.hpp"

namespace systolic::trace {
namespace {

// A JSON string literal; invalid UTF-8 (imported names) becomes U+FFFD so
// the file stays valid JSON.
std::string Quote(absl::string_view text) {
  return nlohmann::json(std::string(text)).dump(-1, ' ', false,
                                                nlohmann::json::error_handler_t::replace);
}

// Rounded down, so that nesting and order survive the coarser unit.
int64_t PsToNs(int64_t ps) { return ps / 1000 - (ps % 1000 < 0 ? 1 : 0); }

// Microseconds with three decimals, exactly.
void AppendMicros(std::string* out, int64_t ns) {
  if (ns < 0) {
    out->push_back('-');
    ns = -ns;
  }
  absl::StrAppend(out, ns / 1000);
  const int64_t frac = ns % 1000;
  const char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10),
                          char('0' + frac % 10)};
  out->append(digits, 4);
}

// The events, buffered and handed to the sink in large pieces.
class JsonOut {
 public:
  explicit JsonOut(ByteSink* sink) : sink_(sink) { buffer_.reserve(kFlushAt + 4096); }
  std::string& buffer() { return buffer_; }
  // Starts the next element of traceEvents.
  void NextEvent() {
    if (!first_) buffer_.push_back(',');
    first_ = false;
    buffer_.push_back('\n');
  }
  absl::Status MaybeFlush() {
    if (buffer_.size() < kFlushAt) return absl::OkStatus();
    return Flush();
  }
  absl::Status Flush() {
    bytes_ += int64_t(buffer_.size());
    absl::Status status = sink_->Write(buffer_);
    buffer_.clear();
    return status;
  }
  int64_t bytes() const { return bytes_ + int64_t(buffer_.size()); }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  ByteSink* sink_;
  std::string buffer_;
  bool first_ = true;
  int64_t bytes_ = 0;
};

// A flow end: where its event was placed.
struct Placement {
  int64_t tid = -1;
  int64_t ts_ns = 0;
};

class Exporter {
 public:
  Exporter(const Profile& profile, ByteSink* sink) : profile_(profile), out_(sink) {}

  absl::Status Run(ChromeTraceStats* stats) {
    const Timeline& timeline = profile_.timeline;
    // Events that flows start or end at, so their threads can be noted.
    for (size_t f = 0; f < timeline.flows().size(); ++f) {
      const Flow& flow = timeline.flows()[f];
      if (!timeline.Contains(flow.source) || !timeline.Contains(flow.target)) {
        return absl::InvalidArgumentError(absl::StrCat("flow ", flow.id, " refers to a missing event"));
      }
      placements_.try_emplace(Key(flow.source));
      placements_.try_emplace(Key(flow.target));
    }

    std::string& b = out_.buffer();
    absl::StrAppend(&b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":",
                    Quote(profile_.info.producer), ",\"title\":", Quote(profile_.info.title),
                    "},\"traceEvents\":[");
    for (const TimelinePlane& plane : timeline.planes()) SYSTOLIC_RETURN_IF_ERROR(ExportPlane(plane));
    SYSTOLIC_RETURN_IF_ERROR(ExportFlows());
    b.append("\n]}\n");
    SYSTOLIC_RETURN_IF_ERROR(out_.Flush());
    if (stats != nullptr) {
      stats->complete_events = complete_events_;
      stats->flow_events = flow_events_;
      stats->threads = threads_;
      stats->bytes = out_.bytes();
    }
    return absl::OkStatus();
  }

 private:
  using EventKey = std::tuple<int32_t, int32_t, int64_t>;
  static EventKey Key(const EventRef& ref) { return {ref.plane, ref.line, ref.event}; }

  void Metadata(int64_t pid, int64_t tid, absl::string_view kind, absl::string_view arg,
                const std::string& value) {
    out_.NextEvent();
    absl::StrAppend(&out_.buffer(), "{\"ph\":\"M\",\"pid\":", pid, ",\"tid\":", tid,
                    ",\"name\":\"", kind, "\",\"args\":{\"", arg, "\":", value, "}}");
  }

  absl::Status ExportPlane(const TimelinePlane& plane) {
    const int64_t pid = plane.id() + 1;  // one process per chip; pid 0 is avoided
    const std::string title =
        plane.kind() == PlaneKind::kHost
            ? plane.name()
            : absl::StrCat("chip ", plane.chip_id(), " (", plane.name(), ")");
    Metadata(pid, 0, "process_name", "name", Quote(title));
    Metadata(pid, 0, "process_sort_index", "sort_index", absl::StrCat(plane.id()));

    // Names, stat names and string values are escaped once per plane.
    names_.clear();
    for (int32_t id = 0; id < plane.event_metadata_count(); ++id) {
      const EventMetadata& m = plane.event_metadata(id);
      names_.push_back(Quote(m.display_name.empty() ? m.name : m.display_name));
    }
    stat_names_.clear();
    for (int32_t id = 0; id < plane.stat_name_count(); ++id) {
      stat_names_.push_back(Quote(plane.stat_name(id)));
    }
    strings_.assign(plane.string_count(), std::string());

    int64_t next_tid = 1;
    for (const TimelineLine& line : plane.lines()) {
      SYSTOLIC_RETURN_IF_ERROR(ExportLine(plane, line, pid, next_tid));
    }
    return absl::OkStatus();
  }

  const std::string& StringValue(const TimelinePlane& plane, uint32_t ref) {
    if (strings_[ref].empty()) strings_[ref] = Quote(plane.string(ref));
    return strings_[ref];
  }

  void AppendStat(const TimelinePlane& plane, const Stat& stat, std::string* b) {
    absl::StrAppend(b, stat_names_[stat.name_id], ":");
    switch (stat.kind) {
      case StatKind::kInt64: absl::StrAppend(b, stat.int64_value); break;
      case StatKind::kUint64: absl::StrAppend(b, stat.uint64_value); break;
      case StatKind::kDouble:
        if (std::isfinite(stat.double_value)) {
          absl::StrAppend(b, absl::StrFormat("%.17g", stat.double_value));
        } else {
          absl::StrAppend(b, "\"", absl::StrCat(stat.double_value), "\"");
        }
        break;
      case StatKind::kString: b->append(StringValue(plane, stat.string_ref)); break;
    }
  }

  absl::Status ExportLine(const TimelinePlane& plane, const TimelineLine& line, int64_t pid,
                          int64_t& next_tid) {
    // Threads of this lane, each a stack of the ends of the open events;
    // an event goes to the first thread where it nests or follows.
    struct Thread {
      int64_t tid;
      std::vector<int64_t> open_ends;
    };
    std::vector<Thread> threads;
    const std::string cat = Quote(LaneKindName(line.kind()));
    const EventMetadata* metadata = nullptr;
    for (int64_t i = 0; i < line.size(); ++i) {
      const int64_t start = PsToNs(line.start_ps(i));
      const int64_t end = PsToNs(line.end_ps(i));
      Thread* thread = nullptr;
      for (Thread& t : threads) {
        while (!t.open_ends.empty() && t.open_ends.back() <= start) t.open_ends.pop_back();
        if (t.open_ends.empty() || end <= t.open_ends.back()) {
          thread = &t;
          break;
        }
      }
      if (thread == nullptr) {
        thread = &threads.emplace_back(Thread{next_tid++, {}});
        ++threads_;
        const std::string name = threads.size() == 1
                                     ? line.name()
                                     : absl::StrCat(line.name(), " #", threads.size());
        Metadata(pid, thread->tid, "thread_name", "name", Quote(name));
        Metadata(pid, thread->tid, "thread_sort_index", "sort_index", absl::StrCat(thread->tid));
      }
      thread->open_ends.push_back(end);

      std::string& b = out_.buffer();
      out_.NextEvent();
      const int32_t id = line.metadata_id(i);
      metadata = &plane.event_metadata(id);
      absl::StrAppend(&b, "{\"ph\":\"X\",\"pid\":", pid, ",\"tid\":", thread->tid, ",\"ts\":");
      AppendMicros(&b, start);
      b.append(",\"dur\":");
      AppendMicros(&b, end - start);
      absl::StrAppend(&b, ",\"name\":", names_[id], ",\"cat\":", cat);
      absl::Span<const Stat> own = line.stats(i);
      const bool long_name = !metadata->display_name.empty();
      const std::string* detail = plane.DetailOf(line, i);
      if (!own.empty() || !metadata->stats.empty() || long_name || detail != nullptr) {
        b.append(",\"args\":{");
        bool first = true;
        auto comma = [&] {
          if (!first) b.push_back(',');
          first = false;
        };
        if (long_name) {
          comma();
          absl::StrAppend(&b, "\"long_name\":", Quote(metadata->name));
        }
        if (detail != nullptr) {
          comma();
          absl::StrAppend(&b, "\"detail\":", Quote(*detail));
        }
        // The event's own stats win over its name's stats of the same key.
        for (const Stat& s : metadata->stats) {
          bool overridden = false;
          for (const Stat& o : own) overridden |= o.name_id == s.name_id;
          if (overridden) continue;
          comma();
          AppendStat(plane, s, &b);
        }
        for (const Stat& s : own) {
          comma();
          AppendStat(plane, s, &b);
        }
        b.push_back('}');
      }
      b.push_back('}');
      ++complete_events_;

      if (!placements_.empty()) {
        auto it = placements_.find(Key({plane.id(), line.id(), i}));
        if (it != placements_.end()) it->second = {thread->tid, start};
      }
      SYSTOLIC_RETURN_IF_ERROR(out_.MaybeFlush());
    }
    return absl::OkStatus();
  }

  absl::Status ExportFlows() {
    const Timeline& timeline = profile_.timeline;
    for (size_t f = 0; f < timeline.flows().size(); ++f) {
      const Flow& flow = timeline.flows()[f];
      const std::string name = Quote(flow.name.empty() ? "flow" : flow.name);
      const std::string cat = Quote(flow.category.empty() ? "flow" : flow.category);
      for (const EventRef* end : {&flow.source, &flow.target}) {
        const Placement& at = placements_[Key(*end)];
        std::string& b = out_.buffer();
        out_.NextEvent();
        // "s" binds to the slice enclosing it; "f" with bp "e" likewise.
        absl::StrAppend(&b, "{\"ph\":\"", end == &flow.source ? "s" : "f", "\",",
                        end == &flow.source ? "" : "\"bp\":\"e\",", "\"id\":", f + 1,
                        ",\"pid\":", end->plane + 1, ",\"tid\":", at.tid, ",\"ts\":");
        AppendMicros(&b, at.ts_ns);
        absl::StrAppend(&b, ",\"name\":", name, ",\"cat\":", cat, "}");
        ++flow_events_;
      }
      SYSTOLIC_RETURN_IF_ERROR(out_.MaybeFlush());
    }
    return absl::OkStatus();
  }

  const Profile& profile_;
  JsonOut out_;
  absl::flat_hash_map<EventKey, Placement> placements_;
  std::vector<std::string> names_, stat_names_, strings_;
  int64_t complete_events_ = 0, flow_events_ = 0, threads_ = 0;
};

}  // namespace

absl::Status ExportChromeTrace(const Profile& profile, ByteSink* sink, ChromeTraceStats* stats) {
  return Exporter(profile, sink).Run(stats);
}

absl::Status ExportChromeTraceFile(const Profile& profile, const std::string& path,
                                   ChromeTraceStats* stats) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<PartialFile> file, PartialFile::Create(path));
  absl::Status status = ExportChromeTrace(profile, file.get(), stats);
  if (status.ok()) status = file->Commit();
  if (!status.ok()) file->Abandon();
  return status;
}

}  // namespace systolic::trace
