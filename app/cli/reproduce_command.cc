// `systolic reproduce maxtext-v5e [--model 16b] [--slices N] [--chip SPEC]
// [--json]`: simulates every cell of MaxText's published v5e table (the
// reference decoder, 16B to 128B, on 1 to 32 slices of v5e-256), timing-only,
// and prints the simulated TFLOP/s per chip and MFU beside the published
// MFU with the difference. --chip predicts the same runs on another chip
// (e.g. v6e) with 16x16 slices of it; --hlo-out DIR writes each cell's
// traced per-chip program (maxtext_16b_1slice.hlo, ...).
//
// --json: {"table": "maxtext-v5e", "chip", "cells": [{model, parameters,
// slices, chips, topology, step_seconds, tflops_per_chip, mfu,
// published_mfu, published_tflops_per_chip, difference_points,
// wall_seconds, warnings}]}.
#include <iostream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "app/cli/progress_line.h"
#include "core/hlo/atomic_file.h"
#include "core/device/chip_spec_loader.h"
#include "nlohmann/json.hpp"
#include "samples/lazy/maxtext_reproduction.h"

namespace systolic::cli {
namespace {

using samples::CellPrediction;
using samples::PublishedCell;

nlohmann::json ToJson(const CellPrediction& cell) {
  const samples::DecoderRunPrediction& p = cell.run;
  nlohmann::json j = {{"model", p.model},
                      {"parameters", p.parameters},
                      {"slices", cell.published.slices},
                      {"chips", p.chips},
                      {"topology", p.topology},
                      {"step_seconds", p.step_seconds},
                      {"tflops_per_chip", p.tflops_per_chip},
                      {"mfu", p.mfu},
                      {"published_mfu", cell.published.mfu},
                      {"difference_points", 100 * (p.mfu - cell.published.mfu)},
                      {"wall_seconds", p.wall_seconds},
                      {"warnings", p.warnings}};
  if (cell.published.tflops_per_chip > 0) {
    j["published_tflops_per_chip"] = cell.published.tflops_per_chip;
  }
  return j;
}

int RunReproduce(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1 || args.positional()[0] != "maxtext-v5e") {
    err << "systolic reproduce: name the table to reproduce: maxtext-v5e\n";
    return 2;
  }
  const std::string chip_name = args.Get("chip").value_or("v5e");
  absl::StatusOr<device::ChipSpec> chip = device::LoadChipSpec(chip_name);
  if (!chip.ok()) {
    err << "systolic reproduce: " << chip.status().message() << "\n";
    return 1;
  }
  int64_t model_filter = 0, slices_filter = 0;
  if (args.Has("model")) {
    std::string model = absl::AsciiStrToLower(args.Get("model").value_or(""));
    if (!model.empty() && model.back() == 'b') model.pop_back();
    if (!absl::SimpleAtoi(model, &model_filter)) {
      err << "systolic reproduce: --model takes 16b, 32b, 64b or 128b\n";
      return 2;
    }
  }
  if (args.Has("slices") && !absl::SimpleAtoi(args.Get("slices").value_or(""), &slices_filter)) {
    err << "systolic reproduce: --slices takes a slice count (1 to 32)\n";
    return 2;
  }
  std::vector<PublishedCell> cells;
  for (const PublishedCell& cell : samples::MaxTextV5eTable()) {
    if (model_filter != 0 && cell.global_parameter_scale != model_filter) continue;
    if (slices_filter != 0 && cell.slices != slices_filter) continue;
    cells.push_back(cell);
  }
  if (cells.empty()) {
    err << "systolic reproduce: no cell of the table matches --model / --slices\n";
    return 2;
  }
  if (std::optional<std::string> dir = args.Get("hlo-out")) {
    // Each cell's traced program, to open, compile or run on its own.
    for (const PublishedCell& cell : cells) {
      absl::StatusOr<std::unique_ptr<HloModule>> module = samples::TraceCell(cell);
      const std::string path = absl::StrCat(*dir, "/maxtext_", cell.global_parameter_scale,
                                            "b_", cell.slices, "slice.hlo");
      absl::Status written = module.ok() ? WriteFileAtomically(path, (*module)->ToString())
                                         : module.status();
      if (!written.ok()) {
        err << "systolic reproduce: " << path << ": " << written.message() << "\n";
        return 1;
      }
    }
  }
  const bool json = args.Has("json");
  ProgressLine progress;
  std::vector<CellPrediction> predictions;
  for (size_t i = 0; i < cells.size(); ++i) {
    progress.Update("simulating", double(i) / double(cells.size()),
                    absl::StrFormat("cell %d of %d: %dB on %d slice(s)", i + 1, cells.size(),
                                    cells[i].global_parameter_scale, cells[i].slices));
    absl::StatusOr<CellPrediction> p = samples::PredictCell(cells[i], *chip);
    if (!p.ok()) {
      progress.Finish();
      err << "systolic reproduce: " << cells[i].global_parameter_scale << "b on "
          << cells[i].slices << " slice(s): " << p.status().message() << "\n";
      return 1;
    }
    predictions.push_back(*std::move(p));
  }
  progress.Finish();
  if (json) {
    nlohmann::json j = {{"table", "maxtext-v5e"}, {"chip", chip->name()}};
    j["cells"] = nlohmann::json::array();
    for (const CellPrediction& p : predictions) j["cells"].push_back(ToJson(p));
    out << j.dump(2) << "\n";
    return 0;
  }
  out << absl::StrFormat("MaxText reference decoder on %s (published: v5e), timing-only\n",
                         chip->name());
  out << absl::StrFormat("%-6s %7s %6s %-14s %9s %10s %8s %10s %7s %7s\n", "model", "slices",
                         "chips", "topology", "step (s)", "TFLOP/s", "MFU", "published", "diff",
                         "wall");
  for (const CellPrediction& cell : predictions) {
    const samples::DecoderRunPrediction& p = cell.run;
    out << absl::StrFormat("%-6s %7d %6d %-14s %9.3f %10.1f %7.2f%% %9.2f%% %+6.1fpp %6.1fs\n",
                           absl::StrCat(cell.published.global_parameter_scale, "B"),
                           cell.published.slices, p.chips, p.topology, p.step_seconds,
                           p.tflops_per_chip, 100 * p.mfu, 100 * cell.published.mfu,
                           100 * (p.mfu - cell.published.mfu), p.wall_seconds);
  }
  return 0;
}

const CommandRegistration kRegistration({
    .name = "reproduce",
    .summary = "simulate a published table of TPU results (maxtext-v5e) beside its figures",
    .options = {{"model", "SIZE", "one model of the table: 16b, 32b, 64b or 128b"},
                {"slices", "N", "one slice count of the table (1 to 32)"},
                {"chip", "SPEC", "predict on another chip preset or spec file (default v5e)"},
                {"hlo-out", "DIR", "also write each cell's traced program as HLO text"},
                {"json", "", "print JSON"}},
    .positional_usage = "maxtext-v5e",
    .run = RunReproduce,
});

}  // namespace
}  // namespace systolic::cli
