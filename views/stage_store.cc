#include "views/stage_store.h"

#include <QtConcurrent/QtConcurrent>

namespace systolic::views {
namespace {

struct ParseOutcome {
  std::shared_ptr<const analysis::StageModule> module;
  QString error;
};

ParseOutcome ParseStage(const trace::ModuleSnapshot& snapshot) {
  ParseOutcome outcome;
  if (snapshot.hlo_text.empty()) {
    outcome.error = "This stage has no HLO text.";
    return outcome;
  }
  auto parsed = analysis::StageModule::Parse(snapshot);
  if (parsed.ok()) {
    outcome.module = std::move(*parsed);
  } else {
    outcome.error = QString::fromStdString(std::string(parsed.status().message()));
  }
  return outcome;
}

}  // namespace

StageStore::StageStore(QObject* parent) : QObject(parent) {}

StageStore::~StageStore() = default;

void StageStore::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  profile_ = std::move(profile);
  ++generation_;
  ready_.clear();
  errors_.clear();
  pending_.clear();
}

void StageStore::Adopt(int64_t program_id, int64_t stage,
                       std::shared_ptr<const analysis::StageModule> module) {
  ready_[{program_id, stage}] = std::move(module);
  errors_.erase({program_id, stage});
}

const trace::ModuleSnapshot* StageStore::Snapshot(int64_t program_id, int64_t stage) const {
  if (!profile_) return nullptr;
  const trace::ProgramRecord* program = profile_->FindProgram(program_id);
  if (!program || stage < 0 || stage >= int64_t(program->snapshots.size())) return nullptr;
  return &program->snapshots[stage];
}

std::shared_ptr<const analysis::StageModule> StageStore::Get(int64_t program_id, int64_t stage) {
  const Key key{program_id, stage};
  if (auto it = ready_.find(key); it != ready_.end()) return it->second;
  if (errors_.count(key) || pending_.count(key)) return nullptr;
  const trace::ModuleSnapshot* snapshot = Snapshot(program_id, stage);
  if (!snapshot) {
    errors_[key] = "No such stage.";
    return nullptr;
  }
  pending_.insert(key);
  auto* watcher = new QFutureWatcher<ParseOutcome>(this);
  const int generation = generation_;
  connect(watcher, &QFutureWatcher<ParseOutcome>::finished, this, [=, this] {
    ParseOutcome outcome = watcher->result();
    watcher->deleteLater();
    if (generation != generation_) return;  // another profile was opened since
    pending_.erase(key);
    if (outcome.module) {
      ready_[key] = outcome.module;
      emit stageReady(program_id, stage);
    } else {
      errors_[key] = outcome.error;
      emit stageFailed(program_id, stage, outcome.error);
    }
  });
  // The profile stays alive while the snapshot is parsed.
  std::shared_ptr<const trace::Profile> keep = profile_;
  watcher->setFuture(QtConcurrent::run([keep, snapshot] { return ParseStage(*snapshot); }));
  return nullptr;
}

std::shared_ptr<const analysis::StageModule> StageStore::GetNow(int64_t program_id, int64_t stage,
                                                             QString* error) {
  const Key key{program_id, stage};
  if (auto it = ready_.find(key); it != ready_.end()) return it->second;
  const trace::ModuleSnapshot* snapshot = Snapshot(program_id, stage);
  if (!snapshot) {
    if (error) *error = "No such stage.";
    return nullptr;
  }
  ParseOutcome outcome = ParseStage(*snapshot);
  if (!outcome.module) {
    errors_[key] = outcome.error;
    if (error) *error = outcome.error;
    return nullptr;
  }
  ready_[key] = outcome.module;
  return outcome.module;
}

QString StageStore::ErrorOf(int64_t program_id, int64_t stage) const {
  auto it = errors_.find({program_id, stage});
  return it == errors_.end() ? QString() : it->second;
}

bool StageStore::IsPending(int64_t program_id, int64_t stage) const {
  return pending_.count({program_id, stage}) > 0;
}

}  // namespace systolic::views
