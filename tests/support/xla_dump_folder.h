// A dump folder in XLA's naming (what `--xla_dump_to=DIR
// --xla_dump_hlo_pass_re=.*` writes), made by running the project's own
// passes on small modules and writing the module after each of them: the
// stages really change (a multiply by one simplified away, a dead op
// removed, elementwise ops fused), beside the files XLA writes that are not
// HLO text, an execution snapshot, an odd name and a truncated pass file.
#pragma once

#include <string>
#include <vector>

namespace systolic::testing {

struct XlaDumpFolderContents {
  // module_0000.jit_mlp.1: before optimizations, six passes (one unchanged),
  // after optimizations for cpu.
  std::string mlp_module = "jit_mlp.1";
  std::vector<std::string> mlp_passes;  // the snapshots' pass names, in order
  std::string mlp_snapshot_file;        // its execution snapshot's name
  // module_0001.jit_loss: before optimizations and sm_8.0_gpu after
  // optimizations only (its passes were not dumped).
  std::string loss_module = "jit_loss";
  // module_0002.jit_broken: a pass file cut off in the middle.
  std::string broken_module = "jit_broken";
  std::string truncated_file;
  // Files that are not HLO text stages, and the snapshot of module_0003,
  // which has no HLO text.
  std::vector<std::string> skipped_files;
};

// Writes the folder at `folder` (created; emptied first if it exists).
XlaDumpFolderContents WriteXlaDumpFolder(const std::string& folder);

}  // namespace systolic::testing
