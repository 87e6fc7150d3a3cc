// Tree model of an open profile for the explorer dock: its programs with
// their pass stages, the compiles (cache hits and misses with causes), the
// runs with their steps, and the timeline's extent.
#pragma once

#include <QAbstractItemModel>
#include <cstdint>
#include <vector>

#include "core/trace/profile.h"

namespace systolic::views {

class ProfileExplorerModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { kName = 0, kDetail = 1, kColumnCount = 2 };
  enum class Kind : uint8_t {
    kProgramsFolder,
    kProgram,
    kStage,
    kCompilesFolder,
    kCompile,
    kRunsFolder,
    kRun,
    kStep,
    kTimeline,
  };
  // What a row stands for; indices into the profile's vectors.
  struct Item {
    Kind kind = Kind::kProgramsFolder;
    int64_t program = -1;  // index into programs
    int64_t stage = -1;    // index into the program's snapshots
    int64_t compile = -1;  // index into compile_events
    int64_t run = -1;      // index into runs
    int64_t step = -1;     // index into the run's steps
  };

  explicit ProfileExplorerModel(QObject* parent = nullptr);
  // The profile must outlive the model (or be replaced first).
  void SetProfile(const trace::Profile* profile);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  const Item* ItemAt(const QModelIndex& index) const;
  // The row of stage `stage` of program index `program`.
  QModelIndex StageIndex(int64_t program, int64_t stage) const;

 private:
  struct Node {
    Item item;
    int parent = -1;  // node index
    int row = 0;      // row within the parent
    std::vector<int> children;
  };
  int AddNode(const Item& item, int parent);
  QString Name(const Item& item) const;
  QString Detail(const Item& item) const;
  QString Tip(const Item& item) const;

  const trace::Profile* profile_ = nullptr;
  std::vector<Node> nodes_;
  std::vector<int> roots_;
};

}  // namespace systolic::views
