// `gpulint fix`: proposes the largest batch or context that fits (--maximize), the cheapest
// change that makes an out-of-memory script fit (--fit), or, with neither, applies the safe
// fixes of lint findings. Prints a unified diff (default) or rewrites the files (--write).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <nlohmann/json.hpp>

#include "estimator/units.h"
#include "lint/analysis/file_analysis.h"
#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/cli/output_file.h"
#include "lint/report/json_version.h"
#include "lint/rules/linter.h"
#include "tuner/apply.h"
#include "tuner/edits.h"
#include "tuner/fit.h"
#include "tuner/fix_provider.h"
#include "tuner/maximize.h"
#include "tuner/safe_write.h"
#include "tuner/unified_diff.h"

namespace gpulint {
namespace {

struct FileResult {
  std::string path;
  std::string before, after;
  std::vector<std::pair<Proposal, ProposalEdits>> proposals;
  const FileAnalysis* analysis = nullptr;
};

std::string WhereOf(const FileAnalysis& analysis, const Proposal& p) {
  const Workload& w = analysis.read.config.workloads[p.workload];
  // A config file linted on its own (an axolotl YAML) has no command line: the file alone.
  if (w.command_span.line <= 0)
    return fmt::format("{}: {} ({})", analysis.file.path, w.role, w.framework);
  return fmt::format("{}:{}: {} ({})", analysis.file.path, w.command_span.line, w.role,
                     w.framework);
}

double Round(double gib) { return std::round(gib * 1000) / 1000; }

// The folder gpulint runs in, for the names in diffs; "" when it cannot be read.
std::string CurrentDir() {
  std::error_code ec;
  std::filesystem::path cwd = std::filesystem::current_path(ec);
  return ec ? std::string() : cwd.string();
}

nlohmann::ordered_json ToJson(const FileResult& file) {
  nlohmann::ordered_json proposals = nlohmann::ordered_json::array();
  for (const auto& [p, edits] : file.proposals) {
    const Workload& w = file.analysis->read.config.workloads[p.workload];
    nlohmann::ordered_json changes = nlohmann::ordered_json::array();
    for (const Change& c : p.changes) {
      const Setting* s = w.Find(c.setting);
      nlohmann::ordered_json change = {{"setting", c.setting},
                                       {"before", c.before.empty() ? nlohmann::ordered_json()
                                                                   : nlohmann::ordered_json(c.before)},
                                       {"after", c.after}};
      if (s && s->span.valid()) {
        change["path"] = s->span.path;
        change["line"] = s->span.line;
        change["col"] = s->span.col;
      }
      changes.push_back(change);
    }
    proposals.push_back({{"workload", p.workload},
                         {"role", w.role},
                         {"line", w.command_span.line},
                         {"objective", p.objective},
                         {"summary", p.summary},
                         {"changes", changes},
                         {"peak_before_gib", Round(est::BytesToGib(p.total_before_bytes))},
                         {"peak_after_gib", Round(est::BytesToGib(p.total_after_bytes))},
                         {"limit_gib", Round(est::BytesToGib(p.limit_bytes))},
                         {"safe", p.safe},
                         {"not_applied", edits.not_applied},
                         {"note", p.note},
                         {"alternatives", p.alternatives}});
  }
  return {{"path", file.path},
          {"proposals", proposals},
          {"diff", UnifiedDiff(DiffPath(file.path, CurrentDir()), file.before, file.after)}};
}

// A pull-request comment: what changes, the estimates, and the diff.
std::string ToMarkdown(const std::vector<FileResult>& results) {
  std::string out =
      "### gpulint fix\n\n| file | workload | change | peak per GPU (high end) | allowed |\n"
      "| --- | --- | --- | ---: | ---: |\n";
  std::string diffs;
  for (const FileResult& file : results) {
    for (const auto& [p, edits] : file.proposals) {
      const Workload& w = file.analysis->read.config.workloads[p.workload];
      std::string change;
      for (const Change& c : p.changes)
        change += fmt::format("{}`{}` {} -> {}", change.empty() ? "" : ", ", c.setting,
                              c.before.empty() ? "(not set)" : c.before, c.after);
      if (change.empty()) change = p.note;
      out += fmt::format("| `{}:{}` | {} ({}) | {} | {:.1f} -> {:.1f} GiB | {:.1f} GiB |\n",
                         file.path, w.command_span.line, w.role, w.framework, change,
                         est::BytesToGib(p.total_before_bytes),
                         est::BytesToGib(p.total_after_bytes), est::BytesToGib(p.limit_bytes));
    }
    std::string diff = UnifiedDiff(DiffPath(file.path, CurrentDir()), file.before, file.after);
    if (!diff.empty()) diffs += "```diff\n" + diff + "```\n";
  }
  return out + "\n" + diffs;
}

}  // namespace

int RunFixCommand(const Args& args) { return RunFixCommandAs(args, "fix"); }

int RunFixCommandAs(const Args& args, const std::string& name) {
  auto parsed = ParseFixOptions(args, name);
  if (!parsed.options) return parsed.exit_code;
  if (parsed.options->paths.empty()) parsed.options->paths = {"."};  // as lint: the working folder
  const FixOptions& options = *parsed.options;
  if (options.fit && !options.maximize.empty()) {
    fmt::print(stderr, "gpulint: error: --fit and --maximize exclude each other: gpulint {}\n",
               name);
    return kExitUsage;
  }
  for (const std::string& keep : options.keep)
    if (keep != "global-batch") {
      fmt::print(stderr, "gpulint: error: --keep takes global-batch, not '{}': gpulint {}\n",
                 keep, name);
      return kExitUsage;
    }
  std::map<std::string, std::string> overrides;
  std::string error;
  if (!ParseOverrides(options.set, &overrides, &error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return kExitUsage;
  }
  Workspace workspace(options);
  std::vector<LoadedFile> files;
  if (!workspace.Init(&error) || !workspace.LoadInputs(&files, &error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return kExitUsage;
  }
  const bool tune = options.fit || !options.maximize.empty();
  for (const LoadedFile& file : files)
    if (options.write && file.from_stdin) {
      fmt::print(stderr, "gpulint: error: {} needs files, not stdin: gpulint {}\n",
                 name == "fix" ? "--write" : name, name);
      return kExitUsage;
    }

  // Without an objective, the fixes are those of the lint findings (the safe ones).
  std::vector<LintedFile> linted;
  if (!tune) {
    LintChoices choices;
    choices.headroom = options.headroom;
    choices.fixes = [](Workspace& ws, const LintSettings& settings) {
      TunerOptions tuner;
      tuner.headroom = settings.headroom;
      return MakeTunerFixProvider(ws.maps(), tuner);
    };
    Linter linter(choices);
    if (!linter.Init(&error) || !linter.LintAll(workspace, files, &linted, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
  }

  std::vector<std::unique_ptr<FileAnalysis>> analyses;
  std::vector<FileResult> results;
  // Notes for people on stderr (what each fix does, what the tuner found); -q leaves them out.
  auto note = [&](const std::string& text) {
    if (!options.quiet) fmt::print(stderr, "{}", text);
  };
  int only_unsafe = 0;  // findings whose fixes all change how the job runs, left out
  std::set<std::string> roles_seen;  // for --workload: a role no file has is a typo
  for (size_t f = 0; f < files.size(); ++f) {
    const LoadedFile& file = files[f];
    FileResult result;
    result.path = file.path;
    result.before = file.text;
    std::vector<Edit> edits;
    if (!tune) {
      result.analysis = linted[f].analysis.get();
      for (const Finding& finding : linted[f].findings) {
        bool applied = false;
        for (const Fix& fix : finding.fixes)
          if (fix.safe || options.unsafe_fixes) {
            edits.insert(edits.end(), fix.edits.begin(), fix.edits.end());
            note(fmt::format("{}:{}: {}: {}\n", file.path, finding.span.line, finding.rule,
                             fix.description));
            applied = true;
          }
        if (!applied && !finding.fixes.empty()) ++only_unsafe;
      }
    } else {
      auto analysis = std::make_unique<FileAnalysis>();
      if (!AnalyzeFile(workspace, file, overrides, analysis.get(), &error)) {
        fmt::print(stderr, "gpulint: error: {}\n", error);
        return kExitUsage;
      }
      const ProjectConfig* config = workspace.ConfigFor(file.path, &error);
      TunerOptions tuner;
      if (!ResolveHeadroom(options.headroom, config ? *config : ProjectConfig{},
                           analysis->read.config, file.path, &tuner.headroom, &error)) {
        fmt::print(stderr, "gpulint: error: {}\n", error);
        return kExitUsage;
      }
      tuner.pow2 = options.pow2;
      tuner.maps = &workspace.maps();
      tuner.keep_global_batch = !options.keep.empty();
      tuner.workload_role = options.workload;
      for (size_t w = 0; w < analysis->read.config.workloads.size(); ++w) {
        const Workload& workload = analysis->read.config.workloads[w];
        roles_seen.insert(workload.role);
        if (!options.workload.empty() && workload.role != options.workload) continue;
        if (workload.shares_process_gpus) continue;  // a further model: its host is tuned
        Proposal p = options.fit                      ? Fit(*analysis, workspace.maps(), w, tuner)
                     : options.maximize == "batch"    ? MaximizeBatch(*analysis, w, tuner)
                                                      : MaximizeContext(*analysis, w, tuner);
        ProposalEdits proposal_edits = EditsFor(*analysis, workspace.maps(), p);
        std::string where = WhereOf(*analysis, p);
        if (p.changes.empty()) {
          note(fmt::format("{}: nothing to change: {}\n", where, p.note));
        } else {
          note(fmt::format("{}: {}\n", where, p.summary));
          for (const std::string& alternative : p.alternatives)
            note(fmt::format("    also fits: {}\n", alternative));
          for (const std::string& reason : proposal_edits.not_applied)
            note(fmt::format("    not changed: {}\n", reason));
          // A change set is written whole or not at all: half of it could make things worse.
          if (proposal_edits.complete())
            edits.insert(edits.end(), proposal_edits.edits.begin(), proposal_edits.edits.end());
        }
        result.proposals.emplace_back(std::move(p), std::move(proposal_edits));
      }
      result.analysis = analysis.get();
      analyses.push_back(std::move(analysis));
    }
    if (!ApplyEdits(file.text, edits, &result.after, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    results.push_back(std::move(result));
  }

  // As lint and estimate say them: keys of gpulint.toml that have no effect.
  for (const std::string& warning : workspace.warnings())
    note(fmt::format("gpulint: warning: {}\n", warning));

  if (tune && !options.workload.empty() && !roles_seen.count(options.workload)) {
    fmt::print(stderr,
               "gpulint: error: --workload {}: no workload has that role (roles here: {}): "
               "gpulint {}\n",
               options.workload,
               roles_seen.empty() ? "none" : fmt::format("{}", fmt::join(roles_seen, ", ")), name);
    return kExitUsage;
  }
  bool changed = false;
  std::string diffs;
  nlohmann::ordered_json json_files = nlohmann::ordered_json::array();
  for (const FileResult& result : results) {
    json_files.push_back(ToJson(result));
    if (result.after == result.before) continue;
    changed = true;
    if (options.write) {
      WritePolicy policy;
      policy.roots = WriteRootsFor(options.paths);
      policy.follow_symlinks = options.follow_symlinks;
      if (!WriteFileSafely(result.path, result.before, result.after, policy, &error)) {
        fmt::print(stderr, "gpulint: error: {}\n", error);
        return kExitUsage;
      }
      note(fmt::format("fixed {}\n", result.path));
    } else {
      diffs += UnifiedDiff(DiffPath(result.path, CurrentDir()), result.before, result.after);
    }
  }
  // As lint says it: fixes exist, but none was applied because each changes how the job runs.
  if (only_unsafe > 0)
    note(fmt::format("{} finding{} {} only unsafe fixes (they change how the job runs): "
                     "`gpulint fix --unsafe-fixes` {} them.\n",
                     only_unsafe, only_unsafe == 1 ? "" : "s", only_unsafe == 1 ? "has" : "have",
                     options.write ? "applies" : "shows"));
  std::string rendered = options.format == "json"
                             ? nlohmann::ordered_json{{"version", kJsonFormatVersion},
                                                      {"files", json_files}}
                                   .dump(
                                   2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                   "\n"
                         : options.format == "markdown" ? ToMarkdown(results)
                                                        : diffs;
  if (!options.output_file.empty()) {
    if (!WriteOutputFile(options.output_file, rendered, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    fmt::print("{}", diffs);  // the terminal gets the diff
  } else {
    fmt::print("{}", rendered);
  }
  return changed ? kExitFindings : kExitClean;
}

}  // namespace gpulint
