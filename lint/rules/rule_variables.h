// The variables rules read, and their values for a workload, a file, a shared GPU or an
// unresolved value. Settings use their canonical names (micro_batch); the rest are namespaced:
// model.*, gpu.*, est.*, workload.*, cluster.*, file.*, device.*, unresolved.*, config.*.
#pragma once

#include "lint/analysis/file_analysis.h"
#include "lint/rules/expression.h"

namespace gpulint {

/// Every variable a rule may read, with its type.
const ExprSchema& RuleSchema();

/// The per-file facts file-scope rules read (GPUs requested versus used).
struct FileFacts {
  double gpus_requested = -1;  ///< per node, from #SBATCH; -1 unknown
  double gpus_used = 0;        ///< distinct devices the workloads occupy
  double highest_device = -1;
  bool devices_assumed = false;
};
FileFacts ComputeFileFacts(const FileAnalysis& analysis);

ExprLookup WorkloadLookup(const FileAnalysis& analysis, size_t workload, double headroom);
ExprLookup FileLookup(const FileAnalysis& analysis, const FileFacts& facts, double headroom);
/// `load` stands for every device in `devices` (GPUs with the same workloads and the same peak
/// are reported once: "GPUs 0-7").
ExprLookup DeviceLookup(const FileAnalysis& analysis, const DeviceLoad& load,
                        const std::vector<int>& devices, double headroom);
ExprLookup UnresolvedLookup(const Unresolved& unresolved);
ExprLookup InvalidLookup(const InvalidValue& invalid);
ExprLookup NoticeLookup(const Notice& notice);

}  // namespace gpulint
