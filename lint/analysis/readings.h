// Flags whose meaning a team's own code decides. The generic map reads `--bf16` the way the HF
// Trainer does (mixed precision over fp32 weights); a hand-written trainer may load the model in
// bf16 instead, and the weights and AdamW states then take half. `--batch-size` may be each
// GPU's or the whole step's, and an optimizer the command line leaves out AdamW or an 8-bit one
// (a length flag has none: padded to it or capped at it, a batch peaks at it). Each [[reading]]
// of the map that applies is priced both ways: the estimate lists the two numbers, and where
// they fall on different sides of the GPU's memory the verdict is left open (rules that need
// the estimate do not fire) with a warning that says how to state the meaning
// (`# gpulint: dtype=bf16`). Where no one reading decides but all of them together do, the
// verdict is left open the same way. A value stated by a directive, gpulint.toml or --set is
// not a reading: it is judged as stated.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lint/analysis/workload_estimate.h"
#include "lint/reader/framework_map.h"

namespace gpulint {

/// States, on `workload`, the meanings a team wrote in gpulint.toml's [generic] (`stated`:
/// setting -> value, written at `where`) for the readings of its map that hold: a value is a
/// statement of a reading when it is one of the reading's two meanings (dtype = "bf16" for the
/// --bf16 reading, not for --fp16's) or names what a setting the command line leaves out is
/// (optimizer = "adafactor"). The reading then no longer holds, and the verdict is judged.
void ApplyStatedMeanings(const std::vector<ReadingSpec>& readings,
                         const std::map<std::string, std::string>& stated,
                         const std::string& where, Workload* workload);

/// Applies `readings` (the workload's map's [[reading]] tables) to `estimate`, an estimate of
/// `workload` that has a breakdown: assumption lines, and `reading_decides` with the setting in
/// `unknown_inputs` when a reading decides the verdict.
void JudgeReadings(const Workload& workload, const std::vector<ReadingSpec>& readings,
                   WorkloadEstimate* estimate);

/// A GPU named without its memory size ("A100", "--gres=gpu:a100:8") is priced on its smallest
/// variant; when `estimate` has a largest variant too and the two give different verdicts, the
/// verdict is left open the same way: a false out-of-memory error on the 80 GB card a cluster
/// calls "a100" costs more than the warning. Does nothing once a reading decides.
void JudgeGpuSize(const Workload& workload, WorkloadEstimate* estimate);

}  // namespace gpulint
