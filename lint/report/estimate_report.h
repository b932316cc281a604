// How estimates are shown: the JSON of architecture.md ("per_gpu" terms in GiB, usable, fits,
// KV tokens, assumptions) and a text form with a stacked bar per workload.
#pragma once

#include <string>

#include "lint/analysis/file_analysis.h"

namespace gpulint {

/// One workload's estimate as JSON text (an object), keys in a fixed order.
std::string EstimateJson(const Workload& workload, const WorkloadEstimate& estimate, int indent);

/// All workloads of a file as the "files" entry of `gpulint estimate --format json`.
std::string FileEstimateJson(const FileAnalysis& analysis, int indent);

/// The text report of a file: per workload a table of terms, a stacked bar, fits and margin,
/// KV capacity for serving, shared GPUs, and the assumptions. Prose lines (the verdict, each
/// assumption, a shared GPU) wrap at `columns` under their own indent; 0 leaves them whole
/// (a pipe or a file).
std::string FileEstimateText(const FileAnalysis& analysis, bool color, size_t columns = 0);

/// The Markdown form (pull-request comments): a verdict table and a per-GPU breakdown.
std::string FileEstimateMarkdown(const FileAnalysis& analysis);
/// Its parts, for reports over several files: the table's header, one row per workload, and
/// a table of terms per estimated workload.
std::string VerdictTableHeader();
std::string VerdictRows(const FileAnalysis& analysis);
std::string BreakdownMarkdown(const FileAnalysis& analysis);

}  // namespace gpulint
