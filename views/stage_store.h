// The pass stages of the open profile as modules, parsed on first use in a
// background thread and kept: the graph view asks for a stage, shows
// "parsing…" and draws it when stageReady arrives. Programs opened from a
// file hand over the module they were loaded as, so nothing is parsed.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "core/analysis/stage_module.h"
#include "core/trace/profile.h"

namespace systolic::views {

class StageStore : public QObject {
  Q_OBJECT

 public:
  explicit StageStore(QObject* parent = nullptr);
  ~StageStore() override;

  // Forgets every stage of the previous profile.
  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  const trace::Profile* profile() const { return profile_.get(); }
  std::shared_ptr<const trace::Profile> shared_profile() const { return profile_; }

  // A module the caller already has for stage `stage` of program `program_id`.
  void Adopt(int64_t program_id, int64_t stage, std::shared_ptr<const analysis::StageModule> module);

  // The stage when ready; otherwise starts parsing it (once) and returns
  // null — stageReady follows, or stageFailed.
  std::shared_ptr<const analysis::StageModule> Get(int64_t program_id, int64_t stage);
  // Parses now if needed (tests, screenshots). Null with `error` set on failure.
  std::shared_ptr<const analysis::StageModule> GetNow(int64_t program_id, int64_t stage,
                                                   QString* error = nullptr);
  // Why a stage could not be parsed ("" when it could, or is not tried yet).
  QString ErrorOf(int64_t program_id, int64_t stage) const;
  bool IsPending(int64_t program_id, int64_t stage) const;

 signals:
  void stageReady(qint64 program_id, qint64 stage);
  void stageFailed(qint64 program_id, qint64 stage, const QString& error);

 private:
  using Key = std::pair<int64_t, int64_t>;
  const trace::ModuleSnapshot* Snapshot(int64_t program_id, int64_t stage) const;

  std::shared_ptr<const trace::Profile> profile_;
  int generation_ = 0;
  std::map<Key, std::shared_ptr<const analysis::StageModule>> ready_;
  std::map<Key, QString> errors_;
  std::set<Key> pending_;
};

}  // namespace systolic::views
