#include "views/module_outline_model.h"

#include <QString>

namespace systolic::views {
namespace {

// Internal ids: 0 for computation rows, computation index + 1 for their children.
constexpr quintptr kTopLevel = 0;

}  // namespace

ModuleOutlineModel::ModuleOutlineModel(QObject* parent) : QAbstractItemModel(parent) {}

void ModuleOutlineModel::SetModule(const HloModule* module) {
  beginResetModel();
  rows_.clear();
  if (module) {
    std::vector<HloComputation*> order = module->MakeComputationPostOrder();
    // Entry first: it is what users open the explorer for.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      rows_.push_back({*it, (*it)->MakeInstructionPostOrder()});
    }
  }
  endResetModel();
}

QModelIndex ModuleOutlineModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= kColumnCount || row < 0) return {};
  if (!parent.isValid()) {
    if (row >= int(rows_.size())) return {};
    return createIndex(row, column, kTopLevel);
  }
  if (parent.internalId() != kTopLevel) return {};
  const ComputationRow& c = rows_[size_t(parent.row())];
  if (row >= int(c.instructions.size())) return {};
  return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex ModuleOutlineModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == kTopLevel) return {};
  return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int ModuleOutlineModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return int(rows_.size());
  if (parent.column() != 0 || parent.internalId() != kTopLevel) return 0;
  return int(rows_[size_t(parent.row())].instructions.size());
}

int ModuleOutlineModel::columnCount(const QModelIndex&) const { return kColumnCount; }

const HloComputation* ModuleOutlineModel::ComputationAt(const QModelIndex& index) const {
  if (!index.isValid()) return nullptr;
  size_t row = index.internalId() == kTopLevel ? size_t(index.row()) : index.internalId() - 1;
  return row < rows_.size() ? rows_[row].computation : nullptr;
}

const HloInstruction* ModuleOutlineModel::InstructionAt(const QModelIndex& index) const {
  if (!index.isValid() || index.internalId() == kTopLevel) return nullptr;
  const ComputationRow& c = rows_[index.internalId() - 1];
  return size_t(index.row()) < c.instructions.size() ? c.instructions[size_t(index.row())]
                                                     : nullptr;
}

QVariant ModuleOutlineModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  if (const HloInstruction* instr = InstructionAt(index)) {
    if (index.column() == kName) return QString::fromStdString(instr->name());
    return QString::fromStdString(std::string(HloOpcodeString(instr->opcode())) + " " +
                                  instr->shape().ToString());
  }
  const HloComputation* c = ComputationAt(index);
  if (!c) return {};
  if (index.column() == kName) {
    return QString::fromStdString((c->IsEntryComputation() ? "ENTRY " : "") + c->name());
  }
  return QStringLiteral("%1 instructions").arg(c->instruction_count());
}

QVariant ModuleOutlineModel::headerData(int section, Qt::Orientation orientation,
                                        int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == kName ? QStringLiteral("Name") : QStringLiteral("Opcode / shape");
}

}  // namespace systolic::views
