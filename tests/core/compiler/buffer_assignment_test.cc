#include "core/compiler/buffer_assignment.h"

#include "core/compiler/best_fit_heap.h"
#include "core/compiler/hlo_memory_scheduler.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

const AssignedBuffer* BufferOf(const BufferAssignment& a, const std::string& instruction) {
  for (const AssignedBuffer& b : a.buffers()) {
    if (b.instruction == instruction) return &b;
  }
  return nullptr;
}

TEST(BestFitHeapTest, ReusesTheSmallestGapAndMergesFreedNeighbours) {
  BestFitHeap heap(64);
  const int64_t a = heap.Allocate(1000);  // [0, 1024)
  const int64_t b = heap.Allocate(100);   // [1024, 1152)
  const int64_t c = heap.Allocate(500);   // [1152, 1664)
  const int64_t d = heap.Allocate(64);    // [1664, 1728)
  EXPECT_EQ(a, 0);
  EXPECT_EQ(b, 1024);
  EXPECT_EQ(c, 1152);
  heap.Free(a, 1000);
  heap.Free(c, 500);
  // 400 bytes fit both gaps; the smaller (512) is chosen.
  EXPECT_EQ(heap.Allocate(400), 1152);
  heap.Free(b, 100);
  // a's gap and b's merged: 1152 bytes from 0.
  EXPECT_EQ(heap.Allocate(1100), 0);
  EXPECT_EQ(heap.heap_size(), 1728);
  (void)d;
}

TEST(BufferAssignmentTest, LiveRangesReuseAndPeak) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[1024]) -> f32[1024] {
  %x = f32[1024] parameter(0)
  %a = f32[1024] exponential(%x)
  %b = f32[1024] negate(%a)
  %c = f32[1024] multiply(%b, %x)
  ROOT %d = f32[1024] add(%c, %a)
}
)");
  HloMemoryScheduler scheduler;
  testing::RunPass(scheduler, module.get());
  auto assignment = BufferAssignment::Run(*module);
  ASSERT_TRUE(assignment.ok()) << assignment.status();
  const AssignedBuffer* x = BufferOf(*assignment, "x");
  const AssignedBuffer* a = BufferOf(*assignment, "a");
  const AssignedBuffer* b = BufferOf(*assignment, "b");
  const AssignedBuffer* c = BufferOf(*assignment, "c");
  const AssignedBuffer* d = BufferOf(*assignment, "d");
  ASSERT_TRUE(x && a && b && c && d);
  EXPECT_EQ(x->kind, BufferKind::kParameter);
  EXPECT_EQ(d->kind, BufferKind::kOutput);
  EXPECT_EQ(a->size_bytes, 4096);
  // a lives until d reads it; b dies at c, which writes over it in place.
  EXPECT_EQ(a->end, d->start);
  EXPECT_EQ(c->shares_with, b->id);
  EXPECT_EQ(c->offset, b->offset);
  EXPECT_NE(a->offset, b->offset);
  EXPECT_EQ(assignment->program_length(), 5);
  // At most x, a and one more 4 KiB buffer are live at once.
  EXPECT_EQ(assignment->peak_bytes(), 3 * 4096);
  std::vector<int64_t> live = assignment->LiveBytes(0);
  EXPECT_EQ(*std::max_element(live.begin(), live.end()), assignment->peak_bytes());
  EXPECT_EQ(assignment->memory_spaces().front().name, "HBM");
  EXPECT_GE(assignment->memory_spaces().front().heap_bytes, assignment->peak_bytes());
}

TEST(BufferAssignmentTest, TiledLayoutsArePadded) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[3,5]) -> f32[3,5] {
  %x = f32[3,5]{1,0:T(8,128)} parameter(0)
  ROOT %n = f32[3,5]{1,0:T(8,128)} negate(%x)
}
)");
  auto assignment = BufferAssignment::Run(*module);
  ASSERT_TRUE(assignment.ok());
  EXPECT_EQ(BufferOf(*assignment, "x")->size_bytes, 8 * 128 * 4);
}

TEST(BufferAssignmentTest, InputOutputAliasSharesTheParameterBuffer) {
  auto module = testing::ParseModule(R"(
HloModule m, input_output_alias={ {0}: (0, {}, must-alias) }

ENTRY %main (state: f32[256], grad: f32[256]) -> (f32[256], f32[256]) {
  %state = f32[256] parameter(0)
  %grad = f32[256] parameter(1)
  %new = f32[256] subtract(%state, %grad)
  %norm = f32[256] multiply(%grad, %grad)
  ROOT %t = (f32[256], f32[256]) tuple(%new, %norm)
}
)");
  HloMemoryScheduler scheduler;
  testing::RunPass(scheduler, module.get());
  auto assignment = BufferAssignment::Run(*module);
  ASSERT_TRUE(assignment.ok());
  const AssignedBuffer* state = BufferOf(*assignment, "state");
  const AssignedBuffer* updated = BufferOf(*assignment, "new");
  ASSERT_TRUE(state && updated);
  ASSERT_TRUE(updated->aliased_parameter.has_value());
  EXPECT_EQ(*updated->aliased_parameter, 0);
  EXPECT_EQ(updated->offset, state->offset);
  EXPECT_TRUE(assignment->notes().empty());
}

TEST(BufferAssignmentTest, AnAliasThatWouldClobberALiveParameterIsReported) {
  auto module = testing::ParseModule(R"(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias) }

ENTRY %main (state: f32[256]) -> (f32[256], f32[256]) {
  %state = f32[256] parameter(0)
  %new = f32[256] negate(%state)
  %later = f32[256] exponential(%state)
  %both = f32[256] add(%new, %later)
  ROOT %t = (f32[256], f32[256]) tuple(%new, %both)
}
)");
  std::vector<HloInstruction*> order;
  for (const char* name : {"state", "new", "later", "both", "t"}) {
    order.push_back(testing::FindInstruction(*module, name));
  }
  module->set_schedule(module->entry_computation(), order);
  module->set_is_scheduled(true);
  auto assignment = BufferAssignment::Run(*module);
  ASSERT_TRUE(assignment.ok());
  ASSERT_EQ(assignment->notes().size(), 1u);
  EXPECT_NE(assignment->notes()[0].find("a copy is needed"), std::string::npos);
}

TEST(BufferAssignmentTest, LoopsAddTheirBodysMemoryAtTheirPosition) {
  auto module = testing::ParseModule(R"(
HloModule m

%cond (s: (s32[], f32[1024])) -> pred[] {
  %s = (s32[], f32[1024]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (s: (s32[], f32[1024])) -> (s32[], f32[1024]) {
  %s = (s32[], f32[1024]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %v = f32[1024] get-tuple-element(%s), index=1
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %w = f32[1024] exponential(%v)
  ROOT %t = (s32[], f32[1024]) tuple(%j, %w)
}

ENTRY %main (x: f32[1024]) -> f32[1024] {
  %x = f32[1024] parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[1024]) tuple(%zero, %x)
  %loop = (s32[], f32[1024]) while(%init), condition=%cond, body=%body
  ROOT %r = f32[1024] get-tuple-element(%loop), index=1
}
)");
  auto assignment = BufferAssignment::Run(*module);
  ASSERT_TRUE(assignment.ok());
  const AssignedBuffer* body = nullptr;
  for (const AssignedBuffer& b : assignment->buffers()) {
    if (b.kind == BufferKind::kCalledComputation) body = &b;
  }
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->instruction, "loop");
  EXPECT_GE(body->size_bytes, 4096);
  EXPECT_EQ(body->start, body->end);
}

}  // namespace
}  // namespace systolic
