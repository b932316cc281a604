#include "lint/reader/script_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>

#include "lint/core/setting_types.h"
#include "lint/reader/command_reader.h"
#include "lint/reader/config_kind.h"
#include "lint/reader/config_file.h"
#include "lint/reader/directives.h"
#include "lint/reader/engine_versions.h"
#include "lint/reader/version_pins.h"
#include "lint/reader/map_condition.h"
#include "lint/reader/python_reader.h"
#include "lint/reader/setting_builder.h"
#include "lint/reader/shell_evaluator.h"
#include "lint/util/read_file.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

// More GPUs than any job holds (settings.toml caps gpus_per_node at 1024, nodes at 65536): a
// product past it is not a count, and gpulint does not place its devices.
constexpr double kMaxGpus = 1 << 20;

// GPU workloads one file may start: a sweep of loops around `vllm serve` made 10,000 (260
// bytes of script), and the checks that compare workloads grow faster than their number. No
// launch script starts this many; past it the rest is not read, with a note.
constexpr size_t kMaxWorkloads = 512;

// A GPU count read from a script (a product of factors, a launcher's process count): 0, not
// known, when it is not a count gpulint can hold (negative, NaN or past kMaxGpus: a fuzzed
// `--nproc_per_node 1e60` is no int).
// Where a command starts in its file.
SourceSpan CommandSpan(const CommandRecord& record, const SourceMap& sources) {
  if (record.argv.empty()) return SourceSpan();
  auto start = record.argv[0].Start();
  return start ? sources.Span(start->first, start->second, 1) : SourceSpan();
}

int GpuCount(double count) {
  return count >= 0 && count <= kMaxGpus ? static_cast<int>(count) : 0;
}

bool ValidUtf8(const std::string& text, size_t* bad_offset) {
  size_t i = 0;
  while (i < text.size()) {
    // Eight ASCII bytes at a time: scripts are nearly all ASCII.
    std::uint64_t eight = 0;
    if (i + sizeof eight <= text.size() &&
        (std::memcpy(&eight, text.data() + i, sizeof eight), (eight & 0x8080808080808080u) == 0)) {
      i += sizeof eight;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : 4;
    if (extra == 4 || i + extra >= text.size() + (extra ? 0 : 1)) {
      *bad_offset = i;
      return false;
    }
    for (size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) {
        *bad_offset = i;
        return false;
      }
    }
    i += extra + 1;
  }
  return true;
}

std::string ChooseDefault(const DefaultSpec& spec, const std::optional<GpuFacts>& gpu,
                          const std::string& entry, const Workload& workload,
                          bool* gpu_dependent) {
  *gpu_dependent = false;
  for (const DefaultVariant& variant : spec.variants) {
    if (!variant.entry.empty() && variant.entry != entry) continue;
    if (!variant.role.empty() && variant.role != workload.role) continue;
    if (!ConditionHolds(variant.when, workload)) continue;
    if (variant.gpu_min_gib > 0 || !variant.gpu_not.empty()) {
      *gpu_dependent = true;
      if (!gpu) continue;
      if (gpu->total_gib < variant.gpu_min_gib) continue;
      bool excluded = false;
      for (const std::string& name : variant.gpu_not)
        excluded = excluded || ToLower(gpu->name).find(ToLower(name)) != std::string::npos;
      if (excluded) continue;
    }
    return variant.value;
  }
  return spec.value;
}

}  // namespace

void ApplyFrameworkDefaults(const FrameworkMap& map, const std::string& entry,
                            const std::optional<GpuFacts>& gpu, Workload* workload,
                            bool named_roles_only) {
  for (const DefaultSpec& spec : map.defaults) {
    if (spec.none || workload->Find(spec.setting)) continue;
    if (named_roles_only && spec.workloads.empty()) continue;
    if (!spec.workloads.empty() &&
        std::find(spec.workloads.begin(), spec.workloads.end(), workload->role) ==
            spec.workloads.end())
      continue;
    if (!ConditionHolds(spec.when, *workload)) continue;
    if (std::any_of(spec.unless_written.begin(), spec.unless_written.end(),
                    [&](const std::string& other) {
                      const Setting* written = workload->Find(other);
                      return written && written->origin != Origin::kFrameworkDefault;
                    }))
      continue;
    bool gpu_dependent = false;
    std::string value = ChooseDefault(spec, gpu, entry, *workload, &gpu_dependent);
    Setting setting;
    setting.name = spec.setting;
    setting.value = TypedValue(spec.setting, value);
    setting.origin = Origin::kFrameworkDefault;
    setting.not_editable_reason = "not written in the script (a framework default)";
    setting.via = spec.source;
    workload->settings[spec.setting] = setting;
    workload->assumptions.push_back(fmt::format(
        "{} = {}: {} default{}{}", spec.setting, value, map.title,
        map.version.empty() ? "" : " (" + map.version + ")",
        gpu_dependent && !gpu ? " for a GPU of unknown size" : ""));
  }
}

std::function<bool(const std::string&, std::string*)> FileSystemReader() {
  return [](const std::string& path, std::string* text) {
    return ReadRegularFile(path, text) == ReadStatus::kOk;
  };
}

ReadResult ReadScript(const std::string& path, const std::string& text,
                      const FrameworkMaps& maps, const ReadOptions& options, SourceMap* sources) {
  ReadResult result;
  RunConfig& config = result.config;
  config.path = path;
  if (text.find('\0') != std::string::npos) {
    result.ok = false;
    result.error = "binary file (it contains NUL bytes)";
    return result;
  }
  int file = sources->Add(path, text);
  size_t bad = 0;
  if (!ValidUtf8(text, &bad))
    config.notes.push_back({ReaderNote::Level::kWarning,
                            "invalid UTF-8; columns count bytes", sources->Span(file, bad, 1)});

  std::string script_dir = fs::path(path).parent_path().string();
  EvaluatorOptions evaluator_options;
  evaluator_options.env = options.env;
  evaluator_options.read_file = options.read_file;
  evaluator_options.script_dir = script_dir;
  evaluator_options.parse_cache = options.parse_cache;

  // A Python or YAML file named directly is read as the program it is.
  std::string program_text = text;
  bool synthetic = false;
  if (EndsWith(path, ".py") || EndsWith(path, ".yaml") || EndsWith(path, ".yml")) {
    synthetic = true;
  }
  ShellProgram program;
  if (!synthetic) {
    program = EvaluateShell(*sources, file, evaluator_options);
  } else {
    CommandRecord record;
    record.file = file;
    std::string base = fs::path(path).filename().string();
    if (EndsWith(path, ".py")) {
      record.argv = {Text::Literal("python", -1, 0, 0, false, true),
                     Text::Literal(base, -1, 0, 0, false, true)};
    } else {
      // A config is read as the command of the framework that claims it, if one does.
      ConfigKind kind = RecognizeConfig(text, base, maps);
      for (const std::string& word : kind.command)
        record.argv.push_back(Text::Literal(word, -1, 0, 0, false, true));
      if (kind.map && kind.map->kind == "unmodelled") {
        config.notices.push_back(
            {fmt::format("a config of {}, which gpulint does not model: nothing in it is "
                         "estimated or checked",
                         kind.match->title.empty() ? kind.map->title : kind.match->title),
             sources->Span(file, 0, 0)});
      } else if (kind.usage_missing) {
        config.notices.push_back(
            {fmt::format("a {} config that does not say which command runs it (no '{}' line in "
                         "its comments): read it through the script that runs it",
                         kind.map->title, kind.match->config_usage),
             sources->Span(file, 0, 0)});
      } else if (!kind.map && kind.parsed) {
        config.notices.push_back(
            {fmt::format("not the config of a framework gpulint reads (its keys: {}); it is "
                         "read only through the command that names it",
                         kind.top_keys.empty() ? std::string("none")
                                               : Join(kind.top_keys, ", ")),
             sources->Span(file, 0, 0)});
      }
    }
    if (!record.argv.empty()) program.commands.push_back(record);
    // Their comments carry directives and suppressions as a script's do.
    auto comments = EndsWith(path, ".py") ? PythonComments(text) : YamlComments(text);
    for (auto& [offset, comment_text] : comments)
      program.comments.push_back({file, offset, std::move(comment_text)});
  }
  config.notes.insert(config.notes.end(), program.notes.begin(), program.notes.end());

  // Directives: #SBATCH in the leading comment block, # gpulint: anywhere.
  size_t first_command = text.size();
  if (auto it = program.first_command.find(file); it != program.first_command.end())
    first_command = it->second;
  std::map<std::string, SourceSpan> directive_spans;
  ReadDirectives(program.comments, file, first_command, *sources, &config.cluster,
                 &config.directives, &directive_spans, &config.notes);
  for (const CommentRecord& comment : program.comments)  // sourced files' gpulint directives
    if (comment.file != file)
      ReadDirectives({comment}, comment.file, 0, *sources, &config.cluster, &config.directives,
                     &directive_spans, &config.notes);
  for (const CommentRecord& comment : program.comments) {
    if (comment.file != file) continue;
    CommentLine line;
    line.offset = comment.offset;
    line.line = sources->LineOf(file, comment.offset);
    line.text = comment.text;
    size_t line_start = text.rfind('\n', comment.offset == 0 ? 0 : comment.offset - 1);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    line.own_line = Trim(std::string_view(text).substr(line_start, comment.offset - line_start)).empty();
    config.comments.push_back(std::move(line));
  }
  if (auto it = config.directives.find("gpu"); it != config.directives.end()) {
    Setting gpu;
    gpu.name = "gpu";
    gpu.value = Value::String(it->second);
    gpu.span = directive_spans["gpu"];
    gpu.origin = Origin::kDirective;
    config.cluster.gpu = gpu;
  }

  // The GPU the workloads run on, for GPU-dependent defaults.
  std::string gpu_name = options.gpu_override;
  if (gpu_name.empty() && config.cluster.gpu) gpu_name = config.cluster.gpu->value.ToString();
  if (gpu_name.empty()) gpu_name = options.gpu_default;
  std::optional<GpuFacts> gpu;
  if (!gpu_name.empty() && options.gpu_facts) gpu = options.gpu_facts(gpu_name);
  std::optional<int> gpus_per_node;
  // GpuCount: a count past any node (--gres=gpu:1e60) is no int, and casting it is undefined.
  if (config.cluster.gpus_per_node && config.cluster.gpus_per_node->value.is_number())
    gpus_per_node = GpuCount(config.cluster.gpus_per_node->value.number);

  // The engine and framework versions the script pins itself (pip install, image tags).
  std::vector<ScriptPin> script_pins;
  const std::vector<std::string> packages = maps.Packages();
  for (const VersionPin& pin : FindVersionPins(text, packages))
    script_pins.push_back({pin, sources->Span(file, pin.offset, pin.spec.size())});

  CommandReaderOptions reader_options;
  reader_options.read_file = options.read_file;
  reader_options.script_dir = script_dir;
  reader_options.parse_cache = options.parse_cache;
  reader_options.package_versions =
      PackageVersions(packages, config.directives, script_pins, options.pinned_versions);
  // A release the directive states but gpulint cannot read is unknown, and GL005 says why: a
  // framework's ("# gpulint: trl=latest", PackageVersions gives ""), whose map then falls to
  // the pin rules, or an engine's ("# gpulint: vllm=latest"), whose pins in the script, the
  // project or the repository apply instead, else the newest release, listed as assumed.
  auto unreadable_release = [&](const std::string& name) {
    config.unresolved.push_back(
        {name + " release",
         fmt::format("'# gpulint: {}={}' is not a release such as 0.6.3 or a pin such as "
                     "\">=0.8,<0.9\"",
                     name, config.directives[name]),
         directive_spans[name]});
  };
  for (const auto& [package, release] : reader_options.package_versions)
    if (release.empty()) unreadable_release(package);
  for (const auto& [name, value] : config.directives)
    if (std::string joined; IsVersionedEngine(name) && !JoinPins({value}, &joined))
      unreadable_release(name);
  CommandReader reader(*sources, maps, program.virtual_files, reader_options);

  // Which processes run at the same time: background jobs overlap what follows until `wait`.
  // A command overlaps the earlier jobs still running (concurrent_with, ascending) and, if it is
  // a job itself, the later commands that start while it runs (`started_while`, ascending).
  std::vector<std::vector<int>> started_while(program.commands.size());
  for (size_t i = 0; i < program.commands.size(); ++i)
    for (int other : program.commands[i].concurrent_with)
      started_while[static_cast<size_t>(other)].push_back(static_cast<int>(i));

  for (size_t index = 0; index < program.commands.size(); ++index) {
    const CommandRecord& record = program.commands[index];
    if (config.workloads.size() >= kMaxWorkloads) {
      config.notes.push_back({ReaderNote::Level::kReadInPart,
                              fmt::format("more than {} GPU workloads; the rest are not read",
                                          kMaxWorkloads),
                              CommandSpan(record, *sources)});
      break;
    }
    ProgramRead read = reader.Read(record);
    for (const std::string& f : read.files_read) config.files_read.push_back(f);
    config.unresolved.insert(config.unresolved.end(), read.unresolved.begin(),
                             read.unresolved.end());
    config.notes.insert(config.notes.end(), read.notes.begin(), read.notes.end());
    config.notices.insert(config.notices.end(), read.notices.begin(), read.notices.end());
    if (!read.map || read.workloads.empty()) continue;
    for (const Workload& workload : read.workloads)
      if (const Setting* why = workload.Find("unmodelled"))
        config.notices.push_back(
            {fmt::format("{}: {} is not modelled, so this {} workload's memory is not estimated",
                         read.map->title, why->value.ToString(), workload.role),
             why->span.valid() ? why->span : workload.command_span});

    // Defaults of the framework, where the script says nothing.
    for (Workload& workload : read.workloads) {
      // A further model in the primary's process takes what it shares from the primary, and
      // only the defaults that name its role.
      if (workload.shares_process_gpus) {
        ApplyFrameworkDefaults(*read.map, read.entry, gpu, &workload, /*named_roles_only=*/true);
        continue;
      }
      ApplyFrameworkDefaults(*read.map, read.entry, gpu, &workload);
      if (auto it = config.directives.find("model");
          it != config.directives.end() &&
          (!workload.Find("model") || workload.Find("model")->value.kind == Value::Kind::kNone)) {
        Setting model;
        model.name = "model";
        model.value = Value::String(it->second);
        model.span = directive_spans["model"];
        model.origin = Origin::kDirective;
        workload.settings["model"] = model;
      }
      // `# gpulint: zero_stage=3` states a value the script leaves unknown or to the framework
      // (a DeepSpeed config outside the tree); what the script writes itself still wins, except
      // where the map reads a flag one way among others ([[reading]]): the directive says what
      // the team's code does with it (`# gpulint: dtype=bf16` for a trainer's --bf16).
      for (const auto& [name, declared_text] : config.directives) {
        if (name == "model" || name == "gpu" || !IsKnownSetting(name)) continue;
        const Setting* current = workload.Find(name);
        const bool states_meaning =
            std::any_of(read.map->readings.begin(), read.map->readings.end(),
                        [&, &name = name](const ReadingSpec& r) { return r.setting == name; });
        if (current && current->value.kind != Value::Kind::kNone &&
            current->origin != Origin::kFrameworkDefault && !states_meaning)
          continue;
        Setting declared;
        declared.name = name;
        declared.value = TypedValue(name, declared_text);
        declared.span = directive_spans[name];
        declared.origin = Origin::kDirective;
        declared.not_editable_reason = "declared in a '# gpulint:' comment";
        workload.settings[name] = declared;
      }
      ResolveEngineVersion(config.directives, directive_spans, script_pins,
                           options.pinned_versions, &workload);
    }

    // GPUs each workload occupies, then which devices.
    std::vector<int> pool = read.visible_devices;
    bool devices_declared = read.devices_known;
    if (!read.launch.gpu_ids.empty()) {
      pool = read.launch.gpu_ids;
      devices_declared = true;
    }
    if (!devices_declared && gpus_per_node)
      for (int d = 0; d < *gpus_per_node; ++d) pool.push_back(d);
    size_t next_device = 0;
    const WorkloadSpec* spec_of = nullptr;
    for (size_t w = 0; w < read.workloads.size(); ++w) {
      Workload& workload = read.workloads[w];
      workload.process = static_cast<int>(index);
      workload.background = record.background;
      workload.branch = record.branch;
      workload.concurrent_processes = record.concurrent_with;
      workload.concurrent_processes.insert(workload.concurrent_processes.end(),
                                           started_while[index].begin(),
                                           started_while[index].end());
      if (workload.shares_process_gpus) {
        workload.gpus = read.workloads[0].gpus;
        workload.devices = read.workloads[0].devices;
        workload.devices_assumed = read.workloads[0].devices_assumed;
        workload.visible_devices = read.workloads[0].visible_devices;
        continue;
      }
      spec_of = nullptr;
      for (const WorkloadSpec& spec : read.map->workloads)
        if (spec.role == workload.role) spec_of = &spec;
      int gpus = 0;
      // Every GPU the process sees, where the script or the project says which: unknown (0)
      // otherwise, not a guess.
      const int visible_gpus =
          devices_declared || gpus_per_node ? static_cast<int>(pool.size()) : 0;
      // A map whose GPU factors are all unset and whose program otherwise runs on every visible
      // GPU (ms-swift without NPROC_PER_NODE) counts those instead.
      bool factors_given = false;
      if (spec_of)
        for (const std::string& factor : spec_of->gpus)
          factors_given = factors_given || workload.Find(factor);
      if (spec_of && !spec_of->gpus.empty() && (factors_given || !spec_of->all_visible_gpus)) {
        // The product in double: a list of 10^100 learners is not a GPU count (and not an int).
        double product = 1;
        for (const std::string& factor : spec_of->gpus) {
          auto value = workload.Number(factor);
          if (!workload.Find(factor)) continue;  // absent factors count as 1
          if (auto within = spec_of->gpus_within.find(factor);
              within != spec_of->gpus_within.end() && workload.Bool(within->second).value_or(false))
            continue;  // folded into another factor
          // A list (GPUs per node, one entry per node) counts its sum.
          if (const Setting* list = workload.Find(factor); list && list->value.is_list()) {
            double sum = 0;
            bool numbers = !list->value.list.empty();
            for (const std::string& item : list->value.list) {
              double n = 0;
              numbers = numbers && ParseNumber(item, &n);
              sum += n;
            }
            if (numbers) value = sum;
          }
          if (!value) {
            product = 0;
            break;
          }
          product *= *value;
        }
        gpus = GpuCount(product);
      } else if (read.launch.num_processes && read.launch.num_processes->value.is_number()) {
        gpus = GpuCount(read.launch.num_processes->value.number);
      } else if (read.launch.nproc_per_node) {
        if (read.launch.nproc_per_node->value.is_number()) {
          double nodes = 1;
          if (read.launch.nodes && read.launch.nodes->value.is_number())
            nodes = read.launch.nodes->value.number;
          gpus = GpuCount(read.launch.nproc_per_node->value.number * nodes);
        }
      } else if (workload.SpreadsOverDevices()) {
        gpus = visible_gpus;
      } else if (read.launch.distributed) {
        // accelerate's and deepspeed's default: every visible GPU, unknown (0) where neither the
        // script nor the project says which (a count of 1 would leave ZeRO's states undivided).
        gpus = visible_gpus;
      } else if (spec_of && spec_of->all_visible_gpus) {
        gpus = visible_gpus;
      } else {
        gpus = 1;
      }
      workload.gpus = gpus;
      bool colocated = false;
      if (auto colocate = workload.Bool("colocate")) colocated = *colocate;
      size_t start = colocated ? 0 : next_device;
      int per_node_gpus = gpus;
      // More nodes than GPUs (a fuzzed nnodes=1e69) leaves none per node; no int overflow.
      if (auto nodes = workload.Number("nodes"); nodes && *nodes > 1)
        per_node_gpus = *nodes > gpus ? 0 : gpus / static_cast<int>(*nodes);
      // However many GPUs a distributed launcher starts, its processes are alike: the first
      // stands for them, so what shares a GPU with it (a model in the same process, a job
      // started beside it) is still checked.
      if (gpus == 0 && read.launch.distributed) per_node_gpus = 1;
      for (int d = 0; d < per_node_gpus; ++d) {
        size_t slot = start + static_cast<size_t>(d);
        workload.devices.push_back(slot < pool.size() ? pool[slot] : static_cast<int>(slot));
      }
      workload.devices_assumed = !devices_declared;
      if (devices_declared) workload.visible_devices = static_cast<int>(pool.size());
      // The launcher's process counts, for rules that compare them with the visible devices.
      if (read.launch.nproc_per_node && !workload.Find("nproc_per_node"))
        workload.settings["nproc_per_node"] = *read.launch.nproc_per_node;
      if (read.launch.num_processes && !workload.Find("num_processes"))
        workload.settings["num_processes"] = *read.launch.num_processes;
      // Colocated workloads overlap from the command's first device; one placed apart comes
      // after all of them.
      next_device = std::max(next_device, start + static_cast<size_t>(per_node_gpus));
    }
    for (Workload& workload : read.workloads) config.workloads.push_back(std::move(workload));
  }

  // Settings whose value stays unknown, once each.
  std::set<std::string> seen;
  std::vector<Unresolved> unique;
  for (const Unresolved& u : config.unresolved) {
    if (config.directives.count(u.name) && IsKnownSetting(u.name)) continue;  // declared
    std::string key = fmt::format("{}:{}:{}", u.name, u.span.line, u.reason);
    if (seen.insert(key).second) unique.push_back(u);
  }
  config.unresolved = std::move(unique);
  return result;
}

}  // namespace gpulint
