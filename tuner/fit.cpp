#include "tuner/fit.h"

#include <fmt/format.h>

#include <algorithm>

#include "estimator/units.h"
#include "tuner/maximize.h"
#include "tuner/requirements.h"
#include "tuner/what_if.h"

namespace gpulint {
namespace {

struct Option {
  int cost = 0;                 // lower is cheaper
  std::string what;             // "enable gradient checkpointing"
  std::string why;              // "same gradients, about a third more compute"
  std::vector<Change> changes;
  double total_bytes = 0;
  bool safe = false;
};

// Whether the framework has a flag or key for `setting` (otherwise the change cannot be
// written into the script).
bool Expressible(const FrameworkMaps& maps, const Workload& w, const std::string& setting) {
  if (w.Find(setting) && w.Find(setting)->origin != Origin::kFrameworkDefault) return true;
  const FrameworkMap* map = maps.Find(w.framework);
  if (!map) return false;
  for (const auto& [flag, spec] : map->flags)
    if (spec.setting == setting) return true;
  for (const auto& [key, spec] : map->keys)
    if (spec.setting == setting) return true;
  return false;
}

std::string Current(const Workload& w, const std::string& setting) {
  const Setting* s = w.Find(setting);
  return s ? s->value.ToString() : "";
}

// Adds `changes` as an option when the workload fits with them.
void Try(const WhatIf& what_if, int cost, std::string what, std::string why,
         std::vector<Change> changes, bool safe, std::vector<Option>* options) {
  std::map<std::string, std::string> values;
  for (const Change& c : changes) values[c.setting] = c.after;
  if (!what_if.Fits(values)) return;
  Option option{cost, std::move(what), std::move(why), std::move(changes), 0, safe};
  option.total_bytes = what_if.TotalBytes(values).value_or(0);
  options->push_back(std::move(option));
}

// Turns a maximize proposal made under `base` into an option.
void FromMaximize(const Proposal& proposal, const std::vector<Change>& base, int cost,
                  const std::string& what, const std::string& why, bool must_shrink,
                  std::vector<Option>* options) {
  if (proposal.changes.empty()) return;
  const Change& main = proposal.changes.front();
  if (must_shrink && std::stod(main.after) >= std::stod(main.before.empty() ? "1" : main.before))
    return;
  Option option{cost, what, why, base, proposal.total_after_bytes, false};
  option.changes.insert(option.changes.end(), proposal.changes.begin(), proposal.changes.end());
  options->push_back(std::move(option));
}

std::string Describe(const std::vector<Change>& changes) {
  std::string out;
  for (const Change& c : changes)
    out += fmt::format("{}{} {} -> {}", out.empty() ? "" : ", ", c.setting,
                       c.before.empty() ? "(not set)" : c.before, c.after);
  return out;
}

}  // namespace

Proposal Fit(const FileAnalysis& analysis, const FrameworkMaps& maps, size_t index,
             const TunerOptions& given) {
  // The searches below share their estimates: each maximize under a base asks again for values
  // the others have asked for.
  TunerOptions tuner = given;
  if (!tuner.memo) tuner.memo = std::make_shared<WhatIfMemo>();
  tuner.maps = &maps;
  WhatIf what_if(analysis, index, tuner.headroom, {}, tuner.memo);
  const Workload& w = what_if.workload();
  const WorkloadEstimate& e = what_if.estimate();
  Proposal p;
  p.workload = index;
  p.objective = "fit";
  p.limit_bytes = what_if.limit_bytes();
  // Colocated engines that hold their weights and KV cache through the update (OpenRLHF without
  // --vllm.enable_sleep, TRL's colocated vLLM without vllm_enable_sleep_mode) and whose
  // framework can put them to sleep: asleep, they leave the update the GPU.
  const auto& workloads = analysis.read.config.workloads;
  std::vector<Change> sleep;
  for (size_t j : what_if.held_engines())
    if (Expressible(maps, workloads[j], "engine_sleeps"))
      sleep.push_back({"engine_sleeps", Current(workloads[j], "engine_sleeps"), "true", j});
  const bool can_sleep = !sleep.empty() && sleep.size() == what_if.held_engines().size() &&
                         e.kind != WorkloadEstimate::Kind::kServing;
  WhatIf asleep(analysis, index, tuner.headroom, {}, tuner.memo, /*engines_asleep=*/true);
  if (!e.breakdown || !e.unknown_inputs.empty() ||
      (p.limit_bytes <= 0 && !(can_sleep && asleep.limit_bytes() > 0))) {
    p.note = !e.breakdown ? (e.skipped.empty() ? "no estimate" : e.skipped)
             : p.limit_bytes <= 0
                 ? (e.usable_bytes > 0 ? "what else runs on its GPUs leaves it no memory"
                                       : "no GPU declared")
                 : "the estimate needs values the script leaves unknown";
    return p;
  }
  p.total_before_bytes = p.total_after_bytes = e.breakdown->total_high;
  if (what_if.Fits({})) {
    // An engine that claims a fraction of the GPU is judged against its own budget.
    const double allowed = e.ClaimsMemoryFraction() ? e.usable_bytes : p.limit_bytes;
    p.note = fmt::format("fits already ({:.1f} GiB of {:.1f} allowed)",
                         est::BytesToGib(p.total_before_bytes), est::BytesToGib(allowed));
    return p;
  }

  std::vector<Option> options;
  // Without alternatives only the cheapest option matters: one costlier than an option already
  // found is not searched (a search is dozens of estimates).
  auto worth = [&](int cost) {
    if (tuner.alternatives || options.empty()) return true;
    for (const Option& o : options)
      if (o.cost < cost) return false;
    return true;
  };
  const bool serving = e.kind == WorkloadEstimate::Kind::kServing;
  // Sleep mode changes nothing the job computes; each step reloads the engine's weights (seconds
  // against a rollout's minutes), so it is tried first.
  if (can_sleep && asleep.Fits({}))
    options.push_back({0, "sleep the colocated rollout engine during the update",
                       "the same job; the engine frees its weights and KV cache while the trainer "
                       "updates and reloads them for the next rollout",
                       sleep, what_if.TotalBytes({}).value_or(0), true});
  if (!serving) {
    // A Megatron-core model reads its own recompute switch, not grad_ckpt (verl's Megatron
    // workers never read enable_gradient_checkpointing): there checkpointing is selective
    // recompute, the core attention's activations recomputed in backward, which needs no other
    // flag (full recompute also needs a method and a layer count).
    const bool megatron = w.String("trainer_style").value_or("") == "megatron";
    const std::string ckpt_setting = megatron ? "recompute" : "grad_ckpt";
    const std::string ckpt_value = megatron ? "selective" : "true";
    const std::string ckpt_what =
        megatron ? "selective activation recompute" : "enable gradient checkpointing";
    const Setting* recompute = w.Find("recompute");
    bool ckpt_on = w.Bool("grad_ckpt").value_or(false) ||
                   (recompute && recompute->value.ToString() != "none" &&
                    !recompute->value.ToString().empty());
    std::vector<Change> ckpt = {{ckpt_setting, Current(w, ckpt_setting), ckpt_value}};
    if (!ckpt_on && Expressible(maps, w, ckpt_setting) && worth(1))
      Try(what_if, 1, ckpt_what,
          megatron ? "the same gradients; attention's activations recomputed in backward"
                   : "the same gradients for about a third more compute",
          ckpt, true, &options);
    // Megatron's full recompute keeps one checkpoint per layer and recomputes the layer in
    // backward, where selective recompute keeps everything but attention's core; the map adds
    // the method and layer count Megatron-core needs beside it ([[requires]]).
    const std::string granularity = recompute ? recompute->value.ToString() : "";
    if (megatron && granularity != "full" && Expressible(maps, w, "recompute") &&
        Expressible(maps, w, "recompute_method") && worth(2))
      Try(what_if, 2, "full activation recompute",
          "the same gradients; every layer recomputed in backward, about a third more compute",
          {{"recompute", Current(w, "recompute"), "full"}}, true, &options);
    // A smaller micro-batch keeps the global batch through more accumulation steps.
    TunerOptions keep = tuner;
    keep.keep_global_batch = true;
    if (worth(2))
      FromMaximize(MaximizeBatch(analysis, index, keep), {}, 2, "lower the micro-batch",
                   "the same global batch in more accumulation steps (slower)", true, &options);
    if (!ckpt_on && Expressible(maps, w, ckpt_setting) && worth(3))
      FromMaximize(MaximizeBatch(analysis, index, keep, {{ckpt_setting, ckpt_value}}), ckpt, 3,
                   ckpt_what + " and lower the micro-batch",
                   "the same gradients in more, slower steps", true, &options);
    // Sequence parallelism (Ulysses, context parallel) splits each sequence's activations.
    if (Expressible(maps, w, "cp") && e.model && worth(4)) {
      long cp = static_cast<long>(w.Number("cp").value_or(1));
      // Each rank of the split takes whole KV heads: ms-swift's Ulysses group is gcd(KV heads,
      // size) and the rest becomes ring attention, which it refuses without padding-free
      // batches and flash attention (swift/sequence_parallel/sequence_parallel.py:344-346,
      // 651-655, 373-375 at 3602360a); a size that divides the KV heads (and so the query heads)
      // is pure Ulysses everywhere.
      long heads = e.model->arch.num_kv_heads > 0 ? e.model->arch.num_kv_heads
                                                 : e.model->arch.num_attention_heads;
      // The sequence split shares the GPUs with tensor and pipeline parallelism: TP x PP x CP
      // must divide them (or the framework refuses the layout, GL204).
      const long model_parallel = static_cast<long>(w.Number("tp").value_or(1) *
                                                    w.Number("pp").value_or(1));
      const long gpus = std::max(w.gpus, 1);
      for (long next = cp * 2; next * model_parallel <= gpus; next *= 2) {
        if (heads % next != 0 || gpus % (next * model_parallel) != 0) continue;
        std::string size = fmt::format("{}", next);
        std::vector<Change> split = {{"cp", Current(w, "cp"), size}};
        Try(what_if, 4, fmt::format("sequence parallelism over {} GPUs", next),
            "each sequence split over GPUs (more communication, fewer data-parallel ranks)", split,
            false, &options);
        if (worth(5))
          FromMaximize(
              MaximizeBatch(analysis, index, keep, {{"cp", size}}), split, 5,
              fmt::format("sequence parallelism over {} GPUs and a smaller micro-batch", next),
              "each sequence split over GPUs, the global batch in more steps", true, &options);
        if (!ckpt_on && Expressible(maps, w, ckpt_setting) && worth(6)) {
          std::vector<Change> both = split;
          both.insert(both.end(), ckpt.begin(), ckpt.end());
          FromMaximize(MaximizeBatch(analysis, index, keep, {{"cp", size}, {ckpt_setting, ckpt_value}}),
                       both, 6,
                       fmt::format("checkpointing, sequence parallelism over {} GPUs and a smaller "
                                   "micro-batch",
                                   next),
                       "the same gradients in more, slower steps with sequences split over GPUs",
                       true, &options);
        }
      }
    }
    if (auto stage = w.Number("zero_stage"); stage && *stage < 3 && worth(4))
      for (int next = static_cast<int>(*stage) + 1; next <= 3; ++next)
        Try(what_if, 4, fmt::format("ZeRO stage {}", next),
            "more sharding over the data-parallel GPUs (more communication)",
            {{"zero_stage", Current(w, "zero_stage"), fmt::format("{}", next)}}, false, &options);
    // Megatron's distributed optimizer shards the fp32 main params and Adam states over the
    // data-parallel ranks; the math is the same, its checkpoints are laid out differently.
    if (megatron && !w.Bool("use_distributed_optimizer").value_or(false) &&
        Expressible(maps, w, "use_distributed_optimizer") && worth(4))
      Try(what_if, 4, "the distributed optimizer",
          "optimizer states sharded over the data-parallel GPUs (its checkpoints differ)",
          {{"use_distributed_optimizer", Current(w, "use_distributed_optimizer"), "true"}}, false,
          &options);
    // Megatron's optimizer in CPU memory (HybridDeviceOptimizer): the fp32 main parameters and
    // Adam's states leave the GPU; every step copies gradients out and parameters back.
    if (megatron && !w.Find("offload") && Expressible(maps, w, "offload") &&
        Expressible(maps, w, "use_precision_aware_optimizer") && worth(6))
      Try(what_if, 6, "the optimizer in CPU memory",
          "the same math; main parameters and Adam's states on the CPU, slower steps",
          {{"offload", "", "optimizer"}}, false, &options);
    if (worth(7))
      FromMaximize(MaximizeContext(analysis, index, tuner), {}, 7, "shorter sequences",
                   "longer samples are truncated", true, &options);
    std::string optimizer = w.String("optimizer").value_or("adamw");
    // Not for Megatron-core: its --optimizer takes adam, sgd, muon, lion, soap
    // (megatron/training/arguments.py:2913-2914), no bitsandbytes optimizer.
    if ((optimizer == "adamw" || optimizer == "adam") && !megatron &&
        Expressible(maps, w, "optimizer") && worth(5))
      Try(what_if, 5, "an 8-bit AdamW (bitsandbytes)",
          "optimizer states in 8 bits: a quarter of the memory, slightly different numerics",
          {{"optimizer", Current(w, "optimizer"), "adamw_8bit"}}, false, &options);
  } else if (e.ClaimsMemoryFraction()) {
    if (e.gpu && e.gpu->fp8_support && w.String("kv_cache_dtype").value_or("auto") == "auto" &&
        Expressible(maps, w, "kv_cache_dtype") && worth(2))
      Try(what_if, 2, "an fp8 KV cache", "twice the tokens per GiB, slightly lower accuracy",
          {{"kv_cache_dtype", Current(w, "kv_cache_dtype"), "fp8"}}, false, &options);
    if (worth(4))
      FromMaximize(MaximizeContext(analysis, index, tuner), {}, 4, "a shorter context",
                   "requests longer than it are refused", true, &options);
  }
  if (options.empty()) {
    // Judged at the data's shortest (its state alone likely overfills the GPU), a change that
    // fits short data may still leave long data to decide: no verdict to offer it on.
    p.note = e.size_from_data
                 ? "no single change gpulint knows makes it fit whatever the data's length; with "
                   "the length stated ('# gpulint: max_seq_len=N', or data_seq_len=N for "
                   "unpadded sequences) it searches again"
                 : "no single change gpulint knows makes it fit: more GPUs, more tensor "
                   "parallelism or a smaller or quantized model";
    return p;
  }
  std::stable_sort(options.begin(), options.end(), [](const Option& a, const Option& b) {
    return a.cost != b.cost ? a.cost < b.cost : a.total_bytes < b.total_bytes;
  });
  // Each option with what its framework refuses it without (Ulysses needs remove_padding).
  for (Option& option : options) {
    std::vector<Change> required = RequiredAlongside(maps, w, option.changes);
    option.changes.insert(option.changes.end(), required.begin(), required.end());
  }
  const Option& best = options.front();
  p.changes = best.changes;
  p.safe = best.safe;
  p.total_after_bytes = best.total_bytes;
  std::map<std::string, std::string> values;
  bool asleep_best = false;  // the best option puts an engine to sleep
  for (const Change& c : best.changes) {
    if (c.workload == kProposalWorkload || c.workload == index)
      values[c.setting] = c.after;
    else
      asleep_best = true;
  }
  if (asleep_best) p.limit_bytes = asleep.limit_bytes();
  p.summary = fmt::format("{} ({}): {}; {}", best.what, best.why, Describe(best.changes),
                          (asleep_best ? asleep : what_if).Outcome(values));
  for (size_t i = 1; i < options.size(); ++i)
    p.alternatives.push_back(fmt::format("{}: {} ({:.1f} GiB)", options[i].what,
                                         Describe(options[i].changes),
                                         est::BytesToGib(options[i].total_bytes)));
  return p;
}

}  // namespace gpulint
