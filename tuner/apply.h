// A proposal as edits of the script: one per changed setting, or the reason a setting cannot
// be rewritten (it comes from an environment variable, another file, ...).
#pragma once

#include <string>
#include <vector>

#include "lint/analysis/file_analysis.h"
#include "lint/core/finding.h"
#include "lint/reader/framework_map.h"
#include "tuner/proposal.h"

namespace gpulint {

struct ProposalEdits {
  std::vector<Edit> edits;
  std::vector<std::string> not_applied;  ///< one reason per change that cannot be written
  bool complete() const { return not_applied.empty(); }
};

ProposalEdits EditsFor(const FileAnalysis& analysis, const FrameworkMaps& maps,
                       const Proposal& proposal);

/// The proposal as a finding's fix (nullopt when it changes nothing or cannot be written in
/// full: half a change set could make things worse).
std::optional<Fix> AsFix(const FileAnalysis& analysis, const FrameworkMaps& maps,
                         const Proposal& proposal);

}  // namespace gpulint
