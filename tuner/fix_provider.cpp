#include "tuner/fix_provider.h"

#include <fmt/format.h>

#include "tuner/apply.h"
#include "tuner/fit.h"
#include "tuner/maximize.h"
#include "tuner/what_if.h"

namespace gpulint {

Proposal ProposalForRule(const FileAnalysis& analysis, const FrameworkMaps& maps, size_t workload,
                         const Rule& rule, const TunerOptions& options) {
  if (!rule.fix_objective.empty()) {
    Proposal p = rule.fix_objective == "fit"              ? Fit(analysis, maps, workload, options)
                 : rule.fix_objective == "maximize-batch" ? MaximizeBatch(analysis, workload, options)
                                                          : MaximizeContext(analysis, workload, options);
    p.safe = p.safe && rule.fix_safe;  // the rule decides whether `gpulint fix` applies it
    return p;
  }
  Proposal p;
  p.workload = workload;
  p.objective = "set";
  p.safe = rule.fix_safe;
  const Workload& w = analysis.read.config.workloads[workload];
  for (const auto& [name, value] : rule.fix_set) {
    const Setting* current = w.Find(name);
    p.changes.push_back({name, current ? current->value.ToString() : "", value});
    p.summary += fmt::format("{}set {} = {}", p.summary.empty() ? "" : ", ", name, value);
  }
  return p;
}

FixProvider MakeTunerFixProvider(const FrameworkMaps& maps, TunerOptions options) {
  // The rules on one file ask for fixes on the same workloads: one memo for all of them.
  if (!options.memo) options.memo = std::make_shared<WhatIfMemo>();
  options.alternatives = false;  // a finding shows the cheapest fix only
  options.maps = &maps;
  return [&maps, options](const FileAnalysis& analysis, size_t workload,
                          const Rule& rule) -> std::optional<Fix> {
    return AsFix(analysis, maps, ProposalForRule(analysis, maps, workload, rule, options));
  };
}

}  // namespace gpulint
