#!/usr/bin/env python3
"""Writes scanned_decoder_step_spmd.hlo: one training step of a decoder-only
transformer as XLA leaves it after SPMD partitioning, for one of 8 devices
that shard every weight (FSDP). The layers are stacked and run by two
scanned loops (forward, then backward with the layer recomputed: full
remat); each layer all-gathers its weight shards before use and
reduce-scatters its weight gradients. Attention is a fused-attention custom
call. The entry computation keeps the name the partitioner gives it and the
entry parameters keep their original shardings, as XLA's dumps do.

    python3 samples/hlo/make_scanned_decoder_step.py > samples/hlo/scanned_decoder_step_spmd.hlo
"""

LAYERS, BATCH, SEQ, HEADS, HEAD = 8, 2, 2048, 8, 128
D = HEADS * HEAD
MLP = 4 * D
VOCAB = 32000
DEV = 8
T = BATCH * SEQ
GROUP = "{{" + ",".join(str(i) for i in range(DEV)) + "}}"

out = []
emit = out.append


def gather(name, shard, full, channel):
    return (f"  {name} = bf16[{full}] all-gather({shard}), channel_id={channel}, "
            f"replica_groups={GROUP}, dimensions={{0}}, use_global_device_ids=true")


def scatter(name, value, shard, channel):
    return (f"  {name} = bf16[{shard}] reduce-scatter({value}), channel_id={channel}, "
            f"replica_groups={GROUP}, dimensions={{0}}, use_global_device_ids=true, "
            f"to_apply=add_bf16")


WEIGHTS = [  # name, rows (sharded), cols
    ("wqkv", D, 3 * D),
    ("wo", D, D),
    ("w1", D, MLP),
    ("w2", MLP, D),
]
STACKS = ", ".join(f"bf16[{LAYERS},{r // DEV},{c}]" for _, r, c in WEIGHTS)
ACTS = f"bf16[{LAYERS},{T},{D}]"
FWD_STATE = f"(s32[], bf16[{T},{D}], {STACKS}, {ACTS})"
BWD_STATE = f"(s32[], bf16[{T},{D}], {STACKS}, {ACTS}, {STACKS})"


def layer_weights(state, first_index, channel):
    """Slices layer i's shard of every weight out of the stacks and gathers it."""
    for n, (w, r, c) in enumerate(WEIGHTS):
        emit(f"  {w}_stack = bf16[{LAYERS},{r // DEV},{c}] get-tuple-element({state}), "
             f"index={first_index + n}")
        emit(f"  {w}_slice = bf16[1,{r // DEV},{c}] dynamic-slice({w}_stack, i, zero, zero), "
             f"dynamic_slice_sizes={{1,{r // DEV},{c}}}")
        emit(f"  {w}_shard = bf16[{r // DEV},{c}] reshape({w}_slice)")
        emit(gather(w, f"{w}_shard", f"{r},{c}", channel + n))


def layer_forward(x):
    """RMS norm, attention, MLP with GELU; leaves x2 and what backward needs."""
    emit(f"  xf = f32[{T},{D}] convert({x})")
    emit(f"  sq = f32[{T},{D}] multiply(xf, xf)")
    emit("  zf = f32[] constant(0)")
    emit(f"  ss = f32[{T}] reduce(sq, zf), dimensions={{1}}, to_apply=add_f32")
    emit(f"  dinv = f32[] constant({1.0 / D})")
    emit(f"  dinvb = f32[{T}] broadcast(dinv), dimensions={{}}")
    emit(f"  ms = f32[{T}] multiply(ss, dinvb)")
    emit("  eps = f32[] constant(1e-06)")
    emit(f"  epsb = f32[{T}] broadcast(eps), dimensions={{}}")
    emit(f"  mse = f32[{T}] add(ms, epsb)")
    emit(f"  rs = f32[{T}] rsqrt(mse)")
    emit(f"  rsb = f32[{T},{D}] broadcast(rs), dimensions={{0}}")
    emit(f"  xnf = f32[{T},{D}] multiply(xf, rsb)")
    emit(f"  xn = bf16[{T},{D}] convert(xnf)")
    emit(f"  qkv = bf16[{T},{3 * D}] dot(xn, wqkv), lhs_contracting_dims={{1}}, "
         f"rhs_contracting_dims={{0}}")
    for n, part in enumerate("qkv"):
        emit(f"  {part}2 = bf16[{T},{D}] slice(qkv), slice={{[0:{T}], [{n * D}:{(n + 1) * D}]}}")
        emit(f"  {part} = bf16[{BATCH},{SEQ},{HEADS},{HEAD}] reshape({part}2)")
    emit(f"  att = (bf16[{BATCH},{SEQ},{HEADS},{HEAD}], f32[{BATCH},{HEADS},{SEQ},1]) "
         f"custom-call(q, k, v), custom_call_target=\"te_fused_attn_forward_ffi\"")
    emit(f"  o4 = bf16[{BATCH},{SEQ},{HEADS},{HEAD}] get-tuple-element(att), index=0")
    emit(f"  stats = f32[{BATCH},{HEADS},{SEQ},1] get-tuple-element(att), index=1")
    emit(f"  o = bf16[{T},{D}] reshape(o4)")
    emit(f"  proj = bf16[{T},{D}] dot(o, wo), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}")
    emit(f"  x1 = bf16[{T},{D}] add({x}, proj)")
    emit(f"  h = bf16[{T},{MLP}] dot(x1, w1), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}")
    emit("  g = bf16[] constant(1.702)")
    emit(f"  gb = bf16[{T},{MLP}] broadcast(g), dimensions={{}}")
    emit(f"  hg = bf16[{T},{MLP}] multiply(h, gb)")
    emit(f"  sig = bf16[{T},{MLP}] logistic(hg)")
    emit(f"  a = bf16[{T},{MLP}] multiply(h, sig)")
    emit(f"  y = bf16[{T},{D}] dot(a, w2), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}")
    emit(f"  x2 = bf16[{T},{D}] add(x1, y)")


emit("// One training step of a decoder-only transformer (8 layers, d_model 1024,")
emit("// 8 heads of 128, MLP 4096, vocabulary 32000, 2 x 2048 tokens per device)")
emit("// for one of 8 devices, as XLA leaves it after SPMD partitioning: weights")
emit("// sharded 8 ways (FSDP) and gathered per layer, gradients reduce-scattered,")
emit("// layers run by a scanned forward loop and a backward loop that recomputes")
emit("// each layer (full remat), attention a fused-attention custom call.")
emit("// Written by make_scanned_decoder_step.py. Time it with")
emit("// `systolic run samples/hlo/scanned_decoder_step_spmd.hlo --chip v5p --timing-only`.")
emit(f"HloModule jit_train_step, is_scheduled=true, num_partitions={DEV}")
emit("")
emit("add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n")
emit("max_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT m = f32[] maximum(a, b)\n}\n")
emit("add_bf16 {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n  ROOT s = bf16[] add(a, b)\n}\n")

# Forward loop.
emit(f"fwd_cond {{\n  p = {FWD_STATE} parameter(0)\n  i = s32[] get-tuple-element(p), index=0")
emit(f"  n = s32[] constant({LAYERS})\n  ROOT lt = pred[] compare(i, n), direction=LT\n}}\n")
emit("fwd_body {")
emit(f"  p = {FWD_STATE} parameter(0)")
emit("  i = s32[] get-tuple-element(p), index=0")
emit(f"  x = bf16[{T},{D}] get-tuple-element(p), index=1")
emit("  zero = s32[] constant(0)")
layer_weights("p", 2, 1)
emit(f"  acts = {ACTS} get-tuple-element(p), index=6")
emit(f"  x3 = bf16[1,{T},{D}] reshape(x)")
emit(f"  acts2 = {ACTS} dynamic-update-slice(acts, x3, i, zero, zero)")
layer_forward("x")
emit("  one = s32[] constant(1)\n  next = s32[] add(i, one)")
emit(f"  ROOT t = {FWD_STATE} tuple(next, x2, wqkv_stack, wo_stack, w1_stack, w2_stack, acts2)")
emit("}\n")

# Backward loop: i from LAYERS - 1 down to 0.
emit(f"bwd_cond {{\n  p = {BWD_STATE} parameter(0)\n  i = s32[] get-tuple-element(p), index=0")
emit("  z = s32[] constant(0)\n  ROOT ge = pred[] compare(i, z), direction=GE\n}\n")
emit("bwd_body {")
emit(f"  p = {BWD_STATE} parameter(0)")
emit("  i = s32[] get-tuple-element(p), index=0")
emit(f"  dy = bf16[{T},{D}] get-tuple-element(p), index=1")
emit("  zero = s32[] constant(0)")
layer_weights("p", 2, 11)
emit(f"  acts = {ACTS} get-tuple-element(p), index=6")
emit(f"  xs = bf16[1,{T},{D}] dynamic-slice(acts, i, zero, zero), dynamic_slice_sizes={{1,{T},{D}}}")
emit(f"  xin = bf16[{T},{D}] reshape(xs)")
layer_forward("xin")
# MLP backward.
emit(f"  da = bf16[{T},{MLP}] dot(dy, w2), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}")
emit(f"  dw2 = bf16[{MLP},{D}] dot(a, dy), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}")
emit(f"  dh = bf16[{T},{MLP}] multiply(da, sig)")
emit(f"  dx1m = bf16[{T},{D}] dot(dh, w1), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}")
emit(f"  dw1 = bf16[{D},{MLP}] dot(x1, dh), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}")
emit(f"  dx1 = bf16[{T},{D}] add(dy, dx1m)")
# Attention backward.
emit(f"  do = bf16[{T},{D}] dot(dx1, wo), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}")
emit(f"  dwo = bf16[{D},{D}] dot(o, dx1), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}")
emit(f"  do4 = bf16[{BATCH},{SEQ},{HEADS},{HEAD}] reshape(do)")
emit(f"  attb = (bf16[{BATCH},{SEQ},{HEADS},{HEAD}], bf16[{BATCH},{SEQ},{HEADS},{HEAD}], "
     f"bf16[{BATCH},{SEQ},{HEADS},{HEAD}]) custom-call(q, k, v, o4, do4, stats), "
     f"custom_call_target=\"te_fused_attn_backward_ffi\"")
for n, part in enumerate("qkv"):
    emit(f"  d{part}4 = bf16[{BATCH},{SEQ},{HEADS},{HEAD}] get-tuple-element(attb), index={n}")
    emit(f"  d{part} = bf16[{T},{D}] reshape(d{part}4)")
emit(f"  dqkv = bf16[{T},{3 * D}] concatenate(dq, dk, dv), dimensions={{1}}")
emit(f"  dxn = bf16[{T},{D}] dot(dqkv, wqkv), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}")
emit(f"  dwqkv = bf16[{D},{3 * D}] dot(xn, dqkv), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}")
emit(f"  rsbb = bf16[{T},{D}] convert(rsb)")
emit(f"  dxnn = bf16[{T},{D}] multiply(dxn, rsbb)")
emit(f"  dx = bf16[{T},{D}] add(dx1, dxnn)")
# Gradients: reduce-scatter, then into the gradient stacks at layer i.
for n, (w, r, c) in enumerate(WEIGHTS):
    emit(scatter(f"d{w}_shard", f"d{w}", f"{r // DEV},{c}", 21 + n))
    emit(f"  d{w}_3 = bf16[1,{r // DEV},{c}] reshape(d{w}_shard)")
    emit(f"  g{w} = bf16[{LAYERS},{r // DEV},{c}] get-tuple-element(p), index={7 + n}")
    emit(f"  g{w}2 = bf16[{LAYERS},{r // DEV},{c}] dynamic-update-slice(g{w}, d{w}_3, i, zero, zero)")
emit("  one = s32[] constant(1)\n  next = s32[] subtract(i, one)")
emit(f"  ROOT t = {BWD_STATE} tuple(next, dx, wqkv_stack, wo_stack, w1_stack, w2_stack, acts, "
     "gwqkv2, gwo2, gw12, gw22)")
emit("}\n")

# Entry: embedded tokens in, loss and the SGD-updated weight shards out.
emit("ENTRY main.1_spmd {")
emit(f"  x0 = bf16[{T},{D}] parameter(0), sharding={{devices=[{DEV},1]<=[{DEV}]}}")
emit(f"  labels = s32[{T}] parameter(1), sharding={{devices=[{DEV}]<=[{DEV}]}}")
for n, (w, r, c) in enumerate(WEIGHTS):
    emit(f"  {w}_stack = bf16[{LAYERS},{r // DEV},{c}] parameter({2 + n}), "
         f"sharding={{devices=[1,{DEV},1]<=[{DEV}]}}")
emit(f"  wout_shard = bf16[{D // DEV},{VOCAB}] parameter(6), sharding={{devices=[{DEV},1]<=[{DEV}]}}")
emit("  zero = s32[] constant(0)")
emit("  zbf = bf16[] constant(0)")
emit(f"  acts0 = {ACTS} broadcast(zbf), dimensions={{}}")
emit(f"  fwd_init = {FWD_STATE} tuple(zero, x0, wqkv_stack, wo_stack, w1_stack, w2_stack, acts0)")
emit(f"  fwd = {FWD_STATE} while(fwd_init), condition=fwd_cond, body=fwd_body, "
     f"backend_config={{\"known_trip_count\":{{\"n\":\"{LAYERS}\"}}}}")
emit(f"  xl = bf16[{T},{D}] get-tuple-element(fwd), index=1")
emit(f"  acts = {ACTS} get-tuple-element(fwd), index=6")
# Output layer and softmax cross-entropy.
emit(gather("wout", "wout_shard", f"{D},{VOCAB}", 31))
emit(f"  logits = bf16[{T},{VOCAB}] dot(xl, wout), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}")
emit(f"  lf = f32[{T},{VOCAB}] convert(logits)")
emit("  ninf = f32[] constant(-inf)")
emit(f"  mx = f32[{T}] reduce(lf, ninf), dimensions={{1}}, to_apply=max_f32")
emit(f"  mxb = f32[{T},{VOCAB}] broadcast(mx), dimensions={{0}}")
emit(f"  sh = f32[{T},{VOCAB}] subtract(lf, mxb)")
emit(f"  ex = f32[{T},{VOCAB}] exponential(sh)")
emit("  zf = f32[] constant(0)")
emit(f"  se = f32[{T}] reduce(ex, zf), dimensions={{1}}, to_apply=add_f32")
emit(f"  seb = f32[{T},{VOCAB}] broadcast(se), dimensions={{0}}")
emit(f"  prob = f32[{T},{VOCAB}] divide(ex, seb)")
emit(f"  cls = s32[{T},{VOCAB}] iota(), iota_dimension=1")
emit(f"  lab = s32[{T},{VOCAB}] broadcast(labels), dimensions={{0}}")
emit(f"  hit = pred[{T},{VOCAB}] compare(cls, lab), direction=EQ")
emit(f"  onehot = f32[{T},{VOCAB}] convert(hit)")
emit(f"  lse = f32[{T}] log(se)")
emit(f"  picked = f32[{T},{VOCAB}] multiply(sh, onehot)")
emit(f"  tgt = f32[{T}] reduce(picked, zf), dimensions={{1}}, to_apply=add_f32")
emit(f"  nll = f32[{T}] subtract(lse, tgt)")
emit("  loss = f32[] reduce(nll, zf), dimensions={0}, to_apply=add_f32")
emit(f"  dl = f32[{T},{VOCAB}] subtract(prob, onehot)")
emit(f"  dlb = bf16[{T},{VOCAB}] convert(dl)")
emit(f"  dxl = bf16[{T},{D}] dot(dlb, wout), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}")
emit(f"  dwout = bf16[{D},{VOCAB}] dot(xl, dlb), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}")
emit(scatter("dwout_shard", "dwout", f"{D // DEV},{VOCAB}", 32))
# Backward loop from the last layer down.
emit(f"  last = s32[] constant({LAYERS - 1})")
for w, r, c in WEIGHTS:
    emit(f"  g{w}0 = bf16[{LAYERS},{r // DEV},{c}] broadcast(zbf), dimensions={{}}")
emit(f"  bwd_init = {BWD_STATE} tuple(last, dxl, wqkv_stack, wo_stack, w1_stack, w2_stack, acts, "
     "gwqkv0, gwo0, gw10, gw20)")
emit(f"  bwd = {BWD_STATE} while(bwd_init), condition=bwd_cond, body=bwd_body")
# SGD on the shards.
emit("  lr = bf16[] constant(0.01)")
updated = []
for n, (w, r, c) in enumerate(WEIGHTS):
    shape = f"bf16[{LAYERS},{r // DEV},{c}]"
    emit(f"  g{w} = {shape} get-tuple-element(bwd), index={7 + n}")
    emit(f"  lr{w} = {shape} broadcast(lr), dimensions={{}}")
    emit(f"  s{w} = {shape} multiply(g{w}, lr{w})")
    emit(f"  new_{w} = {shape} subtract({w}_stack, s{w})")
    updated.append(f"new_{w}")
emit(f"  lrout = bf16[{D // DEV},{VOCAB}] broadcast(lr), dimensions={{}}")
emit(f"  sout = bf16[{D // DEV},{VOCAB}] multiply(dwout_shard, lrout)")
emit(f"  new_wout = bf16[{D // DEV},{VOCAB}] subtract(wout_shard, sout)")
result_shapes = ", ".join(["f32[]"] + [f"bf16[{LAYERS},{r // DEV},{c}]" for _, r, c in WEIGHTS]
                          + [f"bf16[{D // DEV},{VOCAB}]"])
emit(f"  ROOT out = ({result_shapes}) tuple(loss, {', '.join(updated)}, new_wout)")
emit("}")
print("\n".join(out))
