// Instructions with every kind of attribute go to XLA's HloInstructionProto
// fields and come back: proto -> IR -> proto is the same proto, and
// IR -> proto -> IR prints the same text and is structurally equal.
#include "core/hlo/hlo_proto_instruction.h"

#include <string>

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module_from_proto.h"
#include "core/hlo/hlo_module_to_proto.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_structural_equal.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

constexpr absl::string_view kAttributes = R"(
HloModule attributes, replica_count=2, num_partitions=2, is_scheduled=true, input_output_alias={ {0}: (0, {}, must-alias) }, entry_computation_layout={(f32[4,8]{1,0}, s32[])->(f32[4,8]{1,0}, f32[4,4]{1,0})}, frontend_attributes={mode="test"}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}

%less (x: f32[], y: f32[]) -> pred[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %lt = pred[] compare(f32[] %x, f32[] %y), direction=LT, type=TOTALORDER
}

%cond (c: (s32[], f32[4,8])) -> pred[] {
  %c = (s32[], f32[4,8]) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[4,8]) %c), index=0
  %n = s32[] constant(3)
  ROOT %more = pred[] compare(s32[] %i, s32[] %n), direction=LT
}

%body (w: (s32[], f32[4,8])) -> (s32[], f32[4,8]) {
  %w = (s32[], f32[4,8]) parameter(0)
  %j = s32[] get-tuple-element((s32[], f32[4,8]) %w), index=0
  %one = s32[] constant(1)
  %next = s32[] add(s32[] %j, s32[] %one)
  %v = f32[4,8] get-tuple-element((s32[], f32[4,8]) %w), index=1
  ROOT %t = (s32[], f32[4,8]) tuple(s32[] %next, f32[4,8] %v)
}

%fused (fp: f32[4,8]) -> f32[4,8] {
  %fp = f32[4,8] parameter(0)
  ROOT %neg = f32[4,8] negate(f32[4,8] %fp)
}

ENTRY %main (p: f32[4,8], k: s32[]) -> (f32[4,8], f32[4,4]) {
  %p = f32[4,8]{1,0} parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}, metadata={op_type="Input" op_name="jit(f)/x" source_file="f.py" source_line=12}
  %k = s32[] parameter(1)
  %zero = f32[] constant(0)
  %mat = f32[2,2]{1,0} constant({ { 1, 2 }, { 3, 4 } })
  %bc = f32[4,8]{1,0} broadcast(f32[] %zero), dimensions={}
  %tr = f32[8,4]{1,0} transpose(f32[4,8]{1,0} %p), dimensions={1,0}
  %dot = f32[4,4]{1,0} dot(f32[4,8]{1,0} %p, f32[8,4]{1,0} %tr), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={high,highest}, frontend_attributes={kind="mm"}
  %sl = f32[2,4]{1,0} slice(f32[4,8]{1,0} %p), slice={[0:4:2], [1:8:2]}
  %pad = f32[6,9]{1,0} pad(f32[4,8]{1,0} %p, f32[] %zero), padding=1_1x0_1
  %conv = f32[1,4,8,1]{3,2,1,0} reshape(f32[4,8]{1,0} %p)
  %kernel = f32[3,3,1,1]{3,2,1,0} constant({ { { {1} }, { {1} }, { {1} } }, { { {1} }, { {1} }, { {1} } }, { { {1} }, { {1} }, { {1} } } })
  %cv = f32[1,4,8,1]{3,2,1,0} convolution(f32[1,4,8,1]{3,2,1,0} %conv, f32[3,3,1,1]{3,2,1,0} %kernel), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  %rw = f32[2,4]{1,0} reduce-window(f32[4,8]{1,0} %p, f32[] %zero), window={size=2x2 stride=2x2}, to_apply=%add
  %red = f32[4]{0} reduce(f32[4,8]{1,0} %p, f32[] %zero), dimensions={1}, to_apply=%add
  %ar = f32[4,8]{1,0} all-reduce(f32[4,8]{1,0} %p), channel_id=5, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, to_apply=%add
  %ag = f32[8,8]{1,0} all-gather(f32[4,8]{1,0} %p), channel_id=6, replica_groups=[2,2]<=[4], dimensions={0}
  %cp = f32[4,8]{1,0} collective-permute(f32[4,8]{1,0} %p), channel_id=7, source_target_pairs={{0,1},{1,0}}
  %idx = s32[2,1]{1,0} constant({ {0}, {2} })
  %g = f32[2,8]{1,0} gather(f32[4,8]{1,0} %p, s32[2,1]{1,0} %idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}, indices_are_sorted=true
  %upd = f32[2,8]{1,0} broadcast(f32[] %zero), dimensions={}
  %sc = f32[4,8]{1,0} scatter(f32[4,8]{1,0} %p, s32[2,1]{1,0} %idx, f32[2,8]{1,0} %upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, unique_indices=true, to_apply=%add
  %ds = f32[2,8]{1,0} dynamic-slice(f32[4,8]{1,0} %p, s32[] %k, s32[] %k), dynamic_slice_sizes={2,8}
  %srt = f32[4,8]{1,0} sort(f32[4,8]{1,0} %p), dimensions={1}, is_stable=true, to_apply=%less
  %init = (s32[], f32[4,8]{1,0}) tuple(s32[] %k, f32[4,8]{1,0} %p)
  %loop = (s32[], f32[4,8]{1,0}) while((s32[], f32[4,8]{1,0}) %init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"3"}}
  %fu = f32[4,8]{1,0} fusion(f32[4,8]{1,0} %p), kind=kLoop, calls=%fused
  %cc = f32[4,8]{1,0} custom-call(f32[4,8]{1,0} %p), custom_call_target="MyTarget", custom_call_has_side_effect=true, api_version=API_VERSION_STATUS_RETURNING, backend_config="opaque"
  %rp = f32[4,8]{1,0} reduce-precision(f32[4,8]{1,0} %p), exponent_bits=5, mantissa_bits=10
  %io = s32[4,8]{1,0} iota(), iota_dimension=1
  %sum = f32[4,8]{1,0} add(f32[4,8]{1,0} %ar, f32[4,8]{1,0} %cp)
  %sum2 = f32[4,8]{1,0} add(f32[4,8]{1,0} %sum, f32[4,8]{1,0} %sc)
  %sum3 = f32[4,8]{1,0} add(f32[4,8]{1,0} %sum2, f32[4,8]{1,0} %srt)
  %sum4 = f32[4,8]{1,0} add(f32[4,8]{1,0} %sum3, f32[4,8]{1,0} %fu)
  %sum5 = f32[4,8]{1,0} add(f32[4,8]{1,0} %sum4, f32[4,8]{1,0} %cc)
  %sum6 = f32[4,8]{1,0} add(f32[4,8]{1,0} %sum5, f32[4,8]{1,0} %rp)
  %lv = f32[4,8]{1,0} get-tuple-element((s32[], f32[4,8]{1,0}) %loop), index=1
  %sum7 = f32[4,8]{1,0} add(f32[4,8]{1,0} %sum6, f32[4,8]{1,0} %lv)
  %fi = f32[4,8]{1,0} convert(s32[4,8]{1,0} %io)
  ROOT %out = (f32[4,8]{1,0}, f32[4,4]{1,0}) tuple(f32[4,8]{1,0} %sum7, f32[4,4]{1,0} %dot), control-predecessors={%fi}
}
)";

std::unique_ptr<HloModule> ParseModule(absl::string_view text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

const hlo_proto::HloInstructionProto* Find(const hlo_proto::HloModuleProto& module,
                                           absl::string_view name) {
  for (const auto& computation : module.computations()) {
    for (const auto& instr : computation.instructions()) {
      if (instr.name() == name) return &instr;
    }
  }
  return nullptr;
}

TEST(HloProtoInstruction, ModuleWithEveryKindOfAttributeRoundTrips) {
  std::unique_ptr<HloModule> module = ParseModule(kAttributes);
  ASSERT_NE(module, nullptr);
  absl::StatusOr<hlo_proto::HloModuleProto> proto = ModuleToProto(*module);
  ASSERT_TRUE(proto.ok()) << proto.status();
  absl::StatusOr<std::unique_ptr<HloModule>> back = ModuleFromProto(*proto);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(CompareModulesStructurally(*module, **back).ok())
      << CompareModulesStructurally(*module, **back);
  EXPECT_EQ((*back)->ToString(), module->ToString());

  // proto -> IR -> proto is the same proto.
  absl::StatusOr<hlo_proto::HloModuleProto> again = ModuleToProto(**back);
  ASSERT_TRUE(again.ok()) << again.status();
  std::string difference;
  google::protobuf::util::MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&difference);
  EXPECT_TRUE(differencer.Compare(*proto, *again)) << difference;
}

TEST(HloProtoInstruction, AttributesLandInXlasFields) {
  std::unique_ptr<HloModule> module = ParseModule(kAttributes);
  ASSERT_NE(module, nullptr);
  absl::StatusOr<hlo_proto::HloModuleProto> proto = ModuleToProto(*module);
  ASSERT_TRUE(proto.ok()) << proto.status();
  EXPECT_EQ(proto->entry_computation_name(), "main");
  EXPECT_EQ(proto->device_assignment().replica_count(), 2);
  EXPECT_EQ(proto->input_output_alias().entries(0).kind(), hlo_proto::MUST_ALIAS);
  EXPECT_TRUE(proto->has_schedule());

  const auto* lt = Find(*proto, "lt");
  ASSERT_NE(lt, nullptr);
  EXPECT_EQ(lt->opcode(), "compare");
  EXPECT_EQ(lt->comparison_direction(), "LT");
  EXPECT_EQ(lt->comparison_type(), "TOTALORDER");

  const auto* dot = Find(*proto, "dot");
  ASSERT_NE(dot, nullptr);
  EXPECT_EQ(dot->dot_dimension_numbers().lhs_contracting_dimensions(0), 1);
  ASSERT_EQ(dot->precision_config().operand_precision_size(), 2);
  EXPECT_EQ(dot->precision_config().operand_precision(1), hlo_proto::PrecisionConfig::HIGHEST);
  EXPECT_EQ(dot->frontend_attributes().map().at("kind"), "mm");

  const auto* sl = Find(*proto, "sl");
  ASSERT_EQ(sl->slice_dimensions_size(), 2);
  EXPECT_EQ(sl->slice_dimensions(1).start(), 1);
  EXPECT_EQ(sl->slice_dimensions(1).stride(), 2);

  const auto* cv = Find(*proto, "cv");
  EXPECT_EQ(cv->window().dimensions(0).size(), 3);
  EXPECT_EQ(cv->window().dimensions(0).padding_low(), 1);
  EXPECT_EQ(cv->convolution_dimension_numbers().input_feature_dimension(), 3);
  EXPECT_EQ(cv->convolution_dimension_numbers().kernel_output_feature_dimension(), 3);

  const auto* ar = Find(*proto, "ar");
  EXPECT_EQ(ar->channel_id(), 5);
  ASSERT_EQ(ar->replica_groups_size(), 2);
  EXPECT_EQ(ar->replica_groups(1).replica_ids(0), 2);
  EXPECT_TRUE(ar->use_global_device_ids());

  const auto* ag = Find(*proto, "ag");
  EXPECT_EQ(ag->collective_device_list().iota_replica_group_list().num_replica_groups(), 2);
  EXPECT_EQ(ag->dimensions(0), 0);

  const auto* cp = Find(*proto, "cp");
  ASSERT_EQ(cp->source_target_pairs_size(), 2);
  EXPECT_EQ(cp->source_target_pairs(0).target(), 1);

  const auto* g = Find(*proto, "g");
  EXPECT_EQ(g->gather_dimension_numbers().index_vector_dim(), 1);
  ASSERT_EQ(g->gather_slice_sizes_size(), 2);
  EXPECT_EQ(g->gather_slice_sizes(1), 8);
  EXPECT_TRUE(g->indices_are_sorted());

  EXPECT_EQ(Find(*proto, "ds")->dynamic_slice_sizes(0), 2);
  EXPECT_TRUE(Find(*proto, "sc")->unique_indices());
  EXPECT_TRUE(Find(*proto, "srt")->is_stable());
  EXPECT_EQ(Find(*proto, "fu")->fusion_kind(), "kLoop");
  EXPECT_EQ(Find(*proto, "cc")->custom_call_target(), "MyTarget");
  EXPECT_EQ(Find(*proto, "cc")->custom_call_api_version(), hlo_proto::API_VERSION_STATUS_RETURNING);
  EXPECT_EQ(Find(*proto, "cc")->backend_config(), "opaque");
  EXPECT_EQ(Find(*proto, "rp")->mantissa_bits(), 10);
  EXPECT_EQ(Find(*proto, "p")->metadata().source_line(), 12);
  EXPECT_TRUE(Find(*proto, "p")->sharding().replicate_on_last_tile_dim());
  EXPECT_EQ(Find(*proto, "mat")->literal().f32s(3), 4.0f);
  EXPECT_EQ(Find(*proto, "out")->control_predecessor_ids(0), Find(*proto, "fi")->id());

  // XLA lists a while's body before its condition.
  const auto* loop = Find(*proto, "loop");
  ASSERT_EQ(loop->called_computation_ids_size(), 2);
  for (const auto& computation : proto->computations()) {
    if (computation.id() == loop->called_computation_ids(0)) {
      EXPECT_EQ(computation.name(), "body");
    }
    if (computation.id() == loop->called_computation_ids(1)) {
      EXPECT_EQ(computation.name(), "cond");
    }
  }
}

TEST(HloProtoInstruction, UnknownOpcodeNamesTheInstruction) {
  hlo_proto::HloInstructionProto proto;
  proto.set_name("mystery.3");
  proto.set_opcode("frobnicate");
  proto.mutable_shape()->set_element_type(hlo_proto::F32);
  absl::StatusOr<std::unique_ptr<HloInstruction>> made = InstructionFromProto(proto, {}, {});
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().message(), "instruction %mystery.3: unknown opcode 'frobnicate'");
}

}  // namespace
}  // namespace systolic
