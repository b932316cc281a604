#include "lint/rules/rule_variables.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "estimator/param_count.h"
#include "estimator/serving.h"
#include "estimator/units.h"
#include "lint/analysis/colocation.h"
#include "lint/catalog/model_resolver.h"
#include "lint/core/setting_types.h"
#include "lint/util/strings.h"
#include "lint/util/suggest.h"

namespace gpulint {
namespace {

ExprValue FromValue(const Value& value) {
  switch (value.kind) {
    case Value::Kind::kNone: return ExprValue::Missing();
    case Value::Kind::kNumber: return ExprValue::Number(value.number);
    case Value::Kind::kBool: return ExprValue::Bool(value.boolean);
    case Value::Kind::kString: return ExprValue::String(value.text);
    case Value::Kind::kList: {
      ExprValue list;
      list.type = ExprType::kList;
      for (const std::string& item : value.list) list.list.push_back(ExprValue::String(item));
      return list;
    }
  }
  return ExprValue::Missing();
}

ExprValue Gib(double bytes) { return ExprValue::Number(est::BytesToGib(bytes)); }

// The catalog's uncertain_fields name a field first ("max_position_embeddings",
// "num_key_value_heads absent: ...", "layer_types (config default)"), or say that the whole
// entry was copied from a sibling ("every value: as recorded for ...", "all keys: from the
// base model's file"). A copy keeps the shape (post-training does not change it) but not the
// context length, which long-context stages extend.
bool UncertainField(const ModelEntry& model, std::string_view field) {
  const std::string key(field == "num_layers" ? "num_hidden_layers"
                        : field == "dtype"    ? "torch_dtype"
                                              : field);
  for (const std::string& note : model.uncertain_fields) {
    if (note.rfind(key, 0) == 0 &&
        (note.size() == key.size() || note[key.size()] == ' ' || note[key.size()] == '('))
      return true;
    const bool copied = note.rfind("every value", 0) == 0 || note.rfind("all keys", 0) == 0;
    if (copied && key == "max_position_embeddings") return true;
  }
  return false;
}

ExprValue GpuValue(const std::optional<est::GpuSpec>& gpu, std::string_view field) {
  if (!gpu) return ExprValue::Missing();
  if (field == "name") return ExprValue::String(gpu->name);
  if (field == "usable_gib" || field == "total_gib") return Gib(gpu->total_bytes);
  if (field == "fp8") return ExprValue::Bool(gpu->fp8_support);
  if (field == "bf16") return ExprValue::Bool(gpu->bf16_support);
  if (field == "arch") return ExprValue::String(gpu->arch);
  return ExprValue::Missing();
}

ExprValue ClusterValue(const FileAnalysis& analysis, std::string_view field) {
  const Cluster& cluster = analysis.read.config.cluster;
  auto from = [](const std::optional<Setting>& setting) {
    return setting ? FromValue(setting->value) : ExprValue::Missing();
  };
  if (field == "gpu") return from(cluster.gpu);
  if (field == "gpus_per_node") return from(cluster.gpus_per_node);
  if (field == "nodes") return from(cluster.nodes);
  if (field == "gpus_total") return from(cluster.gpus_total);
  return ExprValue::Missing();
}

// The estimate of `w` with the switch `name` turned on: the what-if behind a finding's advice.
WorkloadEstimate EstimateWithSwitch(const FileAnalysis& analysis, Workload w, const char* name) {
  Setting on;
  on.name = name;
  on.value = Value::Bool(true);
  w.settings[name] = on;
  return EstimateWorkload(w, analysis.read.config, analysis.context);
}

}  // namespace

const ExprSchema& RuleSchema() {
  static const ExprSchema schema = [] {
    ExprSchema s;
    for (const auto& [name, info] : SettingTypes()) {
      switch (info.type) {
        case SettingType::kInt:
        case SettingType::kNumber: s[name] = ExprType::kNumber; break;
        case SettingType::kBool: s[name] = ExprType::kBool; break;
        case SettingType::kString: s[name] = ExprType::kString; break;
        case SettingType::kList: s[name] = ExprType::kList; break;
      }
    }
    for (const char* n : {"model.num_attention_heads", "model.num_key_value_heads",
                          "model.head_dim", "model.hidden_size", "model.num_layers",
                          "model.vocab_size", "model.max_position_embeddings", "model.num_experts",
                          "model.experts_per_token", "model.params_b", "model.active_params_b",
                          "model.weights_bf16_gib"})
      s[n] = ExprType::kNumber;
    for (const char* n : {"model.name", "model.model_type", "model.dtype", "model.confidence"})
      s[n] = ExprType::kString;
    s["model.is_moe"] = s["model.is_mla"] = ExprType::kBool;
    s["gpu.name"] = s["gpu.arch"] = ExprType::kString;
    s["gpu.usable_gib"] = s["gpu.total_gib"] = ExprType::kNumber;
    s["gpu.fp8"] = s["gpu.bf16"] = ExprType::kBool;
    for (const char* n : {"est.total_gib", "est.low_gib", "est.high_gib", "est.allocated_gib",
                          "est.reserved_gib",
                          "est.weights_gib", "est.gradients_gib", "est.optimizer_gib",
                          "est.activations_gib", "est.logits_gib", "est.kv_cache_gib",
                          "est.overhead_gib", "est.kv_cache_tokens", "est.kv_cache_tokens_high",
                          "est.max_concurrency",
                          "est.margin_gib", "est.weights_4bit_gib", "est.with_grad_ckpt_high_gib",
                          "est.without_offload_total_gib",
                          "est.offloaded_gib", "est.requested_gib", "est.max_model_len"})
      s[n] = ExprType::kNumber;
    s["est.fits"] = ExprType::kBool;
    s["est.peak_phase"] = s["est.offload_advice"] = s["est.why_note"] = ExprType::kString;
    s["est.allocator_note"] = ExprType::kString;
    for (const char* n : {"workload.role", "workload.framework", "workload.engine",
                          "workload.model_ref", "workload.skipped", "workload.suggestions",
                          "workload.undecided", "workload.reading_decides",
                          "workload.readings_note", "workload.unmet_bound",
                          "workload.unmet_bound_sum", "workload.unmet_bound_source",
                          "workload.unmet_bound_text"})
      s[n] = ExprType::kString;
    for (const char* n : {"workload.unmet_bound_value", "workload.unmet_bound_factor",
                          "workload.unmet_bound_needed"})
      s[n] = ExprType::kNumber;
    s["workload.quant"] = ExprType::kString;
    for (const char* n : {"workload.gpus", "workload.dp", "workload.visible_devices",
                          "workload.line", "workload.tp", "workload.attention_tp",
                          "workload.model_parallel", "workload.expert_model_parallel"})
      s[n] = ExprType::kNumber;
    s["workload.shares_gpus"] = s["workload.devices_assumed"] = ExprType::kBool;
    s["workload.gpus_shared"] = ExprType::kBool;
    s["cluster.gpu"] = ExprType::kString;
    s["cluster.gpus_per_node"] = s["cluster.nodes"] = s["cluster.gpus_total"] = ExprType::kNumber;
    s["config.headroom"] = ExprType::kNumber;
    for (const char* n : {"file.gpus_requested", "file.gpus_used", "file.highest_device",
                          "file.workloads", "file.estimated"})
      s[n] = ExprType::kNumber;
    s["file.devices_assumed"] = ExprType::kBool;
    s["file.gpu_problem"] = s["file.gpu_declared"] = ExprType::kString;
    for (const char* n : {"device.id", "device.count", "device.total_gib", "device.low_gib",
                          "device.high_gib", "device.fraction_sum", "device.workloads",
                          "device.engines", "device.largest_workload_gib",
                          "device.largest_workload_low_gib", "device.largest_workload_high_gib"})
      s[n] = ExprType::kNumber;
    s["device.names"] = s["device.ids"] = s["device.label"] = ExprType::kString;
    s["unresolved.name"] = s["unresolved.reason"] = ExprType::kString;
    s["invalid.name"] = s["invalid.value"] = s["invalid.reason"] = ExprType::kString;
    s["notice.message"] = ExprType::kString;
    s["suppression.id"] = ExprType::kString;
    return s;
  }();
  return schema;
}

FileFacts ComputeFileFacts(const FileAnalysis& analysis) {
  FileFacts facts;
  const RunConfig& config = analysis.read.config;
  if (config.cluster.gpus_per_node && config.cluster.gpus_per_node->value.is_number()) {
    facts.gpus_requested = config.cluster.gpus_per_node->value.number;
  } else if (config.cluster.gpus_total && config.cluster.gpus_total->value.is_number()) {
    double nodes = config.cluster.nodes && config.cluster.nodes->value.is_number()
                       ? config.cluster.nodes->value.number
                       : 1;
    facts.gpus_requested = config.cluster.gpus_total->value.number / std::max(nodes, 1.0);
  }
  std::set<int> devices;
  for (const Workload& w : config.workloads) {
    for (int d : w.devices) devices.insert(d);
    facts.devices_assumed = facts.devices_assumed || w.devices_assumed;
  }
  facts.gpus_used = static_cast<double>(devices.size());
  facts.highest_device = devices.empty() ? -1 : *devices.rbegin();
  return facts;
}

// Weights device_map placement put in CPU memory or on disk.
double OffloadedBytes(const est::Breakdown& b) {
  for (const est::Term& term : b.terms)
    if (term.name == "offloaded to CPU/disk") return term.bytes;
  return 0;
}

// The same job with everything on the GPU, in GiB at the high end: nullopt unless that fits,
// within the headroom for a trainer (an engine's budget is its own fraction of the GPU; there
// the KV cache must hold a sequence).
std::optional<double> WithoutOffloadGib(const FileAnalysis& analysis, const Workload& w,
                                        double headroom) {
  Workload copy = w;
  copy.settings.erase("offload");
  copy.settings.erase("cpu_offload_gb");
  WorkloadEstimate what_if = EstimateWorkload(copy, analysis.read.config, analysis.context);
  if (!what_if.breakdown || !what_if.unknown_inputs.empty() || !what_if.fits) return std::nullopt;
  if (what_if.kind == WorkloadEstimate::Kind::kTraining &&
      what_if.breakdown->total_high > what_if.usable_bytes * (1 - headroom))
    return std::nullopt;
  return est::BytesToGib(what_if.breakdown->total_high);
}

ExprLookup WorkloadLookup(const FileAnalysis& analysis, size_t index, double headroom) {
  return [&analysis, index, headroom](const std::string& name) -> ExprValue {
    const Workload& w = analysis.read.config.workloads[index];
    const WorkloadEstimate& e = analysis.estimates[index];
    if (StartsWith(name, "written:")) {
      const Setting* setting = w.Find(std::string_view(name).substr(8));
      return ExprValue::Bool(setting && setting->origin != Origin::kFrameworkDefault &&
                             setting->origin != Origin::kCommandLine);
    }
    size_t dot = name.find('.');
    if (dot == std::string::npos) {
      const Setting* setting = w.Find(name);
      if (!setting || setting->ambiguous) return ExprValue::Missing();
      return FromValue(setting->value);
    }
    std::string_view space = std::string_view(name).substr(0, dot);
    std::string_view field = std::string_view(name).substr(dot + 1);
    if (space == "config" && field == "headroom") return ExprValue::Number(headroom);
    if (space == "cluster") return ClusterValue(analysis, field);
    if (space == "gpu") return GpuValue(e.gpu, field);
    if (space == "workload") {
      if (field == "role") return ExprValue::String(w.role);
      if (field == "framework") return ExprValue::String(w.framework);
      if (field == "engine")
        return e.engine.empty() ? ExprValue::Missing() : ExprValue::String(e.engine);
      if (field == "gpus") return w.gpus > 0 ? ExprValue::Number(w.gpus) : ExprValue::Missing();
      if (field == "dp") {
        double parallel = w.Number("tp").value_or(1) * w.Number("pp").value_or(1) *
                          w.Number("cp").value_or(1);
        if (w.gpus <= 0) return ExprValue::Missing();
        return ExprValue::Number(std::floor(w.gpus / parallel));
      }
      if (field == "visible_devices")
        return w.visible_devices > 0 ? ExprValue::Number(w.visible_devices)
                                     : ExprValue::Missing();
      if (field == "line") return ExprValue::Number(w.command_span.line);
      // The first bound the framework asserts (its map's [[at_least]]) that the values miss.
      if (field.rfind("unmet_bound", 0) == 0) {
        const UnmetBound* miss = nullptr;
        for (const UnmetBound& b : w.unmet_bounds)
          if (b.refuses && !miss) miss = &b;
        if (!miss) return ExprValue::Missing();
        if (field == "unmet_bound") return ExprValue::String(miss->setting);
        if (field == "unmet_bound_value") return ExprValue::Number(miss->value);
        if (field == "unmet_bound_factor") return ExprValue::Number(miss->factor);
        if (field == "unmet_bound_needed") return ExprValue::Number(miss->needed);
        if (field == "unmet_bound_sum") return ExprValue::String(miss->sum);
        if (field == "unmet_bound_source") return ExprValue::String(miss->source);
        // "max_tokens_per_gpu 8192 x cp 2 is below max_prompt_len + max_response_len = 20480"
        if (field == "unmet_bound_text")
          return ExprValue::String(fmt::format(
              "{} {}{} is below {} = {}", miss->setting, miss->value,
              miss->factor > 1 ? fmt::format(" x {} {}", miss->factors, miss->factor) : "",
              miss->sum,
              miss->needed));
      }
      // A rollout engine's TP is rollout_tp.
      const double tp = (w.role == "rollout" && w.Number("rollout_tp") ? w.Number("rollout_tp")
                                                                       : w.Number("tp"))
                            .value_or(1);
      if (field == "tp") return ExprValue::Number(tp);
      if (field == "attention_tp") {
        // SGLang's DP attention runs attention data-parallel inside the TP group: each rank's
        // attention spans tp / dp ranks (python/sglang/srt/layers/dp_attention.py
        // compute_dp_attention_world_info: attn_tp_size = tp_size // dp_size).
        if (w.Bool("dp_attention").value_or(false))
          return ExprValue::Number(
              std::max(1.0, std::floor(tp / std::max(w.Number("dp").value_or(1), 1.0))));
        return ExprValue::Number(tp);
      }
      if (field == "expert_model_parallel")  // ETP x EP x PP; ETP defaults to TP (Megatron)
        return ExprValue::Number(w.Number("etp").value_or(w.Number("tp").value_or(1)) *
                                 w.Number("ep").value_or(1) * w.Number("pp").value_or(1));
      if (field == "model_parallel")  // TP x PP x CP, a rollout engine's TP its own
        return ExprValue::Number(tp * w.Number("pp").value_or(1) * w.Number("cp").value_or(1));
      if (field == "quant") {
        if (auto q = w.String("quant")) return ExprValue::String(*q);
        if (e.resolution.quant_from_name.format != est::WeightFormat::kDefault)
          return ExprValue::String(WeightFormatName(e.resolution.quant_from_name.format));
        if (e.model && e.model->arch.checkpoint_quant.format != est::WeightFormat::kDefault)
          return ExprValue::String(WeightFormatName(e.model->arch.checkpoint_quant.format));
        return ExprValue::String("none");
      }
      if (field == "shares_gpus") return ExprValue::Bool(w.shares_process_gpus);
      // Something else holds memory on its GPUs while it runs (lint/analysis/colocation.h).
      if (field == "gpus_shared")
        return ExprValue::Bool(
            LiveBesideWorkload(analysis.read.config, analysis.estimates, index).bytes > 0);
      if (field == "devices_assumed") return ExprValue::Bool(w.devices_assumed);
      if (field == "model_ref") {
        const Setting* model = w.Find("model");
        return model && model->value.kind != Value::Kind::kNone
                   ? ExprValue::String(model->value.ToString())
                   : ExprValue::Missing();
      }
      if (field == "skipped")
        return e.skipped.empty() ? ExprValue::Missing() : ExprValue::String(e.skipped);
      if (field == "undecided")
        return e.undecided.empty() ? ExprValue::Missing() : ExprValue::String(e.undecided);
      if (field == "reading_decides")
        return e.reading_decides.empty() ? ExprValue::Missing()
                                         : ExprValue::String(e.reading_decides);
      // The readings that moved the estimate but not the verdict, for a message's end ("" when
      // none): a finding says what its numbers rest on.
      if (field == "readings_note") {
        std::string note;
        for (const std::string& line : e.readings) note += "; " + line;
        return ExprValue::String(note);
      }
      if (field == "suggestions") {
        return ExprValue::String(DidYouMean(e.resolution.suggestions));
      }
      return ExprValue::Missing();
    }
    if (space == "model") {
      if (!e.model) return ExprValue::Missing();
      // A value the catalog marks uncertain (read from a copy, or assumed where config.json
      // is silent) is not judged: the estimate uses it, a rule does not fire on it.
      if (UncertainField(*e.model, field)) return ExprValue::Missing();
      const est::ModelArch& m = e.model->arch;
      if (field == "name") return ExprValue::String(e.model->hf_id);
      if (field == "model_type") return ExprValue::String(m.model_type);
      if (field == "dtype")
        return e.model->dtype_recorded ? ExprValue::String(m.dtype) : ExprValue::Missing();
      if (field == "confidence") return ExprValue::String(e.model->confidence);
      if (field == "num_attention_heads") return ExprValue::Number(m.num_attention_heads);
      if (field == "num_key_value_heads") return ExprValue::Number(m.num_kv_heads);
      if (field == "is_mla") return ExprValue::Bool(m.is_mla());
      if (field == "head_dim") return ExprValue::Number(m.head_dim);
      if (field == "hidden_size") return ExprValue::Number(m.hidden_size);
      if (field == "num_layers") return ExprValue::Number(m.num_layers);
      if (field == "vocab_size") return ExprValue::Number(m.vocab_size);
      if (field == "max_position_embeddings")
        return m.max_position_embeddings > 0 ? ExprValue::Number(m.max_position_embeddings)
                                             : ExprValue::Missing();
      if (field == "num_experts")
        return m.is_moe() ? ExprValue::Number(m.num_experts) : ExprValue::Missing();
      if (field == "experts_per_token")
        return m.is_moe() ? ExprValue::Number(m.experts_per_token) : ExprValue::Missing();
      if (field == "is_moe") return ExprValue::Bool(m.is_moe());
      est::ParamBreakdown params = est::CountParams(m);
      if (field == "params_b") return ExprValue::Number(params.Total() / 1e9);
      if (field == "active_params_b") return ExprValue::Number(params.TextActive(m) / 1e9);
      if (field == "weights_bf16_gib") return Gib(2 * params.Total());
      return ExprValue::Missing();
    }
    if (space == "est") {
      // An estimate that stands on a guessed value proves nothing either way (GL005 reports
      // the value); `gpulint estimate` still shows it with the assumption.
      if (!e.breakdown || !e.unknown_inputs.empty()) return ExprValue::Missing();
      const est::Breakdown& b = *e.breakdown;
      if (field == "total_gib") return Gib(b.total);
      if (field == "low_gib") return Gib(b.total_low);
      if (field == "high_gib") return Gib(b.total_high);
      if (field == "allocated_gib") return Gib(b.torch_allocated);
      if (field == "reserved_gib") return Gib(b.torch_reserved);
      if (field == "weights_gib") return Gib(b.weights);
      if (field == "gradients_gib") return Gib(b.gradients);
      if (field == "optimizer_gib") return Gib(b.optimizer);
      if (field == "activations_gib") return Gib(b.activations);
      if (field == "logits_gib") return Gib(b.logits);
      if (field == "kv_cache_gib") return Gib(b.kv_cache);
      if (field == "overhead_gib") return Gib(b.overhead);
      if (field == "margin_gib") return Gib(e.usable_bytes - b.total_high);
      if (field == "fits") return ExprValue::Bool(e.fits);
      if (field == "peak_phase") return ExprValue::String(b.peak_phase);
      if (field == "why_note") return ExprValue::String(b.why.empty() ? "" : "; " + b.why);
      if (field == "requested_gib")
        return b.requested > 0 ? Gib(b.requested) : ExprValue::Missing();
      if (field == "max_model_len")
        return e.max_model_len > 0 ? ExprValue::Number(e.max_model_len) : ExprValue::Missing();
      if (field == "kv_cache_tokens")
        return b.kv_cache_tokens >= 0 ? ExprValue::Number(b.kv_cache_tokens) : ExprValue::Missing();
      if (field == "kv_cache_tokens_high")
        return b.kv_cache_tokens_high >= 0 ? ExprValue::Number(b.kv_cache_tokens_high)
                                           : ExprValue::Missing();
      if (field == "max_concurrency")
        return b.max_concurrency >= 0 ? ExprValue::Number(b.max_concurrency) : ExprValue::Missing();
      if (field == "offloaded_gib") return Gib(OffloadedBytes(b));
      if (field == "weights_4bit_gib") {
        // The smallest the weights get: 4-bit (GPTQ/AWQ int4, group 128) over all its GPUs.
        est::Quantization int4;
        int4.format = est::WeightFormat::kGptqInt4;
        double bytes = est::ServingWeightBytes(e.model->arch, int4, 1, 1, 1);
        return Gib(bytes / std::max(w.gpus, 1));
      }
      if (field == "with_grad_ckpt_high_gib") {
        if (e.kind != WorkloadEstimate::Kind::kTraining) return ExprValue::Missing();
        Workload copy = w;
        copy.settings.erase("recompute");
        WorkloadEstimate what_if = EstimateWithSwitch(analysis, copy, "grad_ckpt");
        return what_if.breakdown ? Gib(what_if.breakdown->total_high) : ExprValue::Missing();
      }
      if (field == "allocator_note") {
        // What expandable segments would make of the high end, for a trainer whose allocator
        // runs without them ("" otherwise): the fix that narrows the range (overhead.h).
        if (e.kind != WorkloadEstimate::Kind::kTraining) return ExprValue::String("");
        if (const Setting* set = w.Find("expandable_segments");
            set && set->value.is_bool() && set->value.boolean)
          return ExprValue::String("");
        WorkloadEstimate what_if = EstimateWithSwitch(analysis, w, "expandable_segments");
        if (!what_if.breakdown) return ExprValue::String("");
        const double high = what_if.breakdown->total_high;
        // A run whose state is nearly all its memory has its typical slack at the high end
        // already: the segments would not move it (as printed, to a tenth of a GiB).
        if (e.breakdown && high > e.breakdown->total_high - est::GibToBytes(0.05))
          return ExprValue::String("");
        return ExprValue::String(fmt::format(
            "; with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True the high end is {:.1f} GiB{}",
            est::BytesToGib(high), high <= e.usable_bytes ? ", which fits" : ""));
      }
      if (field == "offload_advice") {
        // CPU offload worth a finding: placement that spills silently (device_map past
        // max_memory), or an offload setting the GPU could do without. Offload that makes the
        // job fit is the price of fitting.
        if (double spilled = OffloadedBytes(b); spilled > 0.01 * est::kGiB)
          return ExprValue::String(fmt::format(
              "device_map placed {:.1f} GiB of it there, past what the GPUs may hold",
              est::BytesToGib(spilled)));
        bool offloads = false;
        if (const Setting* offload = w.Find("offload"))
          offloads = offload->value.kind == Value::Kind::kList ? !offload->value.list.empty()
                                                               : !offload->value.ToString().empty();
        if (const Setting* gb = w.Find("cpu_offload_gb"))
          offloads = offloads || (gb->value.is_number() && gb->value.number > 0);
        if (!offloads) return ExprValue::Missing();
        auto without = WithoutOffloadGib(analysis, w, headroom);
        if (!without) return ExprValue::Missing();
        return ExprValue::String(fmt::format(
            "the offload is not needed: with everything on the GPU it needs {:.1f} GiB and fits {}",
            *without, e.gpu ? e.gpu->name : std::string("the GPU")));
      }
      if (field == "without_offload_total_gib") {
        auto gib = WithoutOffloadGib(analysis, w, headroom);
        return gib ? ExprValue::Number(*gib) : ExprValue::Missing();
      }
      return ExprValue::Missing();
    }
    return ExprValue::Missing();
  };
}

ExprLookup FileLookup(const FileAnalysis& analysis, const FileFacts& facts, double headroom) {
  return [&analysis, facts, headroom](const std::string& name) -> ExprValue {
    size_t dot = name.find('.');
    if (dot == std::string::npos) return ExprValue::Missing();
    std::string_view space = std::string_view(name).substr(0, dot);
    std::string_view field = std::string_view(name).substr(dot + 1);
    if (space == "config" && field == "headroom") return ExprValue::Number(headroom);
    if (space == "cluster") return ClusterValue(analysis, field);
    if (space == "gpu") return GpuValue(analysis.gpu.spec, field);
    if (space == "file") {
      if (field == "gpus_requested")
        return facts.gpus_requested >= 0 ? ExprValue::Number(facts.gpus_requested)
                                         : ExprValue::Missing();
      if (field == "gpus_used") return ExprValue::Number(facts.gpus_used);
      if (field == "highest_device") return ExprValue::Number(facts.highest_device);
      if (field == "devices_assumed") return ExprValue::Bool(facts.devices_assumed);
      if (field == "workloads")
        return ExprValue::Number(static_cast<double>(analysis.read.config.workloads.size()));
      if (field == "estimated") {
        double count = 0;
        for (const WorkloadEstimate& e : analysis.estimates) count += e.breakdown ? 1 : 0;
        return ExprValue::Number(count);
      }
      if (field == "gpu_problem")
        return analysis.gpu.spec ? ExprValue::Missing() : ExprValue::String(analysis.gpu.message);
      if (field == "gpu_declared")
        return analysis.gpu_declared.empty() ? ExprValue::Missing()
                                             : ExprValue::String(analysis.gpu_declared);
    }
    return ExprValue::Missing();
  };
}

namespace {

// "0-3, 6": sorted device ids with runs collapsed.
std::string DeviceRanges(const std::vector<int>& devices) {
  std::string out;
  for (size_t i = 0; i < devices.size();) {
    size_t j = i;
    while (j + 1 < devices.size() && devices[j + 1] == devices[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    if (j > i + 1) out += fmt::format("{}-{}", devices[i], devices[j]);
    else if (j == i) out += fmt::format("{}", devices[i]);
    else out += fmt::format("{}, {}", devices[i], devices[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

ExprLookup DeviceLookup(const FileAnalysis& analysis, const DeviceLoad& load,
                        const std::vector<int>& devices, double headroom) {
  return [&analysis, &load, &devices, headroom](const std::string& name) -> ExprValue {
    size_t dot = name.find('.');
    if (dot == std::string::npos) return ExprValue::Missing();
    std::string_view space = std::string_view(name).substr(0, dot);
    std::string_view field = std::string_view(name).substr(dot + 1);
    if (space == "config" && field == "headroom") return ExprValue::Number(headroom);
    if (space == "gpu") return GpuValue(analysis.gpu.spec, field);
    if (space != "device") return ExprValue::Missing();
    const RunConfig& config = analysis.read.config;
    // The workloads live together at the device's peak (all of them when none has an estimate).
    const std::vector<int>& live =
        load.peak_workloads.empty() ? load.workloads : load.peak_workloads;
    if (field == "id") return ExprValue::Number(load.device);
    if (field == "ids") return ExprValue::String(DeviceRanges(devices));
    if (field == "label")  // "GPU 3", "GPUs 0-7"
      return ExprValue::String((devices.size() == 1 ? "GPU " : "GPUs ") + DeviceRanges(devices));
    if (field == "count") return ExprValue::Number(static_cast<double>(devices.size()));
    if (field == "largest_workload_gib" || field == "largest_workload_low_gib" ||
        field == "largest_workload_high_gib") {
      double largest = 0;
      for (int index : live)
        if (const auto& b = analysis.estimates[static_cast<size_t>(index)].breakdown)
          largest = std::max(largest, field == "largest_workload_low_gib"    ? b->total_low
                                      : field == "largest_workload_high_gib" ? b->total_high
                                                                             : b->total);
      return Gib(largest);
    }
    bool guessed = false;  // a workload's estimate stands on a value the script leaves unknown
    bool data_only = true;   // ... and each such value is a length the data decides
    bool from_data = false;  // a workload's step is as large as the data's sequences
    for (int index : live) {
      const WorkloadEstimate& e = analysis.estimates[static_cast<size_t>(index)];
      from_data = from_data || e.size_from_data;
      for (const std::string& input : e.unknown_inputs) {
        guessed = true;
        data_only = data_only && (input == "max_seq_len" || input == "max_prompt_len" ||
                                  input == "data_seq_len");
      }
    }
    if (field == "total_gib" || field == "low_gib" || field == "high_gib") {
      // Where the steps' sizes are the data's, their sum at the longest sequences is no
      // verdict (as a workload alone is judged, GL008); what the workloads hold whatever the
      // data (weights, optimizer states, an engine's budget) is still a floor (GL104's "at
      // least") and the range judged.
      if (load.shared && (from_data || guessed) && data_only && field != "total_gib")
        return Gib(field == "low_gib" ? load.held_low_bytes : load.held_high_bytes);
      if (!load.shared || guessed) return ExprValue::Missing();
      return Gib(field == "low_gib" ? load.low_bytes : field == "high_gib" ? load.high_bytes
                                                                          : load.bytes);
    }
    if (field == "workloads") return ExprValue::Number(static_cast<double>(live.size()));
    if (field == "fraction_sum" || field == "engines") {
      // Engines that claim a fraction of the whole GPU, in processes running at the same time.
      double sum = 0, engines = 0;
      std::set<int> processes;
      for (int index : live) {
        const Workload& w = config.workloads[static_cast<size_t>(index)];
        const WorkloadEstimate& e = analysis.estimates[static_cast<size_t>(index)];
        if (!e.ClaimsMemoryFraction()) continue;
        auto fraction = w.Number("gpu_memory_utilization");
        if (!fraction || !processes.insert(w.process).second) continue;
        bool concurrent = false;
        for (int other : live) {
          const Workload& o = config.workloads[static_cast<size_t>(other)];
          if (o.process == w.process) continue;
          concurrent = concurrent || std::find(w.concurrent_processes.begin(),
                                               w.concurrent_processes.end(),
                                               o.process) != w.concurrent_processes.end();
        }
        if (!concurrent && live.size() > 1) continue;
        sum += *fraction;
        engines += 1;
      }
      return field == "fraction_sum" ? ExprValue::Number(sum) : ExprValue::Number(engines);
    }
    if (field == "names") {
      std::string names;
      for (int index : live) {
        const Workload& w = config.workloads[static_cast<size_t>(index)];
        names += fmt::format("{}{} (line {})", names.empty() ? "" : " + ", w.role,
                             w.command_span.line);
      }
      return ExprValue::String(names);
    }
    return ExprValue::Missing();
  };
}

ExprLookup UnresolvedLookup(const Unresolved& unresolved) {
  return [&unresolved](const std::string& name) -> ExprValue {
    if (name == "unresolved.name") return ExprValue::String(unresolved.name);
    if (name == "unresolved.reason") return ExprValue::String(unresolved.reason);
    return ExprValue::Missing();
  };
}

ExprLookup NoticeLookup(const Notice& notice) {
  return [&notice](const std::string& name) -> ExprValue {
    if (name == "notice.message") return ExprValue::String(notice.message);
    return ExprValue::Missing();
  };
}

ExprLookup InvalidLookup(const InvalidValue& invalid) {
  return [&invalid](const std::string& name) -> ExprValue {
    if (name == "invalid.name") return ExprValue::String(invalid.name);
    if (name == "invalid.value") return ExprValue::String(invalid.value);
    if (name == "invalid.reason") return ExprValue::String(invalid.reason);
    return ExprValue::Missing();
  };
}

}  // namespace gpulint
