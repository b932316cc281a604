// Directives in comments: #SBATCH options (the GPUs a SLURM job asks for) and
// `# gpulint: key=value` declarations (gpu, model, disable=...).
#pragma once

#include <string>
#include <vector>

#include "lint/core/run_config.h"
#include "lint/reader/shell_evaluator.h"
#include "lint/reader/source_map.h"

namespace gpulint {

/// Reads #SBATCH lines of the leading comment block of `file` (sbatch stops at the first
/// command) into `cluster`, and `# gpulint:` lines anywhere into `directives`.
void ReadDirectives(const std::vector<CommentRecord>& comments, int file, size_t first_command,
                    const SourceMap& sources, Cluster* cluster,
                    std::map<std::string, std::string>* directives,
                    std::map<std::string, SourceSpan>* directive_spans,
                    std::vector<ReaderNote>* notes);

}  // namespace gpulint
