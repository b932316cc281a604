#include "lint/report/estimate_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "estimator/units.h"
#include "lint/report/safe_text.h"
#include "lint/util/word_wrap.h"

namespace gpulint {
namespace {

using Json = nlohmann::ordered_json;

double Gib(double bytes) {
  return std::round(est::BytesToGib(bytes) * 1000) / 1000;
}

std::string ModelName(const Workload& w, const WorkloadEstimate& e) {
  if (e.model) return e.model->hf_id;
  const Setting* model = w.Find("model");
  return model ? model->value.ToString() : "?";
}

// The verdict of an estimate with a breakdown: fits at the high end; may not (its range
// straddles the GPU); does not (past it at the low end, or an engine's KV cache too small).
enum class Verdict { kFits, kMayNotFit, kDoesNotFit };

Verdict VerdictOf(const WorkloadEstimate& e) {
  const est::Breakdown& b = *e.breakdown;
  if (e.fits) return Verdict::kFits;
  if (b.total_low <= e.usable_bytes && b.total_high > e.usable_bytes) return Verdict::kMayNotFit;
  return Verdict::kDoesNotFit;
}

Json EstimateObject(const Workload& w, const WorkloadEstimate& e) {
  Json j;
  j["role"] = w.role;
  j["framework"] = w.framework;
  j["model"] = ModelName(w, e);
  j["gpu"] = e.gpu ? Json(e.gpu->name) : Json(nullptr);
  j["gpus"] = w.gpus;
  j["line"] = w.command_span.line;
  if (e.breakdown) {
    const est::Breakdown& b = *e.breakdown;
    Json per_gpu;
    per_gpu["weights"] = Gib(b.weights);
    per_gpu["gradients"] = Gib(b.gradients);
    per_gpu["optimizer"] = Gib(b.optimizer);
    per_gpu["activations"] = Gib(b.activations);
    per_gpu["logits"] = Gib(b.logits);
    per_gpu["kv_cache"] = Gib(b.kv_cache);
    per_gpu["overhead"] = Gib(b.overhead);
    per_gpu["torch_allocated"] = Gib(b.torch_allocated);
    per_gpu["torch_reserved"] = Gib(b.torch_reserved);
    per_gpu["total"] = Gib(b.total);
    per_gpu["total_low"] = Gib(b.total_low);
    per_gpu["total_high"] = Gib(b.total_high);
    if (b.total_cached > 0) per_gpu["total_cached"] = Gib(b.total_cached);
    j["per_gpu"] = per_gpu;
    j["usable"] = Gib(e.usable_bytes);
    j["fits"] = e.fits;  // at the high end
    j["margin"] = Gib(e.usable_bytes - b.total_high);
    j["peak_phase"] = b.peak_phase;
    j["kv_cache_tokens"] = b.kv_cache_tokens >= 0 ? Json(b.kv_cache_tokens) : Json(nullptr);
    j["max_concurrency"] =
        b.max_concurrency >= 0 ? Json(std::round(b.max_concurrency * 100) / 100) : Json(nullptr);
    if (!e.engine.empty()) j["engine"] = e.engine;
  } else {
    j["per_gpu"] = nullptr;
    j["usable"] = e.gpu ? Json(Gib(e.usable_bytes)) : Json(nullptr);
    j["fits"] = nullptr;
    j["skipped"] = e.skipped;
  }
  j["assumptions"] = e.assumptions;
  return j;
}

}  // namespace

std::string EstimateJson(const Workload& workload, const WorkloadEstimate& estimate, int indent) {
  return EstimateObject(workload, estimate)
      .dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string FileEstimateJson(const FileAnalysis& analysis, int indent) {
  Json file;
  file["path"] = analysis.file.path;
  Json workloads = Json::array();
  const auto& config = analysis.read.config;
  for (size_t i = 0; i < config.workloads.size(); ++i)
    workloads.push_back(EstimateObject(config.workloads[i], analysis.estimates[i]));
  file["workloads"] = workloads;
  Json devices = Json::array();
  for (const DeviceLoad& load : analysis.devices) {
    if (!load.shared) continue;
    devices.push_back(
        {{"device", load.device}, {"total", Gib(load.bytes)}, {"workloads", load.workloads}});
  }
  file["shared_gpus"] = devices;
  return file.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string FileEstimateText(const FileAnalysis& analysis, bool color, size_t columns) {
  std::string out;
  // A line of prose: `lead` starts it, later lines take `indent`; wrapped at `columns`.
  auto prose = [&](std::string_view lead, const std::string& text, std::string_view indent) {
    const size_t first = columns > lead.size() ? columns - lead.size() : 0;
    out += Printable(std::string(lead) +
                     WordWrap(text, columns ? first : 0, columns, indent) + "\n");
  };
  const auto& config = analysis.read.config;
  out += Printable(fmt::format("{}\n", analysis.file.path));
  if (config.workloads.empty()) out += "  no GPU workloads found\n";
  struct Part {
    const char* name;
    char glyph;
    double est::Breakdown::*field;
    const char* ansi;
  };
  static const Part kParts[] = {
      {"weights", 'W', &est::Breakdown::weights, "\x1b[34m"},
      {"gradients", 'G', &est::Breakdown::gradients, "\x1b[35m"},
      {"optimizer", 'O', &est::Breakdown::optimizer, "\x1b[33m"},
      {"activations", 'A', &est::Breakdown::activations, "\x1b[32m"},
      {"logits", 'L', &est::Breakdown::logits, "\x1b[36m"},
      {"kv_cache", 'K', &est::Breakdown::kv_cache, "\x1b[31m"},
      {"overhead", 'o', &est::Breakdown::overhead, "\x1b[90m"},
  };
  for (size_t i = 0; i < config.workloads.size(); ++i) {
    const Workload& w = config.workloads[i];
    const WorkloadEstimate& e = analysis.estimates[i];
    // A workload described on the command line has no line of its own.
    std::string where =
        w.command_span.line > 0 ? fmt::format("line {}: ", w.command_span.line) : std::string();
    // A count nothing states (a config run over every visible GPU) is not "0 GPUs".
    std::string count = w.gpus > 0 ? fmt::format("{} GPU{}", w.gpus, w.gpus == 1 ? "" : "s")
                                   : std::string("an unknown number of GPUs");
    prose("  ",
          fmt::format("{}{} ({}) {} on {}{}", where, w.role, w.framework, ModelName(w, e), count,
                      e.gpu ? " x " + e.gpu->name : ""),
          "    ");
    if (!e.breakdown) {
      prose("    ", "no estimate: " + e.skipped, "      ");
      for (const std::string& suggestion : e.resolution.suggestions)
        out += Printable(fmt::format("    did you mean {}?\n", suggestion));
      continue;
    }
    const est::Breakdown& b = *e.breakdown;
    const double scale = std::max(e.usable_bytes, b.total);
    const int width = 50;
    std::string bar;
    int used = 0;
    for (const Part& part : kParts) {
      int cells = static_cast<int>(std::round((b.*part.field) / scale * width));
      cells = std::min(cells, width - used);
      if (cells <= 0) continue;
      std::string run(static_cast<size_t>(cells), part.glyph);
      bar += color ? std::string(part.ansi) + run + "\x1b[0m" : run;
      used += cells;
    }
    bar += std::string(static_cast<size_t>(std::max(0, width - used)), '.');
    out += fmt::format("    [{}] {:.1f} / {:.1f} GiB per GPU\n", bar, est::BytesToGib(b.total),
                       est::BytesToGib(e.usable_bytes));
    for (const Part& part : kParts) {
      double bytes = b.*part.field;
      if (bytes <= 0) continue;
      out += Printable(fmt::format("    {} {:<12} {:>8.2f} GiB\n", part.glyph, part.name,
                                   est::BytesToGib(bytes)));
    }
    out += Printable(fmt::format("      {:<12} {:>8.2f} GiB  (peak of live tensors)\n", "allocated",
                                 est::BytesToGib(b.torch_allocated)));
    out += Printable(fmt::format("      {:<12} {:>8.2f} GiB  (what nvidia-smi shows, typically)\n",
                                 "total", est::BytesToGib(b.total)));
    if (b.total_high > b.total_low)
      prose("      ",
            fmt::format("{:<12} {:>8.2f} - {:.2f} GiB  (no allocator slack - the slack a long "
                        "run reaches)",
                        "range", est::BytesToGib(b.total_low), est::BytesToGib(b.total_high)),
            "                            ");
    if (b.total_cached > b.total_high)
      prose("      ",
            fmt::format("{:<12} {:>8.2f} GiB  (what nvidia-smi may show over a long run with "
                        "memory to spare: cache the allocator gives back before it fails)",
                        "cached", est::BytesToGib(b.total_cached)),
            "                            ");
    const double high_margin = e.usable_bytes - b.total_high;
    const double low_margin = e.usable_bytes - b.total_low;
    const Verdict verdict = VerdictOf(e);
    if (verdict == Verdict::kMayNotFit)
      prose("    ",
            fmt::format("MAY NOT FIT: the live tensors leave {:.1f} GiB, the high end is short "
                        "by {:.1f} GiB; peak at {}",
                        est::BytesToGib(low_margin), est::BytesToGib(-high_margin), b.peak_phase),
            "      ");
    else if (high_margin >= 0)  // fits, or an engine whose KV cache holds no sequence
      prose("    ",
            fmt::format("{}: margin {:.1f} GiB at the high end; peak at {}",
                        verdict == Verdict::kFits ? "fits" : "DOES NOT FIT",
                        est::BytesToGib(high_margin), b.peak_phase),
            "      ");
    else
      prose("    ",
            fmt::format("DOES NOT FIT: short by {:.1f} GiB even at the low end; peak at {}",
                        est::BytesToGib(-low_margin), b.peak_phase),
            "      ");
    if (b.kv_cache_tokens >= 0)
      prose("    ",
            fmt::format("KV cache: {:.0f} tokens; {:.1f} sequences of {:.0f} tokens at once",
                        b.kv_cache_tokens, std::max(0.0, b.max_concurrency), e.max_model_len),
            "      ");
    if (!e.assumptions.empty()) {
      out += "    assumptions:\n";
      for (const std::string& a : e.assumptions) prose("      - ", a, "        ");
    }
  }
  for (const DeviceLoad& load : analysis.devices) {
    if (!load.shared) continue;
    std::string names;
    for (int index : load.workloads)
      names += fmt::format("{}{} (line {})", names.empty() ? "" : " + ",
                           config.workloads[static_cast<size_t>(index)].role,
                           config.workloads[static_cast<size_t>(index)].command_span.line);
    double usable = analysis.gpu.spec ? analysis.gpu.spec->total_bytes : 0;
    const std::string range = load.high_bytes > load.low_bytes
                                  ? fmt::format("{:.1f}-{:.1f}", est::BytesToGib(load.low_bytes),
                                                est::BytesToGib(load.high_bytes))
                                  : fmt::format("{:.1f}", est::BytesToGib(load.bytes));
    prose("  ",
          fmt::format("GPU {} is shared: {} -> {} GiB{}", load.device, names, range,
                      usable > 0 ? fmt::format(" of {:.1f}", est::BytesToGib(usable)) : ""),
          "    ");
  }
  return out;
}

std::string VerdictTableHeader() {
  return "| file | workload | model | GPU | estimated peak | usable | fits |\n"
         "| --- | --- | --- | --- | ---: | ---: | :---: |\n";
}

// "path:line", or the path alone for a workload described on the command line.
std::string WhereWritten(const FileAnalysis& analysis, const Workload& w) {
  return w.command_span.line > 0 ? fmt::format("{}:{}", analysis.file.path, w.command_span.line)
                                 : analysis.file.path;
}

std::string VerdictRows(const FileAnalysis& analysis) {
  std::string out;
  const auto& config = analysis.read.config;
  for (size_t i = 0; i < config.workloads.size(); ++i) {
    const Workload& w = config.workloads[i];
    const WorkloadEstimate& e = analysis.estimates[i];
    std::string peak = "n/a";
    if (const auto& b = e.breakdown)
      peak = b->total_high > b->total_low
                 ? fmt::format("{:.1f}-{:.1f} GiB", est::BytesToGib(b->total_low),
                               est::BytesToGib(b->total_high))
                 : fmt::format("{:.1f} GiB", est::BytesToGib(b->total));
    std::string usable = e.gpu ? fmt::format("{:.1f} GiB", est::BytesToGib(e.usable_bytes)) : "n/a";
    std::string fits = !e.breakdown                          ? "?"
                       : VerdictOf(e) == Verdict::kFits      ? "yes"
                       : VerdictOf(e) == Verdict::kMayNotFit ? "**may not**"
                                                             : "**no**";
    out += fmt::format("| `{}` | {} ({}) | `{}` | {} x {} | {} | {} | {} |\n",
                       MarkdownInline(WhereWritten(analysis, w)), MarkdownInline(w.role),
                       MarkdownInline(w.framework), MarkdownInline(ModelName(w, e)), w.gpus,
                       MarkdownInline(e.gpu ? e.gpu->name : "?"), peak, usable, fits);
  }
  return out;
}

std::string BreakdownMarkdown(const FileAnalysis& analysis) {
  std::string out;
  const auto& config = analysis.read.config;
  for (size_t i = 0; i < config.workloads.size(); ++i) {
    const Workload& w = config.workloads[i];
    const WorkloadEstimate& e = analysis.estimates[i];
    if (!e.breakdown) continue;
    const est::Breakdown& b = *e.breakdown;
    out += fmt::format(
        "\n`{}` {} ({}), `{}` on {}: peak at {}\n\n| term | GiB per GPU |\n"
        "| --- | ---: |\n",
        MarkdownInline(WhereWritten(analysis, w)), MarkdownInline(w.role),
        MarkdownInline(w.framework), MarkdownInline(ModelName(w, e)),
        MarkdownInline(e.gpu ? e.gpu->name : "?"), MarkdownInline(b.peak_phase));
    for (const auto& [name, bytes] :
         std::initializer_list<std::pair<const char*, double>>{{"weights", b.weights},
                                                               {"gradients", b.gradients},
                                                               {"optimizer", b.optimizer},
                                                               {"activations", b.activations},
                                                               {"logits", b.logits},
                                                               {"KV cache", b.kv_cache},
                                                               {"overhead", b.overhead}})
      if (bytes > 0) out += fmt::format("| {} | {:.2f} |\n", name, est::BytesToGib(bytes));
    out += fmt::format("| **total** | **{:.2f}** of {:.2f} |\n", est::BytesToGib(b.total),
                       est::BytesToGib(e.usable_bytes));
    if (b.total_high > b.total_low)
      out += fmt::format("| range (no slack - a long run's slack) | {:.2f} - {:.2f} |\n",
                         est::BytesToGib(b.total_low), est::BytesToGib(b.total_high));
    if (b.total_cached > b.total_high)
      out += fmt::format("| cached over a long run, given back under pressure | {:.2f} |\n",
                         est::BytesToGib(b.total_cached));
  }
  return out;
}

std::string FileEstimateMarkdown(const FileAnalysis& analysis) {
  return VerdictTableHeader() + VerdictRows(analysis) + BreakdownMarkdown(analysis);
}

}  // namespace gpulint
