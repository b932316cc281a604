#include "tuner/apply.h"

#include "tuner/setting_edit.h"

namespace gpulint {

ProposalEdits EditsFor(const FileAnalysis& analysis, const FrameworkMaps& maps,
                       const Proposal& proposal) {
  ProposalEdits out;
  for (const Change& change : proposal.changes) {
    std::string reason;
    size_t workload = change.workload == kProposalWorkload ? proposal.workload : change.workload;
    if (auto edit = EditSetting(analysis, maps, workload, change.setting, change.after, &reason))
      out.edits.push_back(*edit);
    else
      out.not_applied.push_back(reason);
  }
  return out;
}

std::optional<Fix> AsFix(const FileAnalysis& analysis, const FrameworkMaps& maps,
                         const Proposal& proposal) {
  if (proposal.changes.empty()) return std::nullopt;
  ProposalEdits edits = EditsFor(analysis, maps, proposal);
  if (!edits.complete() || edits.edits.empty()) return std::nullopt;
  Fix fix;
  fix.description = proposal.summary;
  fix.edits = std::move(edits.edits);
  fix.safe = proposal.safe;
  return fix;
}

}  // namespace gpulint
