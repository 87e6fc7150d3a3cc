// HLO programs with control flow that several tests time and read back.
#pragma once

namespace systolic::testing {

// An outer while of five iterations (0, 2, ..., 8 below 10, compared the
// other way round), each running an inner while of four (w_in) that
// exponentiates an f32[256,256]; the entry runs w_out.
inline constexpr char kNestedLoops[] = R"(
HloModule nested
inner_cond {
  p = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}
inner_body {
  p = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  a = f32[256,256] get-tuple-element(p), index=1
  e = f32[256,256] exponential(a)
  ROOT t = (s32[], f32[256,256]) tuple(next, e)
}
outer_cond {
  p = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(10)
  ROOT gt = pred[] compare(n, i), direction=GT
}
outer_body {
  p = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  two = s32[] constant(2)
  next = s32[] add(i, two)
  a = f32[256,256] get-tuple-element(p), index=1
  zero = s32[] constant(0)
  init = (s32[], f32[256,256]) tuple(zero, a)
  w_in = (s32[], f32[256,256]) while(init), condition=inner_cond, body=inner_body
  r = f32[256,256] get-tuple-element(w_in), index=1
  ROOT t = (s32[], f32[256,256]) tuple(next, r)
}
ENTRY main {
  a = f32[256,256] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[256,256]) tuple(zero, a)
  w_out = (s32[], f32[256,256]) while(init), condition=outer_cond, body=outer_body
  ROOT r = f32[256,256] get-tuple-element(w_out), index=1
})";

}  // namespace systolic::testing
