#include "lint/analysis/readings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimator/units.h"
#include "lint/reader/setting_builder.h"

namespace gpulint {
namespace {

// kMayNot also holds a verdict the data decides (a sequence length no flag sets): neither
// "fits" nor "does not fit" can be said of it.
enum class Verdict { kFits, kMayNot, kDoesNot };

// As the memory rules judge: "does not fit" past the limit at the low end (GL101), "fits"
// within it at the high end, a range across it in between (GL113), and no verdict where a value
// the data decides flips it.
Verdict VerdictOf(const WorkloadEstimate& e) {
  if (!e.undecided.empty()) return Verdict::kMayNot;
  if (e.breakdown->total_low > e.usable_bytes) return Verdict::kDoesNot;
  if (e.breakdown->total_high <= e.usable_bytes) return Verdict::kFits;
  return Verdict::kMayNot;
}

std::string Words(const WorkloadEstimate& e) {
  if (!e.undecided.empty()) return "depends on the data";
  switch (VerdictOf(e)) {
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

// What an estimate says in a few words: its range, or up to what the data fits where the data
// decides.
std::string Outcome(const WorkloadEstimate& e) {
  return e.undecided_bound.empty() ? Range(*e.breakdown) : e.undecided_bound;
}

// Whether two estimates say the same: their ranges within 0.05 GiB, and the data deciding alike.
bool Same(const WorkloadEstimate& a, const WorkloadEstimate& b) {
  return std::abs(a.breakdown->total_high - b.breakdown->total_high) < 0.05 * est::kGiB &&
         std::abs(a.breakdown->total_low - b.breakdown->total_low) < 0.05 * est::kGiB &&
         a.undecided == b.undecided;
}

// Written by the script itself (a flag, a variable, a config file it reads): a reading.
bool WrittenInScript(const Setting& setting) {
  return setting.origin == Origin::kLiteral || setting.origin == Origin::kVariableDefault ||
         setting.origin == Origin::kConfigFile;
}

// Whether `reading` holds for `workload`: the flag is written as the reading says (or, for an
// unset reading, left out or at the map's default; for an unpinned one, with no release
// pinned), and the meaning is not stated some other way.
bool Holds(const ReadingSpec& reading, const Workload& workload) {
  const Setting* setting = workload.Find(reading.setting);
  if (reading.unpinned && workload.release_pinned) return false;
  if (reading.unset) {
    if (setting && setting->origin != Origin::kFrameworkDefault) return false;
  } else {
    if (!setting || !WrittenInScript(*setting)) return false;
    if (!reading.value.empty() && setting->value.ToString() != reading.value) return false;
    if (!reading.flags.empty() && std::find(reading.flags.begin(), reading.flags.end(),
                                            setting->written_as) == reading.flags.end())
      return false;
  }
  // A meaning stated by a directive, gpulint.toml or --set (`batch_scope=per_device`) settles
  // it: the project has said what the flag does.
  for (const auto& [name, text] : reading.other)
    if (name != reading.setting && workload.Find(name)) return false;
  return true;
}

// Settings as a directive writes them: "batch_scope=global optimizer=adamw_8bit".
std::string Directive(const std::vector<std::pair<std::string, std::string>>& settings) {
  std::string out;
  for (const auto& [name, text] : settings)
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", name, text);
  return out;
}

// The directive that states the map's meaning: its `taken` settings, else the setting's value.
std::string StatedAsTaken(const ReadingSpec& reading, const Workload& workload) {
  if (!reading.taken.empty()) return Directive(reading.taken);
  const Setting* setting = workload.Find(reading.setting);
  return fmt::format("{}={}", reading.setting,
                     reading.unset || !setting ? reading.value : setting->value.ToString());
}

// The workload under `reading`'s other meaning.
void ApplyOther(const ReadingSpec& reading, Workload* workload) {
  for (const auto& [name, text] : reading.other) {
    Setting& changed = workload->settings[name];
    changed.name = name;
    changed.value = TypedValue(name, text);
    changed.origin = Origin::kDirective;
  }
}

// How the flag is named to people: as the reading names it, else as the script wrote it.
std::string FlagOf(const ReadingSpec& reading, const Workload& workload) {
  if (!reading.flag.empty()) return reading.flag;
  const Setting* setting = workload.Find(reading.setting);
  if (setting && !setting->written_as.empty()) return setting->written_as;
  return setting && !setting->via.empty() ? setting->via : reading.setting;
}

void Decide(WorkloadEstimate* estimate, const std::string& setting, std::string why) {
  if (std::find(estimate->unknown_inputs.begin(), estimate->unknown_inputs.end(), setting) ==
      estimate->unknown_inputs.end())
    estimate->unknown_inputs.push_back(setting);
  estimate->reading_setting = setting;
  estimate->reading_decides = std::move(why);
}

}  // namespace

void ApplyStatedMeanings(const std::vector<ReadingSpec>& readings,
                         const std::map<std::string, std::string>& stated,
                         const std::string& where, Workload* workload) {
  if (stated.empty()) return;
  for (const ReadingSpec& reading : readings) {
    if (!Holds(reading, *workload)) continue;
    // The reading's settings, each with its two meanings.
    std::map<std::string, std::vector<std::string>> meanings;
    for (const auto& [name, text] : reading.other) meanings[name].push_back(text);
    for (const auto& [name, text] : reading.taken) meanings[name].push_back(text);
    if (reading.taken.empty() && !reading.value.empty())
      meanings[reading.setting].push_back(reading.value);
    for (const auto& [name, values] : meanings) {
      auto it = stated.find(name);
      if (it == stated.end()) continue;
      const bool meaning =
          reading.unset || std::find(values.begin(), values.end(), it->second) != values.end();
      if (!meaning) continue;
      Setting& setting = workload->settings[name];
      setting.name = name;
      setting.value = TypedValue(name, it->second);
      setting.origin = Origin::kDirective;
      setting.via = where;
      setting.editable = false;
      setting.not_editable_reason = "stated in gpulint.toml [generic]";
    }
  }
}

void JudgeReadings(const Workload& workload, const std::vector<ReadingSpec>& readings,
                   WorkloadEstimate* estimate) {
  if (!estimate->breakdown || estimate->usable_bytes <= 0) return;
  const Verdict as_taken = VerdictOf(*estimate);
  std::vector<const ReadingSpec*> holding;  // for the joint check below
  for (const ReadingSpec& reading : readings) {
    if (!Holds(reading, workload)) continue;
    holding.push_back(&reading);
    Workload other = workload;
    ApplyOther(reading, &other);
    WorkloadEstimate priced = EstimateSettings(other, *estimate, /*explain=*/true);
    // The same memory either way (a model that only generates keeps 16-bit weights under both
    // readings of --bf16; one process holds the whole batch under both readings of
    // --batch-size): nothing to say.
    if (!priced.breakdown || Same(priced, *estimate)) continue;
    const std::string flag = FlagOf(reading, workload);
    estimate->readings.push_back(fmt::format("{} read as {}: {}; if {}: {}", flag,
                                             reading.taken_as, Outcome(*estimate),
                                             reading.other_as, Outcome(priced)));
    estimate->assumptions.push_back(estimate->readings.back());
    if (as_taken == VerdictOf(priced) || !estimate->reading_decides.empty()) continue;
    Decide(estimate, reading.setting,
           fmt::format("the verdict rests on what {} means to this script: read as {} it {} "
                       "({} of {:.1f} GiB), if {} it {} ({}); state the meaning ('# gpulint: "
                       "{}', or '# gpulint: {}' for the first) to have it judged",
                       flag, reading.taken_as, Words(*estimate), Outcome(*estimate),
                       est::BytesToGib(estimate->usable_bytes), reading.other_as,
                       Words(priced), Outcome(priced), Directive(reading.other),
                       StatedAsTaken(reading, workload)));
  }
  // No one reading decides, but together they may: `--bf16` as bf16 weights and `--batch-size`
  // as a global batch each leave the job out of memory and both at once fit it. An error then
  // still rests on readings the script has not stated. A reading that leaves the verdict alone
  // may still be needed beside the others, so all are priced together, and those whose removal
  // changes the joint estimate are named.
  if (!estimate->reading_decides.empty() || holding.size() < 2) return;
  auto joint = [&](const ReadingSpec* left_out) {
    Workload other = workload;
    for (const ReadingSpec* reading : holding)
      if (reading != left_out) ApplyOther(*reading, &other);
    return EstimateSettings(other, *estimate, /*explain=*/true);
  };
  WorkloadEstimate priced = joint(nullptr);
  if (!priced.breakdown || VerdictOf(priced) == as_taken) return;
  std::string stated, as_read, flags;
  const ReadingSpec* first = nullptr;
  for (const ReadingSpec* reading : holding) {
    WorkloadEstimate without = joint(reading);
    if (without.breakdown && Same(without, priced)) continue;
    if (!first) first = reading;
    stated += (stated.empty() ? "" : " ") + Directive(reading->other);
    as_read += (as_read.empty() ? "" : " ") + StatedAsTaken(*reading, workload);
    flags += fmt::format("{}{}", flags.empty() ? "" : ", ", FlagOf(*reading, workload));
  }
  if (!first) return;
  Decide(estimate, first->setting,
         fmt::format("the verdict rests on what {} mean to this script: as read it {} ({} of "
                     "{:.1f} GiB), under their other meanings together it {} ({}); state the "
                     "meanings ('# gpulint: {}', or '# gpulint: {}' as read) to have it judged",
                     flags, Words(*estimate), Outcome(*estimate),
                     est::BytesToGib(estimate->usable_bytes), Words(priced), Outcome(priced),
                     stated, as_read));
}

void JudgeGpuSize(const Workload& workload, WorkloadEstimate* estimate) {
  if (!estimate->gpu_largest_variant || !estimate->breakdown || estimate->usable_bytes <= 0 ||
      !estimate->reading_decides.empty())
    return;
  // Re-estimated, not only re-judged: an engine's budget is a fraction of the GPU it runs on.
  WorkloadEstimate on_largest = *estimate;
  on_largest.gpu = estimate->gpu_largest_variant;
  on_largest.usable_bytes = estimate->gpu_largest_variant->total_bytes;
  WorkloadEstimate priced = EstimateSettings(workload, on_largest, /*explain=*/true);
  if (!priced.breakdown || VerdictOf(priced) == VerdictOf(*estimate)) return;
  const std::string& small = estimate->gpu->name;
  const std::string& large = priced.gpu->name;
  Decide(estimate, "gpu",
         fmt::format("the verdict rests on which {} this is: on {} it {} ({} of {:.1f} GiB), on "
                     "{} it {} ({} of {:.1f} GiB); name the GPU ('# gpulint: gpu={}' or "
                     "'gpu={}', or --gpu) to have it judged",
                     estimate->gpu_declared, small, Words(*estimate), Outcome(*estimate),
                     est::BytesToGib(estimate->usable_bytes), large, Words(priced),
                     Outcome(priced), est::BytesToGib(priced.usable_bytes), large, small));
}

}  // namespace gpulint
