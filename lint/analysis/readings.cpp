#include "lint/analysis/readings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimator/units.h"
#include "lint/reader/setting_builder.h"

namespace gpulint {
namespace {

enum class Verdict { kFits, kMayNot, kDoesNot };

// As the memory rules judge: "does not fit" past the limit at the low end (GL101), "fits"
// within it at the high end, a range across it in between (GL113).
Verdict VerdictOf(const est::Breakdown& b, double usable_bytes) {
  if (b.total_low > usable_bytes) return Verdict::kDoesNot;
  if (b.total_high <= usable_bytes) return Verdict::kFits;
  return Verdict::kMayNot;
}

const char* Words(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFits: return "fits";
    case Verdict::kMayNot: return "may not fit";
    case Verdict::kDoesNot: return "does not fit";
  }
  return "";
}

std::string Range(const est::Breakdown& b) {
  return fmt::format("{:.1f}-{:.1f} GiB", est::BytesToGib(b.total_low),
                     est::BytesToGib(b.total_high));
}

// Written by the script itself (a flag, a variable, a config file it reads): a reading.
bool WrittenInScript(const Setting& setting) {
  return setting.origin == Origin::kLiteral || setting.origin == Origin::kVariableDefault ||
         setting.origin == Origin::kConfigFile;
}

}  // namespace

void JudgeReadings(const Workload& workload, const std::vector<ReadingSpec>& readings,
                   WorkloadEstimate* estimate) {
  if (!estimate->breakdown || estimate->usable_bytes <= 0) return;
  for (const ReadingSpec& reading : readings) {
    const Setting* setting = workload.Find(reading.setting);
    if (!setting || !WrittenInScript(*setting)) continue;
    if (!reading.value.empty() && setting->value.ToString() != reading.value) continue;
    Workload other = workload;
    std::string stated;  // the directive that states the other meaning
    for (const auto& [name, text] : reading.other) {
      Setting& changed = other.settings[name];
      changed.name = name;
      changed.value = TypedValue(name, text);
      changed.origin = Origin::kDirective;
      stated += fmt::format("{}{}={}", stated.empty() ? "" : " ", name, text);
    }
    WorkloadEstimate priced = EstimateSettings(other, *estimate);
    if (!priced.breakdown) continue;
    const std::string flag = !reading.flag.empty() ? reading.flag
                             : !setting->via.empty() ? setting->via
                                                     : reading.setting;
    const est::Breakdown& taken = *estimate->breakdown;
    const est::Breakdown& alternative = *priced.breakdown;
    // The same memory either way (a model that only generates keeps 16-bit weights under both
    // readings of --bf16): nothing to say.
    if (std::abs(taken.total_high - alternative.total_high) < 0.05 * est::kGiB &&
        std::abs(taken.total_low - alternative.total_low) < 0.05 * est::kGiB)
      continue;
    estimate->assumptions.push_back(fmt::format("{} read as {}: {}; if {}: {}", flag,
                                                reading.taken_as, Range(taken), reading.other_as,
                                                Range(alternative)));
    const Verdict as_taken = VerdictOf(taken, estimate->usable_bytes);
    const Verdict as_other = VerdictOf(alternative, estimate->usable_bytes);
    if (as_taken == as_other || !estimate->reading_decides.empty()) continue;
    if (std::find(estimate->unknown_inputs.begin(), estimate->unknown_inputs.end(),
                  reading.setting) == estimate->unknown_inputs.end())
      estimate->unknown_inputs.push_back(reading.setting);
    estimate->reading_decides = fmt::format(
        "the verdict rests on what {} means to this script: read as {} it {} ({} of {:.1f} GiB), "
        "if {} it {} ({}); state the meaning ('# gpulint: {}', or '# gpulint: {}={}' for the "
        "first) to have it judged",
        flag, reading.taken_as, Words(as_taken), Range(taken),
        est::BytesToGib(estimate->usable_bytes), reading.other_as, Words(as_other),
        Range(alternative), stated, reading.setting, setting->value.ToString());
  }
}

}  // namespace gpulint
