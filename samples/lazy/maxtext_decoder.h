// MaxText's reference decoder (its `base` model and the family that
// `global_parameter_scale` makes of it), traced by shape for timing-only
// simulation: the training step one chip runs under fully sharded data
// parallelism within each slice, optional tensor parallelism, and data
// parallelism across slices. Layers are scanned and fully rematerialised,
// attention is one flash kernel, matrix products are bf16 on f32 weights,
// and the optimizer is AdamW, as MaxText's configurations train them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"

namespace systolic::samples {

struct DecoderConfig {
  std::string name;  // "maxtext-16b"
  int64_t embed = 2048;
  int64_t query_heads = 16;
  int64_t kv_heads = 16;
  int64_t head_dim = 128;
  int64_t mlp = 7168;  // gated (SwiGLU): two input projections of this width
  int64_t layers = 16;
  int64_t vocabulary = 32000;
  int64_t sequence = 2048;
  int64_t per_device_batch = 1;  // sequences per chip (MaxText's per_device_batch_size)
  double rope_theta = 10000;      // the rotary embedding's base
};

// How the chips are arranged: `slices` joined by the data-centre network,
// each of fsdp x tensor chips. Chip d of the program is
// slice * (fsdp * tensor) + fsdp_index * tensor + tensor_index.
struct DecoderMesh {
  int64_t slices = 1;
  int64_t fsdp = 1;
  int64_t tensor = 1;
  int64_t devices() const { return slices * fsdp * tensor; }
};

// MaxText's base decoder scaled by `global_parameter_scale` (a power of
// two): heads and MLP width, then embedding, then layers doubled in turn.
absl::StatusOr<DecoderConfig> MaxTextScaledDecoder(int64_t global_parameter_scale,
                                                   int64_t per_device_batch);

// A named configuration: "maxtext-16b" ... "maxtext-128b" (the scaled base
// decoder), "llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b",
// "llama3-70b", "llama3.1-8b", "llama3.1-70b", "llama3.1-405b" (grouped-
// query attention, RoPE, RMSNorm, SwiGLU, untied embeddings and their
// vocabularies, as published). Errors: an unknown name, listing the known.
absl::StatusOr<DecoderConfig> NamedDecoder(const std::string& name, int64_t per_device_batch,
                                           int64_t sequence);
std::vector<std::string> NamedDecoderNames();

// Parameters of the model (embedding and output projection untied).
double DecoderParameterCount(const DecoderConfig& config);

// Training FLOPs per chip per step as MaxText counts them for its MFU:
// three times the forward's weight products (embedding included) plus
// three times the attention's two S x S products; rematerialisation is not
// counted.
double MaxTextTrainingFlopsPerDevice(const DecoderConfig& config);

// The per-chip training step (forward, backward, gradient reduction, AdamW
// update), traced with abstract tensors: its parameters are the chip's
// shards of weights and optimizer state, its tokens and labels. Errors: a
// mesh that does not divide the model's dimensions.
absl::StatusOr<std::unique_ptr<HloModule>> TraceDecoderTrainingStep(const DecoderConfig& config,
                                                                     const DecoderMesh& mesh);

}  // namespace systolic::samples
