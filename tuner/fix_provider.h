// The tuner's answer to a lint finding whose rule has a fix: a concrete setting (`fix.set`) or
// an objective (`fix.objective` = fit, maximize-batch, maximize-context), as edits on the file.
#pragma once

#include "lint/reader/framework_map.h"
#include "lint/rules/rule_engine.h"
#include "tuner/proposal.h"

namespace gpulint {

/// `maps` must outlive the provider. Make one per file: it remembers estimates of the file's
/// workloads for as long as it lives.
FixProvider MakeTunerFixProvider(const FrameworkMaps& maps, TunerOptions options);

/// The proposal a rule's fix asks for (no edits yet).
Proposal ProposalForRule(const FileAnalysis& analysis, const FrameworkMaps& maps, size_t workload,
                         const Rule& rule, const TunerOptions& options);

}  // namespace gpulint
