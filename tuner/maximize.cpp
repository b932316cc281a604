#include "tuner/maximize.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimator/units.h"
#include "tuner/bounds.h"
#include "tuner/candidates.h"
#include "tuner/what_if.h"

namespace gpulint {
namespace {

std::string Number(double value) { return fmt::format("{}", static_cast<long>(value)); }

bool IsWritten(const Setting* setting) {
  return setting && setting->origin != Origin::kFrameworkDefault &&
         setting->origin != Origin::kCommandLine;
}

Proposal Start(const WhatIf& what_if, size_t workload, const char* objective) {
  Proposal p;
  p.workload = workload;
  p.objective = objective;
  p.limit_bytes = what_if.limit_bytes();
  if (what_if.estimate().breakdown) p.total_before_bytes = what_if.estimate().breakdown->total_high;
  p.total_after_bytes = p.total_before_bytes;
  return p;
}

// The global batch a framework divides into micro-batches: as written, or derived from a
// rollout split into optimizer steps (slime's --num-steps-per-rollout: rollout prompts x
// samples per prompt over the steps, slime/utils/arguments.py:1971-1972).
// nullopt where neither says, where the framework rounds the accumulation up instead of
// asserting the product (ms-swift's default), or the count is past what a long holds exactly.
std::optional<double> GlobalBatch(const Workload& w) {
  if (w.String("grad_accum_rounding").value_or("down") == "up") return std::nullopt;
  std::optional<double> global = w.Number("global_batch");
  auto steps = w.Number("steps_per_rollout"), prompts = w.Number("rollout_batch");
  if (!global && steps && prompts && *steps >= 1)
    global = std::floor(*prompts * w.Number("n_samples").value_or(1) / *steps);
  if (!global || !(*global >= 1 && *global <= 0x1p53)) return std::nullopt;
  return global;
}

// Common exits: the estimate is missing, or nothing needs to change.
bool CannotSearch(const WhatIf& what_if, Proposal* p) {
  const WorkloadEstimate& e = what_if.estimate();
  if (!e.breakdown) {
    p->note = e.skipped.empty() ? "no estimate for this workload" : e.skipped;
    return true;
  }
  if (!e.unknown_inputs.empty()) {
    p->note = fmt::format("the estimate needs {} that the script leaves unknown",
                          e.unknown_inputs.front());
    return true;
  }
  if (what_if.limit_bytes() <= 0) {
    p->note = e.usable_bytes > 0
                  ? "what else runs on its GPUs leaves it no memory: try gpulint fix --fit"
                  : "no GPU declared";
    return true;
  }
  return false;
}

// "; peak 31.2 -> 71.0 GiB per GPU, ..." for the proposal's changes.
std::string Tail(const WhatIf& what_if, const Proposal& p) {
  std::map<std::string, std::string> values;
  for (const Change& c : p.changes) values[c.setting] = c.after;
  return "; " + what_if.Outcome(values);
}

// Sets `name` to candidates[best] when it differs from `current`; the summary names the change.
void Settle(const WhatIf& what_if, const std::vector<long>& candidates, long best, double current,
            const std::string& name, Proposal* p) {
  if (best < 0) {
    p->note = fmt::format("no {} fits, not even {}: try gpulint fix --fit", name,
                          candidates.empty() ? 1 : candidates.front());
    return;
  }
  long value = candidates[static_cast<size_t>(best)];
  // Between candidates (a length not a multiple of 1024) a value that fits stays.
  if (value < static_cast<long>(current) && current > 0 && current <= candidates.back() &&
      what_if.Fits({{name, Number(current)}}))
    value = static_cast<long>(current);
  if (value == static_cast<long>(current)) {
    p->note = fmt::format("{} {} is already the largest that fits", name, value);
    return;
  }
  p->changes.push_back({name, Number(current), Number(static_cast<double>(value))});
  p->total_after_bytes = what_if.TotalBytes({{name, Number(static_cast<double>(value))}})
                             .value_or(p->total_before_bytes);
  p->summary = fmt::format("{} {} -> {}", name, Number(current), value) + Tail(what_if, *p);
}

Proposal TrainingBatch(const WhatIf& what_if, size_t index, const TunerOptions& options) {
  Proposal p = Start(what_if, index, "maximize-batch");
  if (CannotSearch(what_if, &p)) return p;
  const Workload& w = what_if.workload();
  // Dynamic batching packs sequences up to a token budget: that budget is the batch.
  if (w.Bool("dynamic_batch").value_or(false) && w.Number("max_tokens_per_gpu")) {
    double tokens = *w.Number("max_tokens_per_gpu");
    std::vector<long> candidates = Multiples(1024, 1 << 20);
    if (options.pow2) candidates = PowersOfTwo(candidates);
    // The budget holds the longest sequence, or the framework refuses the batch.
    if (options.maps)
      if (auto least = LowerBound(*options.maps, w, "max_tokens_per_gpu")) {
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [&](long v) { return v < *least; }),
                         candidates.end());
        if (candidates.empty() || candidates.front() != static_cast<long>(*least))
          candidates.insert(candidates.begin(), static_cast<long>(*least));
      }
    long best = LargestFitting(candidates, [&](long v) {
      return what_if.Fits({{"max_tokens_per_gpu", Number(static_cast<double>(v))}});
    });
    Settle(what_if, candidates, best, tokens, "max_tokens_per_gpu", &p);
    return p;
  }
  long micro = static_cast<long>(w.Number("micro_batch").value_or(1));
  double parallel = w.Number("tp").value_or(1) * w.Number("pp").value_or(1) *
                    w.Number("cp").value_or(1);
  long dp = std::max(1L, static_cast<long>(std::max(w.gpus, 1) / parallel));
  std::vector<long> candidates;
  std::string constraint;
  long accumulation_product = 0;  // micro x grad_accum kept constant (HF-style trainers)
  if (auto mini = w.Number("ppo_mini_batch")) {
    // verl: each GPU's share of a PPO mini-batch must be whole micro-batches.
    long per_gpu = static_cast<long>(*mini * w.Number("n_samples").value_or(1)) / dp;
    candidates = Divisors(std::max(1L, per_gpu));
    constraint = fmt::format("divides verl's {} sequences per GPU per mini-batch", per_gpu);
  } else if (auto global = GlobalBatch(w)) {
    // Megatron, slime and verl's SFT trainer take a global batch (written or their default)
    // and derive the accumulation steps: global = micro x data-parallel x steps.
    // global % (micro x dp) == 0: dp divides the global batch and micro its share.
    const long batch = static_cast<long>(*global);
    if (batch % dp == 0) candidates = Divisors(batch / dp);
    constraint = fmt::format("keeps the global batch {} a multiple of micro x {} data-parallel",
                             Number(*global), dp);
  } else if (IsWritten(w.Find("grad_accum")) || options.keep_global_batch) {
    long accumulation = static_cast<long>(w.Number("grad_accum").value_or(1));
    accumulation_product = micro * accumulation;
    candidates = Divisors(accumulation_product);
    constraint = fmt::format("keeps micro x accumulation = {}", accumulation_product);
    // An optimizer that steps inside backward frees each gradient as soon as it is made, so
    // nothing is left to accumulate: torchtune refuses accumulation with it
    // (recipes/full_finetune_single_device.py:157-158 at bd2a0fc7 `if self.optimizer_in_bwd and
    // self._gradient_accumulation_steps > 1:` `raise RuntimeError(`; the same in its other
    // recipes). The whole batch is then one micro-batch.
    if (w.Bool("optimizer_in_bwd").value_or(false)) {
      candidates = {accumulation_product};
      constraint = "optimizer_in_bwd: no accumulation";
    }
  } else {
    // Free: grow until it stops fitting, then search below.
    long upper = 1;
    while (upper < kLargestCandidate &&
           what_if.Fits({{"micro_batch", Number(static_cast<double>(upper))}}))
      upper *= 2;
    candidates = Multiples(1, upper);
  }
  if (options.pow2) candidates = PowersOfTwo(candidates);
  // A framework that takes no larger micro-batch with the job's other settings (axolotl's ring
  // attention over packed samples: one sequence).
  if (auto most = w.Number("micro_batch_max")) {
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](long m) { return m > *most; }),
                     candidates.end());
    if (candidates.empty()) {
      p.note = fmt::format("its framework takes no micro-batch above {} here", Number(*most));
      return p;
    }
  }
  // A trainer that samples a group of completions per prompt (TRL's GRPO) takes whole groups
  // only: micro x data-parallel x accumulation steps a multiple of the group.
  if (w.Bool("batch_whole_groups").value_or(false) && accumulation_product == 0) {
    const long group = std::max(1L, static_cast<long>(w.Number("n_samples").value_or(1)));
    const long steps = std::max(1L, static_cast<long>(w.Number("grad_accum").value_or(1)));
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](long m) { return (m * dp * steps) % group != 0; }),
                     candidates.end());
    constraint = fmt::format("keeps micro x {} data-parallel x {} steps a multiple of the {} "
                             "completions per prompt",
                             dp, steps, group);
    if (candidates.empty()) {
      p.note = fmt::format("no micro batch that {} fits", constraint);
      return p;
    }
  }
  // A micro-batch that keeps micro x accumulation is judged with its accumulation: more steps
  // keep gradients across micro-batches.
  auto values = [&](long m) {
    std::map<std::string, std::string> v = {{"micro_batch", Number(static_cast<double>(m))}};
    if (accumulation_product > 0)
      v["grad_accum"] = Number(static_cast<double>(accumulation_product / m));
    return v;
  };
  long best = LargestFitting(candidates, [&](long m) { return what_if.Fits(values(m)); });
  Settle(what_if, candidates, best, static_cast<double>(micro), "micro_batch", &p);
  if (!p.changes.empty() && accumulation_product > 0) {
    long m = candidates[static_cast<size_t>(best)];
    long accumulation = accumulation_product / m;
    p.changes.push_back({"grad_accum", Number(w.Number("grad_accum").value_or(1)),
                         Number(static_cast<double>(accumulation))});
    p.total_after_bytes = what_if.TotalBytes(values(m)).value_or(p.total_before_bytes);
    p.summary = fmt::format("micro_batch {} -> {}, grad_accum {} -> {} (global batch kept)",
                            micro, m, Number(w.Number("grad_accum").value_or(1)), accumulation) +
                Tail(what_if, p);
  } else if (!p.changes.empty() && !constraint.empty()) {
    p.summary += fmt::format(" ({})", constraint);
  }
  return p;
}

Proposal ServingBatch(const WhatIf& what_if, size_t index, const TunerOptions& options) {
  Proposal p = Start(what_if, index, "maximize-batch");
  if (CannotSearch(what_if, &p)) return p;
  const Workload& w = what_if.workload();
  const WorkloadEstimate& e = what_if.estimate();
  if (e.engine_kind == est::Engine::kHf) {
    long batch = static_cast<long>(w.Number("micro_batch").value_or(1));
    std::vector<long> candidates = Multiples(1, 1024);
    if (options.pow2) candidates = PowersOfTwo(candidates);
    long best = LargestFitting(candidates, [&](long b) {
      return what_if.Fits({{"micro_batch", Number(static_cast<double>(b))}});
    });
    Settle(what_if, candidates, best, static_cast<double>(batch), "micro_batch", &p);
    return p;
  }
  // vLLM and SGLang claim their memory up front; what a larger batch needs is KV cache.
  const est::Breakdown& b = *e.breakdown;
  if (b.kv_cache_tokens <= 0 || e.max_model_len <= 0) {
    p.note = "the KV cache holds no full-length sequence: gpulint fix --fit";
    return p;
  }
  long capacity = static_cast<long>(b.kv_cache_tokens / e.max_model_len);
  if (options.pow2) capacity = capacity > 0 ? 1L << static_cast<int>(std::log2(capacity)) : 0;
  long current = static_cast<long>(w.Number("max_num_seqs").value_or(256));
  if (capacity < 1) {
    p.note = "the KV cache holds no full-length sequence: gpulint fix --fit";
  } else if (current >= capacity) {
    p.note = fmt::format("max_num_seqs {} is already at least the {} full-length sequences the "
                         "KV cache holds",
                         current, capacity);
  } else {
    p.changes.push_back({"max_num_seqs", Number(static_cast<double>(current)),
                         Number(static_cast<double>(capacity))});
    p.summary = fmt::format("max_num_seqs {} -> {}: the KV cache holds {:.0f} tokens, {} "
                            "sequences of {}",
                            current, capacity, b.kv_cache_tokens, capacity,
                            Number(e.max_model_len));
  }
  return p;
}

}  // namespace

Proposal MaximizeBatch(const FileAnalysis& analysis, size_t workload,
                       const TunerOptions& options,
                       const std::map<std::string, std::string>& base) {
  WhatIf what_if(analysis, workload, options.headroom, base, options.memo);
  if (what_if.estimate().kind == WorkloadEstimate::Kind::kServing)
    return ServingBatch(what_if, workload, options);
  return TrainingBatch(what_if, workload, options);
}

Proposal MaximizeContext(const FileAnalysis& analysis, size_t workload,
                         const TunerOptions& options,
                         const std::map<std::string, std::string>& base) {
  WhatIf what_if(analysis, workload, options.headroom, base, options.memo);
  Proposal p = Start(what_if, workload, "maximize-context");
  if (CannotSearch(what_if, &p)) return p;
  const Workload& w = what_if.workload();
  const WorkloadEstimate& e = what_if.estimate();
  long positions = e.model ? static_cast<long>(e.model->arch.max_position_embeddings) : 0;
  if (positions <= 0) {
    p.note = "the model's max_position_embeddings is not known";
    return p;
  }
  const bool serving = e.kind == WorkloadEstimate::Kind::kServing;
  std::string name = serving                     ? "max_model_len"
                     : w.Find("max_response_len") ? "max_response_len"
                                                  : "max_seq_len";
  if (serving && e.engine_kind == est::Engine::kHf) {
    p.note = "a Hugging Face engine has no context setting gpulint can raise";
    return p;
  }
  // An RL job's engines take their length from the job's own (OpenRLHF's max_len, verl's
  // prompt + response), or their map bounds it by the job's: it moves with the training
  // workload's context, not on its own.
  const bool bounded = options.maps && Bounded(*options.maps, w, "max_model_len");
  if (serving && w.role == "rollout" && (bounded || !w.Find("max_model_len")) &&
      (w.Find("max_seq_len") || w.Find("max_response_len"))) {
    p.note = "its length is the job's sequence length: maximize the training workload's context";
    return p;
  }
  // A response shares the context with its prompt: the longest the script allows, or where
  // nothing truncates prompts, the length the estimate assumed for them (a response of the
  // whole context would leave the engine no room for any prompt).
  long limit = positions;
  if (name == "max_response_len")
    limit -= static_cast<long>(w.Number("max_prompt_len").value_or(e.prompt_tokens));
  double current = serving ? e.max_model_len : w.Number(name).value_or(0);
  std::vector<long> candidates = Multiples(1024, limit);
  if (limit % 1024 != 0) candidates.push_back(limit);  // the model's own limit
  if (options.pow2) candidates = PowersOfTwo(candidates);
  // A length fits when its workload fits with the bounds it moves (a token budget), and so
  // does every other workload of the command whose bounds move (a rollout's max_model_len).
  const RunConfig& config = analysis.read.config;
  auto changes_for = [&](long length) {
    std::map<std::string, std::string> values = {{name, Number(static_cast<double>(length))}};
    std::vector<Change> bounds;
    if (options.maps) bounds = BoundsAlongside(*options.maps, config, workload, values);
    return std::make_pair(values, bounds);
  };
  auto own_values = [&](const std::map<std::string, std::string>& values,
                        const std::vector<Change>& bounds) {
    std::map<std::string, std::string> own = values;
    for (const Change& c : bounds)
      if (c.workload == workload) own[c.setting] = c.after;
    return own;
  };
  auto fits = [&](long length) {
    auto [values, bounds] = changes_for(length);
    if (!what_if.Fits(own_values(values, bounds))) return false;
    std::map<size_t, std::map<std::string, std::string>> others;
    for (const Change& c : bounds)
      if (c.workload != workload) others[c.workload][c.setting] = c.after;
    for (auto& [other, other_values] : others) {
      for (const auto& [setting, text] : values)
        if (config.workloads[other].Find(setting)) other_values[setting] = text;
      if (!WhatIf(analysis, other, options.headroom, {}, options.memo).Fits(other_values))
        return false;
    }
    return true;
  };
  long best = LargestFitting(candidates, fits);
  Settle(what_if, candidates, best, current, name, &p);
  if (p.changes.empty()) return p;
  auto [values, bounds] = changes_for(std::stol(p.changes.front().after));
  if (bounds.empty()) return p;
  const std::map<std::string, std::string> own = own_values(values, bounds);
  std::string moved;
  for (Change c : bounds) {
    moved += fmt::format(", {} {} -> {}", c.setting, c.before, c.after);
    if (c.workload == workload)
      c.workload = kProposalWorkload;
    else
      moved += fmt::format(" ({})", config.workloads[c.workload].role);
    p.changes.push_back(c);
  }
  p.total_after_bytes = what_if.TotalBytes(own).value_or(p.total_before_bytes);
  p.summary = fmt::format("{} {} -> {}{}; {}", name, p.changes.front().before,
                          p.changes.front().after, moved, what_if.Outcome(own));
  return p;
}

}  // namespace gpulint
