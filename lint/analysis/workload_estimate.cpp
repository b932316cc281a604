#include "lint/analysis/workload_estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimator/precision.h"
#include "estimator/serving.h"
#include "estimator/training.h"
#include "estimator/units.h"
#include "estimator/vllm_eras.h"
#include "estimator/weight_format.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace {

bool IsServingRole(const std::string& role) {
  return role == "serve" || role == "rollout" || role == "teacher";
}

// Reads settings for the estimator: a fallback with an assumption where a value is absent, and a
// record of every setting it needed that the script writes but gpulint cannot know ($BATCH
// with no default), so that rules do not judge an estimate built on a guess.
class SettingReader {
 public:
  /// `explain`: word the assumptions made (the tuner's what-if estimates need the numbers only).
  SettingReader(const Workload& w, WorkloadEstimate* out, bool explain)
      : w_(w), out_(out), explain_(explain) {}

  std::optional<double> Number(std::string_view name) const {
    const Setting* setting = w_.Find(name);
    if (setting && setting->value.is_number()) return setting->value.number;
    NoteUnknown(name, setting);
    return std::nullopt;
  }
  std::optional<std::string> String(std::string_view name) const {
    const Setting* setting = w_.Find(name);
    if (setting && setting->value.kind != Value::Kind::kNone) return setting->value.ToString();
    NoteUnknown(name, setting);
    return std::nullopt;
  }
  double NumberOr(std::string_view name, double fallback, const char* why) {
    if (auto value = Number(name)) return *value;
    if (explain_) Assume(name, fmt::format("{}", fallback), why);
    return fallback;
  }
  std::string StringOr(std::string_view name, const std::string& fallback, const char* why) {
    if (auto value = String(name); value && !value->empty()) return *value;
    Assume(name, fallback, why);
    return fallback;
  }
  bool BoolOr(std::string_view name, bool fallback) const {
    const Setting* setting = w_.Find(name);
    if (setting && setting->value.is_bool()) return setting->value.boolean;
    NoteUnknown(name, setting);
    return fallback;
  }
  void Assume(std::string_view name, const std::string& value, const char* why) {
    if (!explain_) return;
    const Setting* setting = w_.Find(name);
    std::string state = "not set";
    if (setting && setting->value.kind == Value::Kind::kNone)
      state = fmt::format("unknown ({})", setting->not_editable_reason);
    else if (setting && setting->value.is_string() && setting->value.text == kNoLimit)
      state = fmt::format("without a limit ({})", setting->not_editable_reason);
    out_->assumptions.push_back(fmt::format("{} {}: {} assumed ({})", name, state, value, why));
  }

 private:
  // `setting` is what the workload holds under `name` (null when the script does not set it).
  void NoteUnknown(std::string_view name, const Setting* setting) const {
    if (setting && setting->value.kind == Value::Kind::kNone &&
        std::find(out_->unknown_inputs.begin(), out_->unknown_inputs.end(), name) ==
            out_->unknown_inputs.end())
      out_->unknown_inputs.emplace_back(name);
  }

  const Workload& w_;
  WorkloadEstimate* out_;
  bool explain_;
};

bool ListHas(const Workload& w, std::string_view name, std::string_view needle) {
  const Setting* setting = w.Find(name);
  if (!setting) return false;
  std::string text = setting->value.ToString();
  return text.find(needle) != std::string::npos;
}

std::vector<double> ParseMaxMemory(const std::string& text) {
  // "0=35GB,1=35GB,cpu=120GB" -> per-GPU caps in bytes (GB and GiB as transformers reads them).
  std::vector<double> caps;
  for (const std::string& item : SplitAny(text, ",")) {
    size_t eq = item.find('=');
    if (eq == std::string::npos) continue;
    std::string key = item.substr(0, eq), value = ToLower(item.substr(eq + 1));
    double number = 0;
    if (!ParseNumber(key, &number)) continue;
    double amount = 0;
    size_t unit = value.find_first_not_of("0123456789.");
    if (!ParseNumber(value.substr(0, unit), &amount)) continue;
    std::string suffix = unit == std::string::npos ? "" : value.substr(unit);
    double scale = suffix == "gib" ? est::kGiB : suffix == "mib" ? est::kMiB
                   : suffix == "mb" ? 1e6 : suffix == "kb" ? 1e3 : 1e9;
    caps.push_back(amount * scale);
  }
  return caps;
}

// The weight format: the `quant` setting, a suffix of the model's name, or the checkpoint's own
// quantization_config, which also says which modules stay in 16 bits.
est::Quantization QuantOf(const Workload& w, const est::ModelArch& arch,
                          const est::Quantization& name_quant,
                          std::vector<std::string>* assumptions) {
  est::Quantization quant = name_quant;
  if (auto q = w.String("quant")) {
    est::Quantization parsed;
    if (ParseWeightFormat(*q, &parsed)) {
      quant = parsed.format == arch.checkpoint_quant.format ? arch.checkpoint_quant : parsed;
    } else {
      assumptions->push_back(fmt::format("quantization '{}' is not modeled", *q));
    }
  }
  if (quant.format == est::WeightFormat::kDefault) quant = arch.checkpoint_quant;
  return quant;
}

// The length a job is judged at where its data decides it: a sequence when no length is set
// at all, a prompt when nothing truncates an RL job's prompts. Where it decides the verdict,
// the verdict is left open (JudgeDataLength).
constexpr double kAssumedDataTokens = 2048;

// Why the data, not the script, decides a training step's tokens.
enum class DataDecides {
  kLength,     // no sequence length anywhere: the longest sample decides
  kPrompt,     // an RL completion length, but prompts that are not truncated: the longest decides
  kUnpadded,   // sequences are not padded: the sum of the actual lengths decides
  kBudgetFill, // a token budget per micro batch, filled from a mini-batch of unpadded sequences
};

// What the data decides, and what the script fixes around it.
struct DataProbe {
  DataDecides why = DataDecides::kLength;
  double completion_tokens = 0;  ///< kPrompt: the completion each prompt gets
  double budget_tokens = 0;      ///< kBudgetFill: the micro batch's token budget
  double sequences_per_gpu = 0;  ///< kBudgetFill: a GPU's share of the mini-batch
  bool no_limit = false;         ///< kLength: the length is written as no limit, not left out
};

// The step's input when the data's sequences (kPrompt: prompts) are `len` tokens long
// (kLength, kPrompt: the longest one; otherwise on average).
est::TrainingInput AtDataLength(const DataProbe& probe_of, const est::TrainingInput& in,
                                double len) {
  est::TrainingInput probe = in;
  probe.explain = false;
  if (probe_of.why == DataDecides::kBudgetFill)
    probe.tokens_per_micro_batch =
        std::min(probe_of.budget_tokens, probe_of.sequences_per_gpu * len);
  else if (probe_of.why == DataDecides::kPrompt)
    probe.seq_len = probe_of.completion_tokens + len;
  else
    probe.seq_len = len;
  return probe;
}

// A verdict that holds at any length stands (the model's state alone does not fit, or its
// typical total does not: then the job is judged at the shortest data, where that much is true);
// one that flips between "fits" and not with the length is not judged, and the estimate says up
// to which length the job fits.
// Padding to the longest sample in a micro batch is judged at the cap: one long sample brings
// the whole batch there. Without padding every sample would have to reach it, so the cap is a
// ceiling the data rarely meets, and a verdict that only the ceiling breaks is left open. The
// same holds for a token budget that a GPU's share of the mini-batch fills only when its
// sequences are long (verl's use_dynamic_bsz: rearrange_micro_batches packs the mini-batch's
// actual tokens into micro batches of at most ppo_max_token_len_per_gpu), and for RL prompts
// that nothing truncates (TRL's GRPO since v0.28): an empty prompt is the floor.
void JudgeDataLength(const DataProbe& probe, const est::TrainingInput& in,
                     est::Breakdown* breakdown, WorkloadEstimate* out, bool explain) {
  const est::Breakdown& assumed = *breakdown;
  // "Fits" is the high end of the range; a job that cannot fit is past it at its low end.
  if (assumed.total_high <= out->usable_bytes) return;
  const double floor_len = probe.why == DataDecides::kPrompt ? 0 : 1;
  auto at = [&](double len) { return est::EstimateTraining(AtDataLength(probe, in, len)); };
  const est::Breakdown shortest = at(floor_len);
  if (shortest.total_low > out->usable_bytes) return;
  // Where even the shortest data's typical total is past the GPU, the job more likely fails
  // than not at every length: judged there. A high end past it at the shortest is the slack's
  // risk alone, which a length nobody wrote does not settle either way.
  if (shortest.total > out->usable_bytes) {
    est::TrainingInput floor_in = AtDataLength(probe, in, floor_len);
    floor_in.explain = explain;
    *breakdown = est::EstimateTraining(floor_in);
    if (explain)
      out->assumptions.push_back(
          "the data decides the step's length: judged at the shortest, where the job's own "
          "state already likely does not fit; longer data needs more");
    return;
  }
  out->unknown_inputs.emplace_back(probe.why == DataDecides::kLength   ? "max_seq_len"
                                   : probe.why == DataDecides::kPrompt ? "max_prompt_len"
                                                                       : "data_seq_len");
  if (!explain) return;
  const double assumed_len =
      probe.why == DataDecides::kPrompt ? in.seq_len - probe.completion_tokens : in.seq_len;
  double fits = floor_len, fails = assumed_len;
  while (fails - fits > 1) {
    const double mid = std::floor((fits + fails) / 2);
    (at(mid).total_high <= out->usable_bytes ? fits : fails) = mid;
  }
  switch (probe.why) {
    case DataDecides::kLength:
      out->undecided = fmt::format(
          "{}, so the data decides: sequences up to {} tokens fit, the assumed {} need {:.1f} "
          "GiB; state the length (max_seq_len, or a # gpulint: max_seq_len=N directive) to have "
          "it judged",
          probe.no_limit ? "the sequence length has no limit" : "no sequence length is set", fits,
          in.seq_len, est::BytesToGib(assumed.total_high));
      out->undecided_bound = fmt::format("sequences up to {} tokens fit", fits);
      return;
    case DataDecides::kPrompt:
      out->undecided = fmt::format(
          "prompts are not truncated, so the data decides: with completions of {} tokens, "
          "prompts up to {} tokens fit, the assumed {} need {:.1f} GiB; state the longest "
          "prompt (# gpulint: max_prompt_len=N) to have it judged",
          probe.completion_tokens, fits, assumed_len, est::BytesToGib(assumed.total_high));
      out->undecided_bound = fmt::format("prompts up to {} tokens fit", fits);
      return;
    case DataDecides::kUnpadded:
      out->undecided = fmt::format(
          "sequences are not padded, so their actual lengths decide: micro batches of {} whose "
          "sequences average up to {} tokens fit; all {} at the full {} tokens need {:.1f} GiB; "
          "state the length the data reaches (# gpulint: data_seq_len=N) to have it judged",
          in.micro_batch, fits, in.micro_batch, in.seq_len, est::BytesToGib(assumed.total_high));
      out->undecided_bound = fmt::format("sequences averaging up to {} tokens fit", fits);
      return;
    case DataDecides::kBudgetFill:
      out->undecided = fmt::format(
          "sequences are not padded, so their actual lengths decide: each GPU packs its {} "
          "sequences of a mini-batch into micro batches of at most {} tokens, which they fill "
          "only if they average {:.0f} tokens; up to {:.0f} tokens per micro batch fit, the full "
          "budget needs {:.1f} GiB; state the length the data reaches (# gpulint: "
          "data_seq_len=N) to have it judged",
          probe.sequences_per_gpu, probe.budget_tokens,
          std::ceil(probe.budget_tokens / probe.sequences_per_gpu),
          std::min(probe.budget_tokens, fits * probe.sequences_per_gpu),
          est::BytesToGib(assumed.total_high));
      out->undecided_bound =
          fmt::format("up to {:.0f} tokens per micro batch fit",
                      std::min(probe.budget_tokens, fits * probe.sequences_per_gpu));
      return;
  }
}

est::Breakdown EstimateTrainingWorkload(const Workload& w, const est::ModelArch& arch,
                                        const est::Quantization& name_quant,
                                        const est::GpuSpec& gpu, WorkloadEstimate* out,
                                        bool explain) {
  SettingReader s(w, out, explain);
  est::TrainingInput in;
  in.explain = explain;
  in.arch = &arch;
  in.gpu_total_bytes = gpu.total_bytes;
  in.gpus = std::max(w.gpus, 1);
  in.tp = static_cast<int>(s.NumberOr("tp", 1, "no tensor parallelism"));
  in.pp = static_cast<int>(s.Number("pp").value_or(1));
  in.cp = static_cast<int>(s.Number("cp").value_or(1));
  in.ep = static_cast<int>(s.Number("ep").value_or(1));
  // Data-parallel ranks: the GPUs over tensor, pipeline and context parallelism.
  const int dp = std::max(in.gpus / std::max(in.tp * in.pp * in.cp, 1), 1);
  // A frozen model scoring batches, or a trainer's own forward passes without gradients
  // (a map's forward_only trait: verl's old log-probs before the update).
  if (w.role == "reference" || w.role == "reward" || w.Bool("forward_only").value_or(false))
    in.forward_only = true;
  // An RL critic and a reward model are value models: one output per token, no vocabulary.
  in.value_head = w.role == "critic" || w.role == "reward";
  const bool rl = w.Find("max_response_len") || w.Find("rollout_batch") || w.Find("n_samples");
  // Sequence: a fixed length, or an RL prompt + response, or a dynamic token budget.
  if (auto seq = s.Number("max_seq_len")) {
    in.seq_len = *seq;
  } else if (rl && s.Number("max_response_len")) {
    // Prompts no flag truncates are as long as the data's longest: judged as a data length.
    out->prompt_tokens =
        s.NumberOr("max_prompt_len", kAssumedDataTokens, "prompts are not truncated");
    in.seq_len = *s.Number("max_response_len") + out->prompt_tokens;
  } else {
    in.seq_len =
        s.NumberOr("max_seq_len", kAssumedDataTokens, "the sequence length depends on the data");
  }
  // A length written as no limit (ms-swift 2.x's --max_length -1) is as unset: the data's.
  const bool no_length = !w.Find("max_seq_len") || s.String("max_seq_len") == kNoLimit;
  const bool length_from_data = no_length && !(rl && s.Number("max_response_len"));
  const bool prompt_from_data =
      no_length && rl && s.Number("max_response_len") && !w.Find("max_prompt_len");
  // Unpadded sequences (no padding, no packing) take as many tokens as the data has; a stated
  // data length settles it.
  bool unpadded = s.BoolOr("padding_free", false) && !s.BoolOr("packing", false);
  if (auto data_len = s.Number("data_seq_len"); data_len && unpadded) {
    in.seq_len = std::min(in.seq_len, *data_len);
    unpadded = false;
  }
  const bool token_budget = s.BoolOr("dynamic_batch", false) && s.Number("max_tokens_per_gpu");
  // Under a token budget, a micro batch holds at most the tokens of the GPU's share of the
  // mini-batch (an RL job's mini-batch counts prompts, each sampled n_samples times).
  double sequences_per_gpu = 0;
  if (token_budget) {
    // The budget is each GPU's: a micro batch gathers budget x cp tokens, which context
    // parallelism then splits (verl/workers/actor/dp_actor.py:552 `max_token_len =
    // self.config.ppo_max_token_len_per_gpu * self.ulysses_sequence_parallel_size`,
    // megatron_actor.py:223; slime/utils/dp_schedule.py:120 `max_per_bin =
    // args.max_tokens_per_gpu * cp_size`; openrlhf/utils/seqlen_balancing.py:237). A sequence
    // longer than that is never split across micro batches: it lands alone in one (slime
    // dp_schedule.py:28-31, OpenRLHF's first fit at :241); verl refuses it at its first step
    // (verl/utils/seqlen_balancing.py:382).
    in.tokens_per_micro_batch =
        std::max(*s.Number("max_tokens_per_gpu") * std::max(in.cp, 1), in.seq_len);
    in.micro_batch = 1;
    if (auto mini = s.Number("ppo_mini_batch"); rl && mini && *mini > 0) {
      sequences_per_gpu =
          std::max(1.0, std::floor(*mini * s.Number("n_samples").value_or(1) / dp));
      in.tokens_per_micro_batch =
          std::min(in.tokens_per_micro_batch, sequences_per_gpu * in.seq_len);
    }
  } else {
    // A reference or reward forward during experience making runs in the rollout's micro
    // batches where the job sets them (OpenRLHF --micro_rollout_batch_size).
    const auto experience_batch =
        in.forward_only ? s.Number("rollout_micro_batch") : std::optional<double>();
    in.micro_batch = static_cast<int>(experience_batch
                                          ? *experience_batch
                                          : s.NumberOr("micro_batch", 1, "one sequence per GPU"));
  }
  // A batch the team's code splits over its data-parallel processes (batch_scope=global, as
  // stated or as the generic map's other reading of --batch-size): each GPU runs its share.
  if (!token_budget && s.String("batch_scope").value_or("per_device") == "global" && dp > 1)
    in.micro_batch = static_cast<int>(std::ceil(in.micro_batch / static_cast<double>(dp)));
  // A trainer that runs each example as several sequences in one forward (DPO's chosen and
  // rejected completions, concatenated into one batch): the micro-batch holds that many more.
  if (auto per_example = s.Number("sequences_per_example"); per_example && *per_example > 1)
    in.micro_batch *= static_cast<int>(*per_example);
  in.grad_accum = static_cast<int>(s.Number("grad_accum").value_or(1));

  std::string dtype = s.StringOr("dtype", "amp-bf16", "mixed precision is the common default");
  if (!est::ParsePrecision(dtype, &in.precision)) {
    out->assumptions.push_back(fmt::format("dtype '{}' is not known: amp-bf16 assumed", dtype));
    in.precision = est::Precision::kAmpBf16;
  }
  // How the trainer lays out state: a trait of the framework (its map's trainer_style).
  const std::string style = s.String("trainer_style").value_or("plain");
  // A model loaded in 16 bits and trained with the bf16 flag keeps everything in 16 bits (the
  // HF Trainer does not upcast a bf16 model); Megatron and DeepSpeed keep fp32 master weights
  // regardless (DeepSpeed's bf16 optimizers hold an fp32 copy of every partition).
  // "checkpoint": the dtype the checkpoint's config.json states (ms-swift loads it so).
  auto loaded = s.String("model_dtype");
  if (loaded && *loaded == "checkpoint") loaded = arch.dtype;
  if (loaded && (*loaded == "bfloat16" || *loaded == "bf16") &&
      in.precision == est::Precision::kAmpBf16 && style != "megatron" && !w.Find("zero_stage"))
    in.precision = est::Precision::kBf16;
  std::string optimizer = s.StringOr("optimizer", "adamw", "the common default");
  if (!est::ParseOptimizer(optimizer, &in.optimizer)) {
    out->assumptions.push_back(fmt::format("optimizer '{}' is not known: adamw assumed", optimizer));
    in.optimizer = est::Optimizer();
  }
  in.optimizer_in_backward = s.BoolOr("optimizer_in_bwd", false);

  // Framework layout of mixed-precision state, and sharding.
  // Context-parallel ranks hold the same weights and reduce their gradients together, so state
  // is sharded over data x context parallel ranks: Megatron's distributed optimizer over its
  // intra_dp_cp_group (megatron/core/optimizer/__init__.py get_megatron_optimizer, Megatron-LM
  // 0044db1f), FSDP and ZeRO over every rank beside Ulysses' sequence split.
  in.shard_group = std::max(in.gpus / std::max(in.tp * in.pp, 1), 1);
  if (style == "megatron") {
    in.style = est::TrainerStyle::kMegatron;
    if (s.BoolOr("use_distributed_optimizer", false)) in.sharding = est::Sharding::kOptimizer;
  }
  if (auto stage = s.Number("zero_stage"); stage && *stage >= 0) {
    in.style = est::TrainerStyle::kDeepSpeed;
    in.sharding = *stage >= 3   ? est::Sharding::kParameters
                  : *stage >= 2 ? est::Sharding::kGradients
                  : *stage >= 1 ? est::Sharding::kOptimizer
                                : est::Sharding::kNone;
  }
  if (auto fsdp = s.String("fsdp")) {
    if (*fsdp == "full_shard" || *fsdp == "hybrid_shard") in.sharding = est::Sharding::kParameters;
    if (*fsdp == "shard_grad_op") in.sharding = est::Sharding::kGradients;
    if (*fsdp == "hybrid_shard") {
      if (auto per_node = s.Number("gpus_per_node")) in.shard_group = static_cast<int>(*per_node);
    }
  }
  // Sharded states divide by the GPU count; a count the script leaves unresolved (verl's
  // trainer.n_gpus_per_node=$SLURM_GPUS_PER_NODE) is not one GPU.
  const bool count_decides = w.gpus <= 0 && in.sharding != est::Sharding::kNone;
  // Offload between an RL job's phases (verl's FSDP actor offload) frees the GPU while the
  // engine generates and loads everything back for the update: the step's peak is the same.
  const bool phase_offload = s.String("offload_timing").value_or("step") == "phase";
  const bool offload_optimizer = ListHas(w, "offload", "optimizer");
  const bool offload_params = ListHas(w, "offload", "param");
  if (auto sub_group = s.Number("zero_sub_group_size"); sub_group && *sub_group > 0)
    in.zero_sub_group_elements = *sub_group;
  in.offload_optimizer = offload_optimizer && !phase_offload;
  in.offload_params = offload_params && !phase_offload;
  // A global batch without an explicit accumulation implies one: micro-batches per GPU per step.
  // Not for RL jobs, whose global batch counts prompts. Most frameworks assert the product is
  // exact; one that aims at a batch instead (ms-swift's default accumulation) rounds up.
  if (!w.Find("grad_accum") && !rl) {
    auto global = s.Number("global_batch");
    if (global && *global > in.micro_batch * dp) {
      const double steps = *global / (std::max(in.micro_batch, 1) * dp);
      const bool round_up = s.String("grad_accum_rounding").value_or("down") == "up";
      in.grad_accum = static_cast<int>(std::min(round_up ? std::ceil(steps) : std::floor(steps),
                                                static_cast<double>(1 << 30)));
      s.Assume("grad_accum", fmt::format("{}", in.grad_accum),
               round_up ? "global_batch / (micro_batch x data-parallel GPUs), rounded up"
                        : "global_batch / (micro_batch x data-parallel GPUs)");
    }
  }
  // How the framework drives FSDP decides how much gradient memory a rank holds.
  if (in.style == est::TrainerStyle::kPlain && in.sharding != est::Sharding::kNone) {
    in.unsharded_accumulation = s.BoolOr("fsdp_no_sync", false);
    if (in.grad_accum > 1 && !w.Find("fsdp_no_sync"))
      s.Assume("fsdp_no_sync", "false",
               "gradients reduce-scattered every micro-batch, as torchtune and verl do");
    in.frozen_weights_get_grads = s.BoolOr("fsdp_frozen_grads", false);
  }

  // A Megatron-core model recomputes activations by its recompute granularity only; a Hugging
  // Face checkpointing switch beside it (verl's model.enable_gradient_checkpointing under the
  // Megatron actor) reaches no code (verl.toml's grad_ckpt default cites where).
  if (s.BoolOr("grad_ckpt", false)) {
    if (style != "megatron")
      in.recompute = est::Recompute::kFull;
    else
      out->assumptions.push_back(
          "grad_ckpt is not read by a Megatron-core model: its recompute setting decides");
  }
  if (auto recompute = s.String("recompute")) {
    if (*recompute == "full") in.recompute = est::Recompute::kFull;
    if (*recompute == "selective") in.recompute = est::Recompute::kSelective;
  }
  // gpulint prices full recompute one layer at a time: uniform over one layer, or block over
  // every layer of the stage. Block over fewer keeps the other layers' activations, uniform over
  // several recomputes them together; both are priced as no recompute, an upper bound.
  if (in.recompute == est::Recompute::kFull && w.Find("recompute_num_layers")) {
    const double chunk = s.Number("recompute_num_layers").value_or(1);
    const double stage_layers =
        static_cast<double>(arch.num_layers) / std::max(in.pp, 1);
    const bool block = s.String("recompute_method").value_or("uniform") == "block";
    if ((block && chunk < stage_layers) || (!block && chunk > 1)) {
      in.recompute = est::Recompute::kNone;
      out->assumptions.push_back(fmt::format(
          "{} recompute over {} of {} layers per stage priced as no recompute (an upper bound: "
          "gpulint models one layer per recompute)",
          block ? "block" : "uniform", chunk, stage_layers));
    }
  }
  if (!w.Find("grad_ckpt") && !w.Find("recompute"))
    s.Assume("grad_ckpt", "false", "activations are kept unless checkpointing is on");
  else if (style == "megatron" && !w.Find("recompute"))
    s.Assume("recompute", "none",
             "Megatron recomputes nothing unless recompute_granularity is set");
  in.sequence_parallel = s.BoolOr("sp", false);
  in.expandable_segments = s.BoolOr("expandable_segments", false);
  // Packed rows have one shape every step; anything padded per batch, or unpadded, varies.
  in.varying_shapes = !s.BoolOr("packing", false);
  if (in.expandable_segments && explain)
    out->assumptions.push_back(
        "expandable_segments:True: the allocator unmaps free pages before an allocation fails, "
        "so the high end takes the typical slack, not the holes of a long run");
  else if (in.varying_shapes && explain)
    out->assumptions.push_back(
        "batches vary in length (no packing): with memory to spare the allocator's cache grows "
        "past the live tensors, more so under checkpointing (the cached figure), and is given "
        "back before an allocation fails");
  if (auto attn = s.String("attn_impl"); attn && *attn == "eager")
    in.attention = est::AttentionKind::kEager;
  // The loss path: the framework's trait, unless the script turns on a fused cross-entropy.
  const std::string loss = s.String("loss_path").value_or(style == "megatron" ? "vocab-parallel"
                                                                             : "upcast");
  in.loss_path = loss == "vocab-parallel" ? est::LossPath::kVocabParallel
                 : loss == "inplace"      ? est::LossPath::kInplace
                 : loss == "scaled-gather" ? est::LossPath::kScaledGather
                 : loss == "output-chunked" ? est::LossPath::kOutputChunked
                 : loss == "linear-chunked" ? est::LossPath::kLinearChunked
                 : loss == "fused"        ? est::LossPath::kFused
                                          : est::LossPath::kUpcast;
  if (s.BoolOr("fused_ce", false)) in.loss_path = est::LossPath::kFused;
  in.liger_rms_norm = s.BoolOr("liger_rms_norm", false);
  in.liger_glu = s.BoolOr("liger_glu", false);
  in.loss_chunks = static_cast<int>(s.Number("loss_chunks").value_or(8));
  in.loss_entropy =
      s.Number("entropy_coeff").value_or(0) != 0 || w.Bool("logit_entropy").value_or(false);
  // A trainer that asks the model for the completion's logits only (TRL's logits_to_keep).
  if (s.BoolOr("logits_completion_only", false))
    if (auto completion = s.Number("max_response_len")) in.logit_tokens_per_sequence = *completion;

  // LoRA / QLoRA.
  // LoRA when the script says so (finetuning_type = lora, axolotl's `adapter: lora`) or gives
  // a rank where nothing names the fine-tuning type; a rank of 0 turns it off (verl).
  const std::optional<double> rank = s.Number("lora_rank");
  const std::optional<std::string> type = s.String("finetuning_type");
  const bool lora = s.BoolOr("lora_enabled", true) &&
                    (type ? *type == "lora" && (!rank || *rank > 0) : rank && *rank > 0);
  if (lora) {
    in.lora_rank = static_cast<int>(rank.value_or(8));
    if (!rank)
      s.Assume("lora_rank", "8",
               "PEFT's LoraConfig default (src/peft/tuners/lora/config.py:613 `r: int = "
               "field(default=8`)");
    std::string targets = ToLower(s.String("lora_targets").value_or(""));
    // "all", "all-linear", or a list naming MLP projections (gate/up/down, w1/w2, fc1/fc2,
    // c_fc, dense_h_to_4h) means every linear layer.
    in.lora_all_linear = targets.find("all") != std::string::npos;
    for (const char* mlp : {"gate", "up_proj", "down", "w1", "w2", "w3", "fc1", "fc2", "fc_1",
                            "fc_2", "c_fc", "mlp", "h_to_4h"})
      in.lora_all_linear = in.lora_all_linear || targets.find(mlp) != std::string::npos;
    in.lora_lm_head = targets.find("lm_head") != std::string::npos;
    // Experts whose modules are named apart (Kimi Linear's w1/w2/w3) are adapted by "all-linear"
    // or by a target naming them, not by gate_proj/up_proj/down_proj.
    if (!arch.expert_linear_names.empty() && targets.find("all") == std::string::npos) {
      in.lora_routed_experts = false;
      for (const std::string& name : arch.expert_linear_names)
        in.lora_routed_experts = in.lora_routed_experts || targets.find(name) != std::string::npos;
    }
    if (targets.empty())
      s.Assume("lora_targets", "q_proj,v_proj", "PEFT's default for Llama-style models");
    if (!w.Find("lora_dropout"))
      s.Assume("lora_dropout", "> 0",
               "TRL, litgpt and torchtune default to 0.05: each adapter keeps a dropout copy");
    in.lora_dropout = s.Number("lora_dropout").value_or(0.05) > 0;
    in.lora_fused_qkv = s.BoolOr("lora_fused_qkv", false);
    in.lora_fused_o = s.BoolOr("lora_fused_o", false);
    in.lora_fused_mlp = s.BoolOr("lora_fused_mlp", false);
  }
  est::Quantization quant = QuantOf(w, arch, name_quant, &out->assumptions);
  // A Megatron-core model is built from its own config in params_dtype and loads the checkpoint
  // into those parameters, converting on the way (slime's tools/convert_hf_to_torch_dist.py,
  // Megatron-Bridge): a quantized Hugging Face checkpoint (FP8 DeepSeek or MiniMax) trains as
  // 16-bit weights, whatever its quantization_config says.
  if (style == "megatron" && !w.Find("quant") && quant.format != est::WeightFormat::kDefault) {
    quant = est::Quantization();
    out->assumptions.push_back(
        "the checkpoint's quantized weights are loaded into Megatron's 16-bit parameters");
  }
  // An MXFP4 checkpoint (gpt-oss) trains on bf16 weights unless the script keeps it packed:
  // transformers' MXFP4 quantizer says it cannot train and asks for Mxfp4Config(dequantize=True)
  // (quantizers/quantizer_mxfp4.py `def is_trainable(self) -> bool:` ... `return False`, read
  // at 8b-is/transformers@e8c4f0b7), and dequantizes by itself wherever its kernels are missing.
  // Measured: axolotl's gpt-oss-20b LoRA example 44 GiB, ms-swift's 42 GB, where packed weights
  // would be 13 GiB.
  if (quant.format == est::WeightFormat::kMxfp4 && s.BoolOr("dequantize", true)) {
    quant = est::Quantization();
    out->assumptions.push_back(
        "MXFP4 weights trained dequantized to bf16 (transformers' MXFP4 quantizer cannot train; "
        "training recipes pass Mxfp4Config(dequantize=True))");
  }
  in.base_quant = quant;
  in.experts_quantized_on_load = s.BoolOr("experts_quantized", false);
  // transformers' bitsandbytes conversion replaces nn.Linear modules only (EstimateTraining's
  // BaseExclusions): 3D experts stay in 16 bits, which the estimate says.
  if (est::IsBitsandbytes(quant.format) && arch.fused_experts && arch.is_moe() &&
      !in.experts_quantized_on_load)
    out->assumptions.push_back(
        "routed experts are 3D parameters (transformers 5), which bitsandbytes leaves in 16 "
        "bits; a loader patch (axolotl's quantize_moe_experts) quantizes them, and releases "
        "that stored them as nn.Linear modules quantized them too");
  // Mamba layers are priced on mamba_ssm's kernels, which transformers takes only where
  // mamba-ssm and causal-conv1d are installed (modeling_granitemoehybrid.py's
  // is_fast_path_available, modeling_jamba.py's use_mamba_kernels); its torch fallback holds
  // chunk x chunk matrices per head (Mamba-2) or a state per token and channel (Mamba-1).
  using Kind = est::ModelArch::LinearAttention::Kind;
  if (arch.has_linear_attention() &&
      (arch.linear.kind == Kind::kMamba2 || arch.linear.kind == Kind::kMamba1) &&
      !in.forward_only)
    out->assumptions.push_back(fmt::format(
        "{} layers on mamba_ssm's kernels (mamba-ssm and causal-conv1d installed); "
        "transformers' fallback without them needs far more activation memory",
        arch.linear.kind == Kind::kMamba2 ? "Mamba-2" : "Mamba-1"));
  // bitsandbytes runs NF4 and LLM.int8 for HF, PEFT, TRL and LitGPT; torchtune uses torchao.
  const std::string library = s.String("quant_library").value_or("bitsandbytes");
  in.quantized_base_keeps_inputs =
      (quant.format == est::WeightFormat::kNf4 || quant.format == est::WeightFormat::kNf4Double ||
       quant.format == est::WeightFormat::kInt8) &&
      (library == "bitsandbytes" || library == "bnb");
  // transformers' Trainer stops before the first step on a quantized model with no adapter
  // (src/transformers/trainer_utils.py:131-136 at 2da00a3c, "You cannot perform fine-tuning on
  // purely quantized models"); what a loop of a team's own would train of it is not modelled.
  if (quant.format != est::WeightFormat::kDefault && !lora && !in.forward_only)
    out->skipped = "a quantized base with no LoRA adapter is not modelled: transformers' Trainer "
                   "refuses to train it (\"You cannot perform fine-tuning on purely quantized "
                   "models\")";
  if (s.BoolOr("ref_model", false) && s.BoolOr("ref_model_on_cpu", false))
    out->assumptions.push_back(
        "the reference model's weights stay in CPU memory between log-prob passes");
  est::Breakdown breakdown = est::EstimateTraining(in);
  // With the GPU count unknown, a job that does not fit even with its states divided over any
  // number of GPUs does not fit at all (four whole models per GPU under ZeRO-2): that least
  // estimate is judged. Otherwise the count decides, and the verdict waits for it.
  if (count_decides) {
    constexpr int kManyGpus = 1 << 16;
    est::TrainingInput many = in;
    many.gpus = kManyGpus;
    many.shard_group = std::max(kManyGpus / std::max(in.tp * in.pp, 1), 1);
    est::Breakdown least = est::EstimateTraining(many);
    if (least.total_low > out->usable_bytes) {
      breakdown = std::move(least);
      in = many;  // what the data-length probes below start from
      out->assumptions.push_back(
          "the GPU count is not known: states divided as over any number of GPUs, the least "
          "this job needs");
    } else {
      out->unknown_inputs.emplace_back("gpus");
      out->assumptions.push_back("the GPU count is not known: sharded states are not divided");
    }
  }
  // Whether the step's size is the data's (its lengths, or how a token budget fills): the
  // estimate is then at the longest, and a shared GPU's sum at the longest is no verdict.
  out->size_from_data = (!token_budget && (length_from_data || prompt_from_data || unpadded)) ||
                        (token_budget && unpadded && sequences_per_gpu > 0);
  if (!token_budget && length_from_data)
    JudgeDataLength({DataDecides::kLength, 0, 0, 0, w.Find("max_seq_len") != nullptr}, in,
                    &breakdown, out, explain);
  else if (!token_budget && prompt_from_data)
    JudgeDataLength({DataDecides::kPrompt, *s.Number("max_response_len")}, in, &breakdown,
                    out, explain);
  else if (!token_budget && unpadded)
    JudgeDataLength({DataDecides::kUnpadded}, in, &breakdown, out, explain);
  else if (token_budget && unpadded && sequences_per_gpu > 0)
    JudgeDataLength({DataDecides::kBudgetFill, 0, in.tokens_per_micro_batch, sequences_per_gpu},
                    in, &breakdown, out, explain);
  // Memory held across phases (weights, master copy, optimizer, persistent gradients), for a
  // colocated rollout engine that runs between training steps.
  out->persistent_bytes = breakdown.weights + breakdown.optimizer + breakdown.gradients;
  if (phase_offload)
    out->persistent_bytes = (offload_params ? 0 : breakdown.weights + breakdown.gradients) +
                            (offload_optimizer ? 0 : breakdown.optimizer);
  return breakdown;
}

// What picks vLLM's V0 or V1 engine in the releases that have both: VLLM_USE_V1 as the script
// sets it (a value gpulint cannot read leaves either possible), and whether the GPU predates
// Ampere (Volta and Turing; a GPU known only by its size may).
est::VllmEngineHints VllmEngineOf(const Workload& w, const est::GpuSpec& gpu) {
  est::VllmEngineHints hints;
  const Setting* v1 = w.Find("vllm_v1");
  if (v1 && v1->value.is_bool()) {
    hints.v0_requested = !v1->value.boolean;
    hints.v1_requested = v1->value.boolean;
  }
  hints.v0_maybe_requested = v1 && !v1->value.is_bool();
  hints.before_ampere = gpu.arch == "volta" || gpu.arch == "turing" || gpu.arch == "pascal";
  hints.gpu_arch_unknown = gpu.arch.empty();
  return hints;
}

// The engine releases a workload runs: its `engine_version` (a directive, the script's or the
// repository's pin, the framework's requirement), else the newest. Each is said, with the eras
// of vLLM's accounting it spans (docs/engine-versions.md).
est::VersionRange EngineVersions(const Workload& w, const std::string& engine,
                                 est::Engine kind, const est::VllmEngineHints& hints,
                                 WorkloadEstimate* out, bool explain) {
  est::VersionRange range{est::kNewestVersion, est::kNewestVersion};
  const Setting* setting = w.Find("engine_version");
  std::string where;
  if (setting && setting->value.kind == Value::Kind::kString &&
      est::ParseVersionRange(setting->value.text, &range)) {
    where = setting->origin == Origin::kFrameworkDefault ? "the framework's requirement"
            : setting->via.empty()                       ? "stated"
                                                         : setting->via;
  } else if (setting && setting->value.kind != Value::Kind::kNone) {
    where = fmt::format("'{}' is not a version: the newest assumed", setting->value.ToString());
  } else {
    where = fmt::format("not pinned: the newest assumed; state it with '# gpulint: {}=0.8.5', "
                        "[versions] in gpulint.toml or a requirements pin", engine);
  }
  if (!explain) return range;
  std::string eras;
  if (kind == est::Engine::kVllm)
    for (const est::VllmEra* era : est::VllmErasIn(range, hints)) {
      eras += std::string(eras.empty() ? ": " : "; ") + era->name;
      if (era != &est::VllmV0InV1Releases()) continue;
      eras += hints.v0_requested         ? " as VLLM_USE_V1=0 asks"
              : hints.v0_maybe_requested ? " if VLLM_USE_V1 is 0"
              : hints.before_ampere      ? " on a GPU before Ampere (until 0.10.1)"
                                         : " if the GPU predates Ampere (until 0.10.1)";
    }
  out->assumptions.push_back(fmt::format(
      "{} {} ({}){}", engine,
      range.Exact() && range.low == est::kNewestVersion ? "newest release" : range.ToString(),
      where, eras));
  return range;
}

// The dtype a serving process loads 16/32-bit weights in, from how a program writes it
// (from_pretrained's torch_dtype=torch.float32, vLLM's --dtype float); nullopt where it keeps
// the checkpoint's ("auto", or a value that is not a load dtype).
std::optional<std::string> LoadDtype(std::string text) {
  if (StartsWith(text, "torch.")) text = text.substr(6);
  if (text == "float32" || text == "float" || text == "fp32") return "float32";
  if (text == "bfloat16" || text == "bf16") return "bfloat16";
  if (text == "float16" || text == "half" || text == "fp16") return "float16";
  return std::nullopt;
}

est::Breakdown EstimateServingWorkload(const Workload& w, const est::ModelArch& checkpoint,
                                       const est::Quantization& name_quant,
                                       const est::GpuSpec& gpu, WorkloadEstimate* out,
                                       bool explain) {
  SettingReader s(w, out, explain);
  est::ServingInput in;
  est::ModelArch arch = checkpoint;  // in the dtype it is loaded in, below
  in.arch = &arch;
  in.gpu_total_bytes = gpu.total_bytes;
  // The engine is the map's `engine` default (vLLM's and SGLang's maps, transformers and a
  // team's own script: hf); a map that names none serves with vLLM.
  std::string engine = s.String("engine").value_or("vllm");
  if (!est::ParseEngine(engine, &in.engine)) {
    out->assumptions.push_back(fmt::format("engine '{}' is not modelled: vLLM's accounting assumed",
                                           engine));
    in.engine = est::Engine::kVllm;
  }
  out->engine = engine;
  out->engine_kind = in.engine;
  double tp = w.role == "rollout" && s.Number("rollout_tp") ? *s.Number("rollout_tp")
                                                          : s.Number("tp").value_or(1);
  in.tp = static_cast<int>(tp);
  in.pp = static_cast<int>(s.Number("pp").value_or(1));
  in.dp = static_cast<int>(s.Number("dp").value_or(1));
  in.expert_parallel = s.BoolOr("ep_enabled", false);
  est::Quantization quant = QuantOf(w, arch, name_quant, &out->assumptions);
  if (quant.format == est::WeightFormat::kDefault) {
    if (s.BoolOr("load_in_4bit", false)) ParseWeightFormat("nf4", &quant);
    if (s.BoolOr("load_in_8bit", false)) ParseWeightFormat("int8", &quant);
  }
  in.quant = quant;
  // Weights in the dtype the program loads them in: transformers' from_pretrained dtype (its
  // default differs by release: transformers.toml), an engine's --dtype. "checkpoint" and
  // "auto" keep the checkpoint's. With no dtype passed, every transformers quantizer loads what
  // it leaves unquantized in 16 bits (quantizers/quantizer_bnb_8bit.py:128-138 `if dtype is
  // None:` `dtype = torch.float16`, and likewise bnb 4-bit, GPTQ, AWQ, FP8 and MXFP4 at
  // 3553f0bc, 4.57.0.dev0), so a release's fp32 default does not reach a quantized model.
  // A `dtype` default is a trainer's precision (the HF Trainer's fp32 without --bf16, shared
  // with a model its process also loads), not how an engine loads weights: only a written
  // --dtype counts. A `model_dtype` default is from_pretrained's, which does.
  const char* load = w.Find("model_dtype") ? "model_dtype" : "dtype";
  const Setting* written = w.Find(load);
  const bool from_default = written && written->origin == Origin::kFrameworkDefault;
  const bool ignored = from_default && (std::string_view(load) == "dtype" ||
                                        quant.format != est::WeightFormat::kDefault);
  if (auto text = written && !ignored ? s.String(load) : std::nullopt)
    if (auto dtype = LoadDtype(*text)) arch.dtype = *dtype;

  if (auto len = s.Number("max_model_len")) {
    in.max_model_len = *len;
  } else if (auto total = s.Number("max_seq_len"); w.role == "rollout" && total) {
    in.max_model_len = *total;  // the job's one total length sizes its engine (OpenRLHF max_len)
  } else if (w.role == "rollout" && s.Number("max_response_len")) {
    in.max_model_len = *s.Number("max_response_len") + s.Number("max_prompt_len").value_or(0);
  } else if (in.engine != est::Engine::kHf) {
    in.max_model_len = static_cast<double>(arch.max_position_embeddings);
    s.Assume("max_model_len", fmt::format("{}", arch.max_position_embeddings),
             "engines default to the model's max_position_embeddings");
  }
  out->max_model_len = in.max_model_len;
  in.kv_cache_dtype = s.String("kv_cache_dtype").value_or("auto");
  in.enforce_eager = s.BoolOr("enforce_eager", false) || s.BoolOr("disable_cuda_graph", false);
  in.cpu_offload_bytes = s.Number("cpu_offload_gb").value_or(0) * 1e9;
  in.max_num_seqs = s.Number("max_num_seqs").value_or(256);
  in.max_num_batched_tokens = s.Number("max_num_batched_tokens").value_or(8192);
  in.vllm_engine = VllmEngineOf(w, gpu);
  if (est::ClaimsMemoryFraction(in.engine))
    in.versions = EngineVersions(w, engine, in.engine, in.vllm_engine, out, explain);
  const Setting* tokens = w.Find("max_num_batched_tokens");
  in.max_num_batched_tokens_default = !tokens || tokens->origin == Origin::kFrameworkDefault;
  const Setting* seqs = w.Find("max_num_seqs");
  in.max_num_seqs_default = !seqs || seqs->origin == Origin::kFrameworkDefault;
  in.cuda_graph_max_bs = s.Number("cuda_graph_max_bs").value_or(0);
  in.chunked_prefill = s.Number("chunked_prefill").value_or(0);
  in.max_total_tokens = s.Number("max_total_tokens").value_or(0);

  if (in.engine == est::Engine::kSglang) {
    if (auto fraction = s.Number("gpu_memory_utilization")) {
      in.memory_fraction = *fraction;
    } else {
      in.memory_fraction = est::SglangDefaultMemoryFraction(gpu.total_bytes, in.tp, in.pp,
                                                            in.chunked_prefill,
                                                            in.cuda_graph_max_bs);
      s.Assume("gpu_memory_utilization", fmt::format("{:.3f}", in.memory_fraction),
               "SGLang's default mem_fraction_static for this GPU and TP");
    }
    if (!w.Find("max_num_seqs")) in.max_num_seqs = 256;
  } else if (in.engine == est::Engine::kVllm) {
    in.memory_fraction = s.NumberOr("gpu_memory_utilization", 0.9, "vLLM's default");
  } else {
    in.batch = static_cast<int>(s.Number("micro_batch").value_or(1));
    in.sequence_tokens = s.Number("max_seq_len").value_or(0) + s.Number("max_new_tokens").value_or(0);
    if (in.sequence_tokens <= 0) {
      in.sequence_tokens = 2048;
      s.Assume("max_seq_len", "2048", "prompt + generated tokens per sequence");
    }
    in.device_count = std::max(w.gpus, 1);
    if (auto caps = s.String("max_memory")) in.max_memory_bytes = ParseMaxMemory(*caps);
  }
  return est::EstimateServing(in);
}

// The estimate proper, once `out` holds the model and the GPU.
void EstimateResolved(const Workload& workload, const est::Quantization& quant_from_name,
                      WorkloadEstimate* out, bool explain = true) {
  const est::ModelArch& arch = out->model->arch;
  est::Breakdown breakdown =
      out->kind == WorkloadEstimate::Kind::kTraining
          ? EstimateTrainingWorkload(workload, arch, quant_from_name, *out->gpu, out, explain)
          : EstimateServingWorkload(workload, arch, quant_from_name, *out->gpu, out, explain);
  if (!out->skipped.empty()) return;
  for (const std::string& a : breakdown.assumptions) out->assumptions.push_back(a);
  out->fits = breakdown.total_high <= out->usable_bytes &&
              (breakdown.kv_cache_tokens < 0 || out->max_model_len <= 0 ||
               breakdown.kv_cache_tokens >= out->max_model_len);
  out->breakdown = std::move(breakdown);
}

// A trainer whose one process spreads the model over several GPUs with device_map (ms-swift
// without NPROC_PER_NODE): naive model parallelism, layers on different GPUs, which the training
// model does not price; read as replicas it would call a fitting job too large. True, with
// `out` saying why, when the workload is such a trainer.
bool SkipSplitTraining(const Workload& workload, WorkloadEstimate* out) {
  if (out->kind != WorkloadEstimate::Kind::kTraining || workload.gpus == 1 ||
      !workload.SpreadsOverDevices())
    return false;
  out->skipped = workload.gpus > 1
                     ? fmt::format("gpulint does not model training with the model split over "
                                   "{} GPUs by device_map (naive model parallelism)",
                                   workload.gpus)
                     : "device_map spreads the model over every visible GPU, and how many are "
                       "visible is not known (CUDA_VISIBLE_DEVICES)";
  out->unknown_inputs.emplace_back("gpus");
  return true;
}

}  // namespace

GpuResolution ResolveRunGpu(const RunConfig& config, const EstimateContext& context,
                            std::string* declared, std::string* source) {
  std::string name;
  if (!context.gpu_override.empty()) {
    name = context.gpu_override;
    *source = "--gpu";
  } else if (config.cluster.gpu && config.cluster.gpu->value.kind != Value::Kind::kNone) {
    name = config.cluster.gpu->value.ToString();
    *source = config.cluster.gpu->origin == Origin::kDirective
                  ? fmt::format("line {}", config.cluster.gpu->span.line)
                  : "the script";
  } else if (!context.gpu_default.empty()) {
    name = context.gpu_default;
    *source = "gpulint.toml";
  } else if (auto it = config.cluster.other.find("constraint"); it != config.cluster.other.end()) {
    name = it->second.value.ToString();
    *source = "#SBATCH --constraint";
  }
  *declared = name;
  if (name.empty()) {
    GpuResolution none;
    none.message = "no GPU declared (use --gpu, '# gpulint: gpu=NAME', #SBATCH --gres=gpu:TYPE:N "
                   "or gpu = \"NAME\" in gpulint.toml)";
    return none;
  }
  return context.catalog->ResolveGpu(name, context.gpu_default);
}

WorkloadEstimate EstimateWorkload(const Workload& workload, const RunConfig& config,
                                  const EstimateContext& context) {
  WorkloadEstimate out;
  out.kind = IsServingRole(workload.role) ? WorkloadEstimate::Kind::kServing
                                          : WorkloadEstimate::Kind::kTraining;
  if (workload.role == "eval") out.kind = WorkloadEstimate::Kind::kServing;
  out.assumptions = workload.assumptions;

  // A switch the framework map says gpulint does not model: no estimate, rather than one that
  // leaves it out (ktransformers' CPU experts priced as GPU weights made a false error).
  if (auto reason = workload.String("unmodelled")) {
    out.skipped = fmt::format("gpulint does not model {}", *reason);
    return out;
  }

  // A job launched with no GPU (mason.py --gpus 0 for a merge or a data step) holds no GPU
  // memory: nothing to estimate, and nothing wrong.
  if (auto per_node = workload.Number("gpus_per_node"); per_node && *per_node == 0) {
    out.skipped = "the job asks for no GPU (gpus_per_node = 0): it runs on the CPU";
    return out;
  }

  const Setting* model_setting = workload.Find("model");
  if (!model_setting || model_setting->value.kind == Value::Kind::kNone) {
    out.skipped = model_setting ? fmt::format("the model is not known ({})",
                                              model_setting->not_editable_reason)
                                : "the script does not name a model";
    return out;
  }
  out.resolution = context.catalog->ResolveModel(model_setting->value.ToString(), context.resolve);
  // A '# gpulint: model=NAME' directive names the architecture of a model the catalog cannot
  // know (a private checkpoint); it stands in only where the script's own name fails.
  if (auto directive = config.directives.find("model");
      out.resolution.status == ResolveStatus::kUnknown && directive != config.directives.end() &&
      directive->second != model_setting->value.ToString()) {
    ModelResolution stand_in = context.catalog->ResolveModel(directive->second, context.resolve);
    if (stand_in.status == ResolveStatus::kResolved) {
      stand_in.assumptions.insert(
          stand_in.assumptions.begin(),
          fmt::format("'{}' is not in the catalog; estimated as {} (the '# gpulint: model=' "
                      "directive)",
                      model_setting->value.ToString(), stand_in.entry->hf_id));
      out.resolution = std::move(stand_in);
    }
  }
  if (out.resolution.status != ResolveStatus::kResolved) {
    out.skipped = out.resolution.message;
    out.input_error = out.resolution.status == ResolveStatus::kInvalid;
    return out;
  }
  out.model = out.resolution.entry;
  for (const std::string& a : out.resolution.assumptions) out.assumptions.push_back(a);
  if (out.model->confidence != "high")
    out.assumptions.push_back(fmt::format("{}: catalog confidence {} ({})", out.model->hf_id,
                                          out.model->confidence,
                                          Join(out.model->uncertain_fields, "; ")));

  std::string declared, source;
  GpuResolution gpu = ResolveRunGpu(config, context, &declared, &source);
  if (!gpu.spec) {
    out.skipped = gpu.message;
    return out;
  }
  out.gpu = gpu.spec;
  out.gpu_declared = declared;
  out.gpu_largest_variant = gpu.largest_variant;
  for (const std::string& a : gpu.assumptions) out.assumptions.push_back(a);
  out.usable_bytes = gpu.spec->total_bytes;
  if (SkipSplitTraining(workload, &out)) return out;
  EstimateResolved(workload, out.resolution.quant_from_name, &out);
  return out;
}

WorkloadEstimate EstimateSettings(const Workload& workload, const WorkloadEstimate& resolved,
                                  bool explain) {
  WorkloadEstimate out;
  out.kind = resolved.kind;
  if (!resolved.model || !resolved.gpu) {
    out.skipped = resolved.skipped;
    return out;
  }
  out.model = resolved.model;
  out.gpu = resolved.gpu;
  out.usable_bytes = resolved.usable_bytes;
  if (SkipSplitTraining(workload, &out)) return out;
  EstimateResolved(workload, resolved.resolution.quant_from_name, &out, explain);
  return out;
}

}  // namespace gpulint
