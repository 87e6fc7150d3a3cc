#include "core/device/core_program_builder.h"

#include <algorithm>
#include <deque>
#include <map>

#include "absl/strings/str_cat.h"

namespace systolic::device {
namespace {

std::vector<OpId> Unique(std::vector<OpId> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace

CoreProgramBuilder::CoreProgramBuilder(CoreProgram* program, int dma_engines)
    : program_(program), dma_engines_(std::max(1, dma_engines)) {}

OpId CoreProgramBuilder::Add(const std::string& instruction, DeviceOp op) {
  op.deps = Unique(std::move(op.deps));
  instruction_of_op_.push_back(instruction);
  return program_->Add(std::move(op));
}

UnitId CoreProgramBuilder::NextLoadEngine() {
  const int loaders = dma_engines_ >= 2 ? dma_engines_ - 1 : 1;
  const int engine = next_load_engine_ % loaders;
  next_load_engine_ = (next_load_engine_ + 1) % loaders;
  return Dma(engine);
}

UnitId CoreProgramBuilder::StoreEngine() const { return Dma(dma_engines_ - 1); }

OpId CoreProgramBuilder::AddFixed(const std::string& instruction, const std::string& label,
                                  FixedWork work, const std::vector<OpId>& after, UnitId unit) {
  DeviceOp op;
  op.name = absl::StrCat(instruction, "/", label);
  op.unit = unit;
  op.work = work;
  op.deps = after;
  return Add(instruction, std::move(op));
}

OpId CoreProgramBuilder::AddKernel(const std::string& instruction,
                                   const std::vector<TileStep>& steps,
                                   const std::vector<OpId>& after) {
  const size_t n = steps.size();
  // The step two before each step in its stream: its buffers are ours.
  std::vector<int64_t> two_back(n, -1);
  {
    std::map<int, std::deque<size_t>> recent;
    for (size_t i = 0; i < n; ++i) {
      std::deque<size_t>& r = recent[steps[i].stream];
      if (r.size() == 2) two_back[i] = int64_t(r.front());
      r.push_back(i);
      if (r.size() > 2) r.pop_front();
    }
  }
  std::map<int, bool> streams;
  for (const TileStep& s : steps) streams[s.stream] = true;
  const size_t lookahead = streams.size();

  DeviceOp issue;
  issue.name = absl::StrCat(instruction, "/issue");
  issue.unit = ScalarUnit();
  issue.work = KernelIssueWork{};
  issue.deps = after;
  const std::vector<OpId> issued = {Add(instruction, std::move(issue))};

  std::vector<OpId> compute(n, -1);
  std::vector<std::vector<OpId>> loads(n);
  std::vector<std::vector<VmemBufferId>> load_buffers(n);
  std::vector<OpId> work;  // everything "done" waits for
  size_t next_to_load = 0;

  auto load = [&](size_t i) {
    if (two_back[i] >= 0 && compute[two_back[i]] < 0) return false;
    const TileStep& step = steps[i];
    for (size_t j = 0; j < step.in_bytes.size(); ++j) {
      if (step.in_bytes[j] <= 0) continue;
      const std::string name = absl::StrCat(instruction, "/", step.label, " in", j);
      const VmemBufferId buffer = program_->AddVmemBuffer(name, step.in_bytes[j]);
      DeviceOp op;
      op.name = name;
      op.unit = NextLoadEngine();
      op.work = DmaWork{step.in_bytes[j], DmaDirection::kHbmToVmem};
      op.deps = issued;
      if (two_back[i] >= 0) op.deps.push_back(compute[two_back[i]]);
      op.allocates = {buffer};
      loads[i].push_back(Add(instruction, std::move(op)));
      load_buffers[i].push_back(buffer);
    }
    return true;
  };

  // Per stream: the ops that wrote back its last two outputs, and the
  // buffer of the output being accumulated.
  std::map<int, std::deque<OpId>> written;
  std::map<int, VmemBufferId> open_output;
  for (size_t i = 0; i < n; ++i) {
    const TileStep& step = steps[i];
    // Load this step and prefetch the next few (one per stream), in order.
    while (next_to_load < n && next_to_load <= i + lookahead && load(next_to_load)) ++next_to_load;

    DeviceOp op;
    op.name = absl::StrCat(instruction, "/", step.label);
    op.unit = step.unit;
    op.work = step.work;
    op.deps = loads[i];
    if (loads[i].empty()) op.deps.insert(op.deps.end(), issued.begin(), issued.end());
    op.frees = load_buffers[i];
    if (step.opens_output && step.output_bytes > 0) {
      std::deque<OpId>& w = written[step.stream];
      if (w.size() == 2) op.deps.push_back(w.front());
      const VmemBufferId out =
          program_->AddVmemBuffer(absl::StrCat(op.name, " out"), step.output_bytes);
      op.allocates.push_back(out);
      open_output[step.stream] = out;
    }
    compute[i] = Add(instruction, std::move(op));
    work.push_back(compute[i]);
    if (!step.closes_output) continue;

    OpId last = compute[i];
    if (step.epilogue) {
      DeviceOp epilogue;
      epilogue.name = absl::StrCat(instruction, "/", step.label, " epilogue");
      epilogue.unit = VectorUnit();
      epilogue.work = *step.epilogue;
      epilogue.deps = {last};
      last = Add(instruction, std::move(epilogue));
      work.push_back(last);
    }
    auto out = open_output.find(step.stream);
    if (step.output_bytes > 0 && out != open_output.end()) {
      DeviceOp store;
      store.name = absl::StrCat(instruction, "/", step.label, " out");
      store.unit = StoreEngine();
      store.work = DmaWork{step.output_bytes, DmaDirection::kVmemToHbm};
      store.deps = {last};
      store.frees = {out->second};
      open_output.erase(out);
      last = Add(instruction, std::move(store));
      work.push_back(last);
      std::deque<OpId>& w = written[step.stream];
      w.push_back(last);
      if (w.size() > 2) w.pop_front();
    }
  }
  if (work.empty()) work = issued;
  DeviceOp done;
  done.name = absl::StrCat(instruction, "/done");
  done.unit = ScalarUnit();
  done.work = JoinWork{};
  done.deps = std::move(work);
  return Add(instruction, std::move(done));
}

}  // namespace systolic::device
