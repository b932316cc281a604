#include "tuner/what_if.h"

#include <fmt/format.h>

#include <algorithm>

#include "estimator/units.h"
#include "lint/analysis/colocation.h"
#include "lint/reader/setting_builder.h"

namespace gpulint {

const std::optional<est::Breakdown>* WhatIfMemo::Find(const FileAnalysis& analysis, size_t index,
                                                      const Values& values) const {
  auto known = estimates_.find(std::make_tuple(&analysis, index, values));
  return known == estimates_.end() ? nullptr : &known->second;
}

const std::optional<est::Breakdown>& WhatIfMemo::Remember(const FileAnalysis& analysis,
                                                          size_t index, Values values,
                                                          std::optional<est::Breakdown> estimate) {
  return estimates_[std::make_tuple(&analysis, index, std::move(values))] = std::move(estimate);
}

WhatIf::WhatIf(const FileAnalysis& analysis, size_t workload, double headroom,
               std::map<std::string, std::string> base, std::shared_ptr<WhatIfMemo> memo,
               bool engines_asleep)
    : analysis_(analysis),
      index_(workload),
      base_(std::move(base)),
      memo_(memo ? std::move(memo) : std::make_shared<WhatIfMemo>()) {
  const WorkloadEstimate& estimate = analysis.estimates[workload];
  if (!estimate.breakdown) return;
  LiveBeside beside = LiveBesideWorkload(analysis.read.config, analysis.estimates, workload,
                                        engines_asleep);
  held_engines_ = std::move(beside.held_engines);
  limit_bytes_ = std::max(0.0, estimate.usable_bytes * (1 - headroom) - beside.bytes);
}

std::optional<double> WhatIf::TotalBytes(
    const std::map<std::string, std::string>& values) const {
  auto breakdown = Estimate(values);
  if (!breakdown) return std::nullopt;
  return breakdown->total_high;
}

std::optional<est::Breakdown> WhatIf::Estimate(
    const std::map<std::string, std::string>& values) const {
  std::map<std::string, std::string> all = base_;
  for (const auto& [name, text] : values) all[name] = text;
  if (const auto* known = memo_->Find(analysis_, index_, all)) return *known;
  Workload copy = workload();
  for (const auto& [name, text] : all) {
    Setting& setting = copy.settings[name];
    setting.name = name;
    setting.value = TypedValue(name, text);
    setting.ambiguous = false;
    if (name == "grad_ckpt") copy.settings.erase("recompute");  // one checkpointing switch
  }
  WorkloadEstimate estimate = EstimateSettings(copy, this->estimate());
  std::optional<est::Breakdown> result;
  if (estimate.breakdown && estimate.unknown_inputs.empty()) result = std::move(estimate.breakdown);
  return memo_->Remember(analysis_, index_, std::move(all), std::move(result));
}

std::string WhatIf::Outcome(const std::map<std::string, std::string>& values) const {
  auto after = Estimate(values);
  const WorkloadEstimate& e = estimate();
  if (!after || !e.breakdown) return "";
  if (e.ClaimsMemoryFraction()) {
    double length = e.max_model_len;
    if (auto it = values.find("max_model_len"); it != values.end()) length = std::stod(it->second);
    return fmt::format("the KV cache holds {:.0f} tokens, {:.1f} sequences of {:.0f}",
                       after->kv_cache_tokens, after->kv_cache_tokens / length, length);
  }
  return fmt::format("peak up to {:.1f} -> {:.1f} GiB per GPU, {:.1f} GiB allowed",
                     est::BytesToGib(e.breakdown->total_high), est::BytesToGib(after->total_high),
                     est::BytesToGib(limit_bytes_));
}

bool WhatIf::Fits(const std::map<std::string, std::string>& values) const {
  if (limit_bytes_ <= 0) return false;
  auto breakdown = Estimate(values);
  if (!breakdown) return false;
  const WorkloadEstimate& e = estimate();
  if (e.ClaimsMemoryFraction()) {
    double length = e.max_model_len;
    if (auto it = values.find("max_model_len"); it != values.end()) length = std::stod(it->second);
    return breakdown->kv_cache_tokens >= length && breakdown->total_high <= e.usable_bytes;
  }
  return breakdown->total_high <= limit_bytes_;
}

}  // namespace gpulint
