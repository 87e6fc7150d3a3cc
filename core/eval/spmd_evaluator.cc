#include "core/eval/spmd_evaluator.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "core/eval/collective_rendezvous.h"
#include "core/eval/collectives.h"
#include "core/eval/evaluation_memory.h"

namespace systolic {

SpmdDeviceCounts RequiredDeviceCounts(const HloModule& module) {
  SpmdDeviceCounts counts{std::max<int64_t>(module.replica_count(), 1),
                          std::max<int64_t>(module.num_partitions(), 1)};
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) {
      if (!HloOpcodeIsCollective(i->opcode())) continue;
      int64_t needed = 1;
      for (const auto& group : i->replica_groups()) {
        for (int64_t id : group) needed = std::max(needed, id + 1);
      }
      for (const auto& [source, target] : i->source_target_pairs()) {
        needed = std::max({needed, source + 1, target + 1});
      }
      // Without groups, a gather or scatter's shapes give the shard count.
      const HloOpcode op = i->opcode();
      if (i->replica_groups().empty() && !i->dimensions().empty() && i->operand_count() > 0 &&
          (op == HloOpcode::kAllGather || op == HloOpcode::kAllGatherStart ||
           op == HloOpcode::kReduceScatter)) {
        const Shape& in = i->operand(0)->shape();
        const Shape* out = &i->shape();
        if (out->IsTuple() && out->tuple_shapes_size() > 0) {
          out = &out->tuple_shapes(out->tuple_shapes_size() - 1);
          if (out->IsTuple() && out->tuple_shapes_size() > 0) out = &out->tuple_shapes(0);
        }
        const int64_t d = i->dimensions(0);
        if (in.IsArray() && out->IsArray() && d < in.rank() && d < out->rank() &&
            in.dimensions(d) > 0 && out->dimensions(d) > 0) {
          const int64_t big = std::max(in.dimensions(d), out->dimensions(d));
          const int64_t small = std::min(in.dimensions(d), out->dimensions(d));
          if (big % small == 0) needed = std::max(needed, big / small);
        }
      }
      switch (eval::IdSpaceOf(*i)) {
        case eval::CollectiveIdSpace::kReplicas:
          counts.replicas = std::max(counts.replicas, needed);
          break;
        case eval::CollectiveIdSpace::kPartitions:
          counts.partitions = std::max(counts.partitions, needed);
          break;
        case eval::CollectiveIdSpace::kDevices:
          if (counts.replicas * counts.partitions < needed) {
            counts.partitions = (needed + counts.replicas - 1) / counts.replicas;
          }
          break;
      }
    }
  }
  return counts;
}

absl::StatusOr<std::vector<Literal>> EvaluateSpmd(const HloModule& module,
                                                  absl::Span<const std::vector<Literal>> args_per_device,
                                                  int64_t replicas, int64_t partitions,
                                                  const EvaluatorOptions& options) {
  if (replicas < 1 || partitions < 1) {
    return absl::InvalidArgumentError(absl::StrCat("cannot run ", replicas, " replicas x ",
                                                   partitions, " partitions"));
  }
  const int64_t devices = replicas * partitions;
  if (args_per_device.size() != 1 && int64_t(args_per_device.size()) != devices) {
    return absl::InvalidArgumentError(absl::StrCat("got arguments for ", args_per_device.size(),
                                                   " devices, need 1 or ", devices));
  }
  // Every device holds its own values at once.
  if (absl::Status fits = eval::CheckEvaluationFits(module, devices); !fits.ok()) return fits;
  eval::CollectiveRendezvous rendezvous(devices);
  std::vector<absl::StatusOr<Literal>> results;
  for (int64_t d = 0; d < devices; ++d) results.emplace_back(absl::UnknownError("not run"));
  // The order in which devices failed, to report the first cause rather than
  // the devices it brought down.
  std::mutex order_mu;
  std::vector<int64_t> failure_order;
  auto run = [&](int64_t d) {
    eval::DeviceContext device{d / partitions, d % partitions, replicas, partitions, &rendezvous};
    HloEvaluator evaluator(options, device);
    const std::vector<Literal>& args = args_per_device[args_per_device.size() == 1 ? 0 : d];
    results[d] = evaluator.Evaluate(module, args);
    if (!results[d].ok()) {
      std::lock_guard<std::mutex> lock(order_mu);
      failure_order.push_back(d);
    }
    rendezvous.DeviceFinished(d, results[d].status());
  };
  if (devices == 1) {
    run(0);
  } else {
    std::vector<std::thread> threads;
    threads.reserve(size_t(devices));
    for (int64_t d = 0; d < devices; ++d) threads.emplace_back(run, d);
    for (std::thread& t : threads) t.join();
  }
  if (!failure_order.empty()) {
    const int64_t d = failure_order.front();
    const absl::Status& s = results[d].status();
    if (devices == 1) return s;
    return absl::Status(s.code(), absl::StrCat("device ", d, " (replica ", d / partitions,
                                               ", partition ", d % partitions, "): ", s.message()));
  }
  std::vector<Literal> out;
  out.reserve(size_t(devices));
  for (auto& r : results) out.push_back(*std::move(r));
  return out;
}

}  // namespace systolic
