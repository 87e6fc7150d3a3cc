#include "views/profile_explorer_model.h"

#include <QFont>
#include <QString>

#include "core/analysis/time_ruler.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

QString Ps(int64_t ps) { return QString::fromStdString(analysis::FormatPs(ps)); }
QString Ns(int64_t ns) { return Ps(ns * 1000); }

}  // namespace

ProfileExplorerModel::ProfileExplorerModel(QObject* parent) : QAbstractItemModel(parent) {}

int ProfileExplorerModel::AddNode(const Item& item, int parent) {
  Node node;
  node.item = item;
  node.parent = parent;
  const int index = int(nodes_.size());
  if (parent >= 0) {
    node.row = int(nodes_[parent].children.size());
    nodes_[parent].children.push_back(index);
  } else {
    node.row = int(roots_.size());
    roots_.push_back(index);
  }
  nodes_.push_back(std::move(node));
  return index;
}

void ProfileExplorerModel::SetProfile(const trace::Profile* profile) {
  beginResetModel();
  profile_ = profile;
  nodes_.clear();
  roots_.clear();
  if (profile_) {
    const int programs = AddNode({Kind::kProgramsFolder}, -1);
    for (size_t p = 0; p < profile_->programs.size(); ++p) {
      const int program = AddNode({Kind::kProgram, int64_t(p)}, programs);
      for (size_t s = 0; s < profile_->programs[p].snapshots.size(); ++s) {
        AddNode({Kind::kStage, int64_t(p), int64_t(s)}, program);
      }
    }
    if (!profile_->compile_events.empty()) {
      const int compiles = AddNode({Kind::kCompilesFolder}, -1);
      for (size_t c = 0; c < profile_->compile_events.size(); ++c) {
        Item item{Kind::kCompile};
        item.compile = int64_t(c);
        AddNode(item, compiles);
      }
    }
    if (!profile_->runs.empty()) {
      const int runs = AddNode({Kind::kRunsFolder}, -1);
      for (size_t r = 0; r < profile_->runs.size(); ++r) {
        Item item{Kind::kRun};
        item.run = int64_t(r);
        const int run = AddNode(item, runs);
        for (size_t s = 0; s < profile_->runs[r].steps.size(); ++s) {
          Item step{Kind::kStep};
          step.run = int64_t(r);
          step.step = int64_t(s);
          AddNode(step, run);
        }
      }
    }
    if (profile_->timeline.plane_count() > 0) AddNode({Kind::kTimeline}, -1);
  }
  endResetModel();
}

QModelIndex ProfileExplorerModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= kColumnCount) return {};
  const std::vector<int>& siblings =
      parent.isValid() ? nodes_[size_t(parent.internalId())].children : roots_;
  if (parent.isValid() && parent.column() != 0) return {};
  if (row >= int(siblings.size())) return {};
  return createIndex(row, column, quintptr(siblings[size_t(row)]));
}

QModelIndex ProfileExplorerModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  const int parent = nodes_[size_t(child.internalId())].parent;
  if (parent < 0) return {};
  return createIndex(nodes_[size_t(parent)].row, 0, quintptr(parent));
}

int ProfileExplorerModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return int(roots_.size());
  if (parent.column() != 0) return 0;
  return int(nodes_[size_t(parent.internalId())].children.size());
}

int ProfileExplorerModel::columnCount(const QModelIndex&) const { return kColumnCount; }

const ProfileExplorerModel::Item* ProfileExplorerModel::ItemAt(const QModelIndex& index) const {
  if (!index.isValid() || index.internalId() >= nodes_.size()) return nullptr;
  return &nodes_[size_t(index.internalId())].item;
}

QModelIndex ProfileExplorerModel::StageIndex(int64_t program, int64_t stage) const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Item& item = nodes_[i].item;
    if (item.kind == Kind::kStage && item.program == program && item.stage == stage) {
      return createIndex(nodes_[i].row, 0, quintptr(i));
    }
  }
  return {};
}

QString ProfileExplorerModel::Name(const Item& item) const {
  switch (item.kind) {
    case Kind::kProgramsFolder: return QStringLiteral("Programs");
    case Kind::kProgram: {
      // Front ends name every program alike ("SyncTensorsGraph"): the id
      // tells them apart, unsigned as XLA prints its fingerprints.
      const trace::ProgramRecord& program = profile_->programs[item.program];
      return profile_->programs.size() > 1
                 ? QStringLiteral("%1 #%2").arg(QString::fromStdString(program.name)).arg(quint64(program.id))
                 : QString::fromStdString(program.name);
    }
    case Kind::kStage: {
      const trace::ModuleSnapshot& s = profile_->programs[item.program].snapshots[item.stage];
      return QStringLiteral("%1 · %2").arg(item.stage).arg(QString::fromStdString(s.pass_name));
    }
    case Kind::kCompilesFolder: return QStringLiteral("Compiles");
    case Kind::kCompile: {
      const trace::CompileEvent& c = profile_->compile_events[item.compile];
      const trace::ProgramRecord* program = profile_->FindProgram(c.program_id);
      return QStringLiteral("step %1 · %2")
          .arg(c.step)
          .arg(program ? QString::fromStdString(program->name) : QStringLiteral("program %1").arg(c.program_id));
    }
    case Kind::kRunsFolder: return QStringLiteral("Runs");
    case Kind::kRun: return QString::fromStdString(profile_->runs[item.run].name);
    case Kind::kStep: {
      const trace::StepRecord& s = profile_->runs[item.run].steps[item.step];
      return QStringLiteral("step %1").arg(s.number);
    }
    case Kind::kTimeline: return QStringLiteral("Timeline");
  }
  return {};
}

QString ProfileExplorerModel::Detail(const Item& item) const {
  switch (item.kind) {
    case Kind::kProgramsFolder: return QString::number(profile_->programs.size());
    case Kind::kProgram: {
      const trace::ProgramRecord& p = profile_->programs[item.program];
      return QStringLiteral("%1 stages").arg(p.snapshots.size());
    }
    case Kind::kStage: {
      const trace::ModuleSnapshot& s = profile_->programs[item.program].snapshots[item.stage];
      QString text = QStringLiteral("%1 instr").arg(s.instruction_count);
      if (item.stage > 0) text += s.changed ? QStringLiteral(" · changed") : QStringLiteral(" · same");
      if (s.pass_duration_ns > 0) text += " · " + Ns(s.pass_duration_ns);
      return text;
    }
    case Kind::kCompilesFolder: {
      int64_t hits = 0;
      for (const trace::CompileEvent& c : profile_->compile_events) hits += c.cache_hit;
      return QStringLiteral("%1 · %2 cached").arg(profile_->compile_events.size()).arg(hits);
    }
    case Kind::kCompile: {
      const trace::CompileEvent& c = profile_->compile_events[item.compile];
      if (c.cache_hit) return QStringLiteral("cache hit");
      QString text = QStringLiteral("compiled in %1").arg(Ns(c.compile_time_ns));
      if (!c.cause.text.empty()) text += " · " + QString::fromStdString(c.cause.text);
      return text;
    }
    case Kind::kRunsFolder: return QString::number(profile_->runs.size());
    case Kind::kRun: {
      const trace::RunRecord& r = profile_->runs[item.run];
      return QStringLiteral("%1 steps · %2").arg(r.steps.size()).arg(Ps(r.end_ps - r.start_ps));
    }
    case Kind::kStep: {
      const trace::StepRecord& s = profile_->runs[item.run].steps[item.step];
      const trace::ProgramRecord* program = profile_->FindProgram(s.program_id);
      return QStringLiteral("%1 · %2")
          .arg(program ? QString::fromStdString(program->name) : QStringLiteral("?"))
          .arg(Ps(s.duration_ps));
    }
    case Kind::kTimeline: {
      const trace::TimeSpan span = profile_->timeline.Span();
      const int planes = profile_->timeline.plane_count();
      const int64_t events = profile_->timeline.event_count();
      return QStringLiteral("%1 plane%2 · %L3 event%4 · %5")
          .arg(planes)
          .arg(planes == 1 ? "" : "s")
          .arg(events)
          .arg(events == 1 ? "" : "s")
          .arg(Ps(span.duration_ps()));
    }
  }
  return {};
}

QString ProfileExplorerModel::Tip(const Item& item) const {
  switch (item.kind) {
    case Kind::kStage: return QStringLiteral("Double-click: show after this pass; context menu: compare");
    case Kind::kCompile: {
      const trace::CompileEvent& c = profile_->compile_events[item.compile];
      return QString::fromStdString(c.cause.text.empty() ? c.fingerprint : c.cause.text);
    }
    case Kind::kStep:
    case Kind::kRun: return QStringLiteral("Double-click: show on the timeline");
    default: return Name(item) + " — " + Detail(item);
  }
}

QVariant ProfileExplorerModel::data(const QModelIndex& index, int role) const {
  const Item* item = ItemAt(index);
  if (!item || !profile_) return {};
  switch (role) {
    case Qt::DisplayRole: return index.column() == kName ? Name(*item) : Detail(*item);
    case Qt::ToolTipRole: return Tip(*item);
    case Qt::FontRole:
      if (index.column() == kName &&
          (item->kind == Kind::kProgramsFolder || item->kind == Kind::kCompilesFolder ||
           item->kind == Kind::kRunsFolder || item->kind == Kind::kTimeline)) {
        QFont font;
        font.setBold(true);
        return font;
      }
      return {};
    case Qt::ForegroundRole:
      if (index.column() == kDetail) return StudioPalette::Get().muted_text;
      if (item->kind == Kind::kStage && item->stage > 0 &&
          !profile_->programs[item->program].snapshots[item->stage].changed) {
        return StudioPalette::Get().muted_text;
      }
      if (item->kind == Kind::kCompile && !profile_->compile_events[item->compile].cache_hit) {
        return StudioPalette::Get().opcode;
      }
      return {};
    default: return {};
  }
}

QVariant ProfileExplorerModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == kName ? QStringLiteral("Profile") : QStringLiteral("");
}

}  // namespace systolic::views
