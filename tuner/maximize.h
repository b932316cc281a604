// --maximize batch and --maximize context: the largest value that fits the GPU with headroom,
// among the values the framework accepts. Memory grows with both, so each search is a binary
// search over the candidates, asking the estimator O(log n) times.
#pragma once

#include <map>
#include <string>

#include "lint/analysis/file_analysis.h"
#include "tuner/proposal.h"

namespace gpulint {

/// Training: the micro-batch per GPU (keeping the global batch through gradient accumulation
/// when the script sets one, and the divisibility Megatron, slime and verl assert); with
/// dynamic batching, the token budget per GPU. Serving: vLLM/SGLang max_num_seqs up to what the
/// KV cache holds at full length; a Hugging Face engine's batch.
/// `base`: changes already decided that every estimate includes (--fit combines them).
Proposal MaximizeBatch(const FileAnalysis& analysis, size_t workload, const TunerOptions& options,
                       const std::map<std::string, std::string>& base = {});

/// Training: max_seq_len (max_response_len in RL); serving: max_model_len. Never past the
/// model's max_position_embeddings.
Proposal MaximizeContext(const FileAnalysis& analysis, size_t workload,
                         const TunerOptions& options,
                         const std::map<std::string, std::string>& base = {});

}  // namespace gpulint
