#include "lint/reader/command_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "estimator/engine_version.h"
#include "lint/core/setting_types.h"
#include "lint/reader/allocator_conf.h"
#include "lint/reader/config_file.h"
#include "lint/reader/map_condition.h"
#include "lint/reader/parse_cache.h"
#include "lint/reader/python_binding.h"
#include "lint/reader/setting_builder.h"
#include "lint/util/paths.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool IsPythonExecutable(const std::string& word) {
  std::string base = Basename(word);
  if (!StartsWith(base, "python")) return false;
  std::string rest = base.substr(6);
  return rest.find_first_not_of("0123456789.") == std::string::npos;
}

bool LooksLikeFlag(const std::string& word) {
  if (word.size() < 2 || word[0] != '-') return false;
  double number = 0;
  return !ParseNumber(word, &number);  // -1 is a value, not a flag
}

bool LooksLikeProgram(const std::string& word) {
  std::string base = Basename(word);
  return EndsWith(word, ".py") || EndsWith(word, ".sh") || IsPythonExecutable(word) ||
         base == "vllm" || base == "trl" || base == "llamafactory-cli" || base == "accelerate" ||
         base == "torchrun" || base == "deepspeed" || base == "bash";
}

// "0,1,2" -> {0,1,2}; false when a part is not a number.
bool ParseDeviceList(const std::string& text, std::vector<int>* devices) {
  devices->clear();
  for (const std::string& part : SplitAny(text, ", ")) {
    double number = 0;
    // Device ordinals are small: 6.7e101 (found by tests/fuzz/fuzz_shell) is not one.
    if (!ParseNumber(part, &number) || number < 0 || number > 65535) return false;
    devices->push_back(static_cast<int>(number));
  }
  return true;
}

// `words` are the command's words as text (Impl::texts_): every flag map's patterns are tried
// at every word, so the texts are made once per command, not once per try.
bool MatchesWords(const std::vector<std::string>& pattern, const std::vector<std::string>& words,
                  size_t at) {
  if (pattern.empty() || words.size() < at + pattern.size()) return false;
  std::string_view program = words[at];
  if (size_t slash = program.rfind('/'); slash != std::string_view::npos)
    program.remove_prefix(slash + 1);
  if (program != pattern[0]) return false;
  for (size_t i = 1; i < pattern.size(); ++i)
    if (words[at + i] != pattern[i]) return false;
  return true;
}

// A match's `requires_flag`: none listed, or one of them on the command line.
bool AnyFlagPresent(const std::vector<std::string>& required, const std::set<std::string>& flags) {
  if (required.empty()) return true;
  for (const std::string& flag : required)
    if (flags.count(flag)) return true;
  return false;
}

}  // namespace

class CommandReader::Impl {
 public:
  Impl(CommandReader& reader, const CommandRecord& record) : r_(reader), record_(record) {}

  ProgramRead Run() {
    words_ = record_.argv;
    for (const Text& word : words_) texts_.push_back(word.Str());
    ReadVisibleDevices();
    size_t at = 0;
    // Wrappers and launchers, outermost first, until the program itself.
    for (int guard = 0; guard < 16 && at < words_.size(); ++guard) {
      size_t next = at;
      if (StripWrapper(at, &next) || StripLauncher(at, &next)) {
        at = next;
        continue;
      }
      break;
    }
    if (at >= words_.size()) return std::move(out_);
    ReadProgram(at);
    ReadAllocatorConfig();
    return std::move(out_);
  }

 private:
  struct Pending {
    std::vector<std::string> roles;  // empty: the primary workload
    Setting setting;
    bool weak = false;  // FlagSpec::weak: set only where no other flag sets it
  };

  SourceSpan SpanOf(const Text& text) const {
    int file = -1;
    size_t offset = 0, length = 0;
    if (text.ExactRun(&file, &offset, &length)) return r_.sources_.Span(file, offset, length);
    if (auto start = text.Start()) return r_.sources_.Span(start->first, start->second, 1);
    return SourceSpan();
  }

  void ReadVisibleDevices() {
    const Text* visible = record_.Env("CUDA_VISIBLE_DEVICES");
    if (!visible) return;
    ApplyVisibleDevices(*visible);
  }

  void ApplyVisibleDevices(const Text& visible) {
    if (!visible.Known()) {
      out_.unresolved.push_back(
          {"CUDA_VISIBLE_DEVICES", visible.UnknownReason(), SpanOf(visible)});
      out_.devices_unknown_reason = true;
      return;
    }
    std::vector<int> devices;
    if (ParseDeviceList(visible.Str(), &devices)) {
      out_.visible_devices = devices;
      out_.devices_known = true;
      visible_span_ = SpanOf(visible);
    }
  }

  // PyTorch's allocator options, which every PyTorch process reads whatever its framework:
  // `expandable_segments:True` in PYTORCH_CUDA_ALLOC_CONF (or PYTORCH_ALLOC_CONF, its name from
  // torch 2.9) becomes the expandable_segments setting of each workload the command starts. A
  // value gpulint cannot read sets nothing: the allocator is then judged without them.
  void ReadAllocatorConfig() {
    // torch 2.9 reads the new name first and falls back to the old one.
    const Text* conf = nullptr;
    const char* via = nullptr;
    for (const char* name : {"PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF"}) {
      if (auto it = wrapper_env_.find(name); it != wrapper_env_.end()) conf = &it->second;
      if (!conf) conf = record_.Env(name);
      via = name;
      if (conf) break;
    }
    if (!conf || !conf->Known()) return;
    std::optional<bool> expandable = ExpandableSegmentsOption(conf->Str());
    if (!expandable) return;
    for (Workload& workload : out_.workloads) {
      if (workload.Find("expandable_segments")) continue;
      Setting setting;
      setting.name = "expandable_segments";
      setting.value = Value::Bool(*expandable);
      setting.span = SpanOf(*conf);
      setting.origin = Origin::kLiteral;
      setting.via = via;
      workload.settings.emplace(setting.name, std::move(setting));
    }
  }

  // nohup, env, time, conda run -n x, ...: dropped with their own options.
  bool StripWrapper(size_t at, size_t* next) {
    for (const FrameworkMap& header : r_.maps_.maps()) {
      if (header.kind != "wrapper") continue;
      for (const MatchSpec& match : header.matches) {
        if (!MatchesWords(match.command, texts_, at)) continue;
        const FrameworkMap& map = r_.maps_.Loaded(header);
        size_t i = at + match.command.size();
        bool is_env = match.command[0] == "env";
        while (i < words_.size()) {
          const std::string& word = texts_[i];
          if (is_env && word.find('=') != std::string::npos && !LooksLikeFlag(word)) {
            size_t eq = word.find('=');
            const std::string name = word.substr(0, eq);
            if (name == "CUDA_VISIBLE_DEVICES")
              ApplyVisibleDevices(words_[i].Substr(eq + 1, word.size()));
            if (name == "PYTORCH_CUDA_ALLOC_CONF" || name == "PYTORCH_ALLOC_CONF")
              wrapper_env_.insert_or_assign(name, words_[i].Substr(eq + 1, word.size()));
            ++i;
            continue;
          }
          if (!LooksLikeFlag(word)) break;
          i += (map.Flag(word) && word.find('=') == std::string::npos) ? 2 : 1;
        }
        // `timeout 3600 cmd`: a duration before the program.
        if (match.command[0] == "timeout" && i < words_.size()) {
          double seconds = 0;
          const std::string& word = texts_[i];
          if (ParseNumber(word.substr(0, word.find_first_not_of("0123456789.")), &seconds)) ++i;
        }
        *next = i;
        return true;
      }
    }
    return false;
  }

  bool StripLauncher(size_t at, size_t* next) {
    for (const FrameworkMap& map : r_.maps_.maps()) {
      if (map.kind != "launcher") continue;
      for (const MatchSpec& match : map.matches) {
        size_t start = 0;
        if (MatchesWords(match.command, texts_, at)) {
          start = at + match.command.size();
        } else if (!match.python_module.empty() && at + 2 < words_.size() &&
                   IsPythonExecutable(texts_[at]) && texts_[at + 1] == "-m" &&
                   texts_[at + 2] == match.python_module) {
          start = at + 3;
        } else if (!match.python_script.empty() && at + 1 < words_.size() &&
                   IsPythonExecutable(texts_[at]) &&
                   Basename(texts_[at + 1]) == match.python_script) {
          start = at + 2;  // a launcher that is itself a Python script (mason.py)
        } else if (!match.python_script.empty() && EndsWith(texts_[at], ".py") &&
                   Basename(texts_[at]) == match.python_script) {
          start = at + 1;  // the script run directly: `uv run mason.py`, `./mason.py`
        } else {
          continue;
        }
        *next = ParseLauncherFlags(r_.maps_.Loaded(map), start);
        return true;
      }
    }
    return false;
  }

  size_t ParseLauncherFlags(const FrameworkMap& map, size_t i) {
    out_.launch.launchers.push_back(map.name);
    if (map.distributed) out_.launch.distributed = true;
    std::vector<Pending> launcher_settings;
    while (i < words_.size()) {
      const std::string& word = texts_[i];
      if (std::find(map.program_after.begin(), map.program_after.end(), word) !=
          map.program_after.end()) {
        size_t program = i + 1;
        for (size_t k = program; k < words_.size(); ++k)
          if (std::find(map.program_separators.begin(), map.program_separators.end(),
                        texts_[k]) != map.program_separators.end())
            program = k + 1;
        ApplyLauncherSettings(launcher_settings);
        return program;
      }
      if (!LooksLikeFlag(word)) {
        // Launchers without an explicit separator: the first positional starts the program.
        if (map.program_after.empty()) break;
        ++i;  // e.g. `ray job submit` positionals before "--" do not occur; skip defensively
        continue;
      }
      size_t consumed = ApplyFlag(map, i, &launcher_settings, /*launcher=*/true);
      i += consumed;
    }
    ApplyLauncherSettings(launcher_settings);
    return i;
  }

  void ApplyLauncherSettings(std::vector<Pending>& launcher_settings) {
    for (Pending& pending : launcher_settings) {
      const std::string& name = pending.setting.name;
      if (name == "nproc_per_node") {
        out_.launch.nproc_per_node = pending.setting;
      } else if (name == "nodes") {
        out_.launch.nodes = pending.setting;
      } else if (name == "num_processes") {
        out_.launch.num_processes = pending.setting;
      } else if (name == "gpu_ids" || name == "gpu_include") {
        std::string text = pending.setting.value.ToString();
        if (StartsWith(text, "localhost:")) text = text.substr(10);
        std::vector<int> ids;
        if (text != "all" && ParseDeviceList(text, &ids)) out_.launch.gpu_ids = ids;
      } else if (name == "python_module_flag") {
        launcher_module_ = true;
      } else if (IsKnownSetting(name)) {
        launcher_pending_.push_back(pending);  // dtype, zero_stage, fsdp from a launcher config
      }
    }
  }

  // Applies the flag at words_[i] with `map`; returns how many words it used.
  size_t ApplyFlag(const FrameworkMap& map, size_t i, std::vector<Pending>* pending,
                   bool launcher) {
    const std::string& word = texts_[i];
    std::string name = word;
    std::optional<Text> inline_value;
    size_t eq = word.find('=');
    if (eq != std::string::npos) {
      name = word.substr(0, eq);
      inline_value = words_[i].Substr(eq + 1, word.size());
    }
    bool negated = false;
    const FlagSpec* spec = map.Flag(name);
    if (!spec && StartsWith(name, "--no-")) {
      spec = map.Flag("--" + name.substr(5));
      negated = spec && spec->kind != FlagSpec::Kind::kValue;
      if (!negated) spec = nullptr;
    }
    if (!spec && !launcher && fallback_) {
      spec = fallback_->Flag(name);
    }
    if (!spec) {
      // Unknown flag: it takes the next word as its value unless that word is a flag or the
      // program a launcher starts.
      if (inline_value) return 1;
      if (i + 1 < words_.size()) {
        const std::string& next = texts_[i + 1];
        if (!LooksLikeFlag(next) && !(launcher && LooksLikeProgram(next))) return 2;
      }
      return 1;
    }
    SourceSpan flag_span = SpanOf(words_[i]);
    size_t used = 1;
    const Text* value = nullptr;
    Text next_value;
    if (inline_value) {
      value = &*inline_value;
    } else if (spec->kind == FlagSpec::Kind::kValue) {
      if (i + 1 < words_.size()) {
        next_value = words_[i + 1];
        value = &next_value;
        used = 2;
        // nargs="+": `--num_learners_per_node 8 8` is one list.
        while (spec->nargs && i + used < words_.size() && !LooksLikeFlag(texts_[i + used])) {
          next_value.Append(Text::Literal(",", -1, 0, 0, false, true));
          next_value.Append(words_[i + used]);
          ++used;
        }
      }
    } else if (spec->kind == FlagSpec::Kind::kBool && i + 1 < words_.size() &&
               ParseBoolText(texts_[i + 1])) {
      next_value = words_[i + 1];
      value = &next_value;
      used = 2;
    }
    if (!spec->config_map.empty()) {
      if (value) ReadConfigFile(*value, spec->config_map, pending);
      return used;
    }
    if (!spec->further_model_role.empty()) {
      if (value) AddFurtherModel(spec->further_model_role, *value);
      return used;
    }
    if (spec->kind == FlagSpec::Kind::kValue && !value) return used;
    AddSetting(*spec, value, negated, flag_span, /*config=*/false, pending, name);
    return used;
  }

  // `written_as`: the flag or key as the script spells it (a [[reading]] may hold for some
  // spellings of a setting only).
  void AddSetting(const FlagSpec& spec, const Text* value, bool negated, const SourceSpan& span,
                  bool config, std::vector<Pending>* pending, const std::string& written_as = "") {
    if (!spec.unmodelled.empty() || !spec.unmodelled_values.empty())
      NoteUnmodelled(spec, value, negated, span, config, pending);
    if (spec.setting.empty()) return;
    auto built = BuildSetting(spec, value, negated, span, config, r_.sources_);
    if (!built) return;
    if (built->unresolved) out_.unresolved.push_back(*built->unresolved);
    built->setting.written_as = written_as;
    pending->push_back({spec.workloads, built->setting, spec.weak});
  }

  // A switch or value whose effect on memory gpulint does not model: the workload gets the
  // `unmodelled` setting holding why, and is not estimated.
  void NoteUnmodelled(const FlagSpec& spec, const Text* value, bool negated,
                      const SourceSpan& span, bool config, std::vector<Pending>* pending) {
    FlagSpec probe = spec;
    probe.setting = "unmodelled";
    probe.values.clear();
    auto built = BuildSetting(probe, value, negated, span, config, r_.sources_);
    if (!built) return;
    const Value& v = built->setting.value;
    std::string reason;
    if (!spec.unmodelled.empty() &&
        (v.is_bool() ? v.boolean : v.kind != Value::Kind::kNone && v.ToString() != "false"))
      reason = spec.unmodelled;
    if (auto it = spec.unmodelled_values.find(v.ToString()); it != spec.unmodelled_values.end())
      reason = it->second;
    if (reason.empty()) return;
    Setting setting = built->setting;
    setting.value = Value::String(reason);
    setting.editable = false;
    setting.not_editable_reason = "not modelled";
    pending->push_back({spec.workloads, setting});
  }

  void AddFurtherModel(const std::string& role, const Text& value) {
    FlagSpec spec;
    spec.setting = "model";
    auto built = BuildSetting(spec, &value, false, SpanOf(value), false, r_.sources_);
    if (!built) return;
    if (built->unresolved) out_.unresolved.push_back(*built->unresolved);
    further_.emplace_back(role, built->setting);
  }

  // Finds a file the command names: heredoc-written, then relative to the working directory the
  // script is in at that point, then to the script's folder.
  bool FindFile(const std::string& path, std::string* resolved, std::string* text,
                int* existing_file) {
    *existing_file = -1;
    if (auto it = r_.virtual_files_.find(path); it != r_.virtual_files_.end()) {
      if (auto start = it->second.Start()) *existing_file = start->first;
      *text = it->second.Str();
      *resolved = path;
      return true;
    }
    std::vector<std::string> candidates;
    if (StartsWith(path, "/")) {
      candidates.push_back(path);
    } else {
      const std::string& script_dir = r_.options_.script_dir;
      candidates.push_back(JoinNormal(JoinPath(script_dir, record_.cwd), path));
      candidates.push_back(JoinNormal(script_dir, path));
      // A job script kept in slurm/ or scripts/ is usually submitted from the project root.
      std::string up = script_dir;
      for (int level = 0; level < 2; ++level) {
        size_t slash = up.find_last_of('/');
        if (slash == std::string::npos || up == "/") break;
        up = slash == 0 ? "/" : up.substr(0, slash);
        candidates.push_back(JoinNormal(up, path));
      }
      // The folder gpulint runs in: axolotl and LLaMA-Factory open these paths from the working
      // directory, and a repository's configs are linted from its root.
      if (!StartsWith(script_dir, "/")) candidates.push_back(JoinNormal(".", path));
    }
    for (const std::string& candidate : candidates) {
      int known = r_.sources_.Find(candidate);
      if (known >= 0) {
        *resolved = candidate;
        *text = r_.sources_.text(known);
        *existing_file = known;
        return true;
      }
      if (r_.options_.read_file && r_.options_.read_file(candidate, text)) {
        *resolved = candidate;
        return true;
      }
    }
    return false;
  }

  // A config gpulint cannot read leaves what it may set unknown, said once per setting (GL005),
  // so that no rule judges the job as if the file said nothing.
  void MarkUnread(const FrameworkMap& map, const std::string& path, const SourceSpan& span,
                  std::vector<Pending>* pending) {
    for (const std::string& name : map.unknown_when_unread) {
      std::string reason = fmt::format(
          "it is set by {} '{}', which gpulint cannot read (lint from the folder the job starts "
          "in, or declare it with '# gpulint: {}=VALUE')",
          map.title, path, name);
      Setting setting;
      setting.name = name;
      setting.span = span;
      setting.origin = Origin::kConfigFile;
      setting.not_editable_reason = reason;
      pending->push_back({{}, setting});
      out_.unresolved.push_back({name, reason, span});
    }
  }

  // A config the framework ships under a name (torchtune's `--config qwen2_5/7B_lora`): its
  // values are known, but live in the framework, not the script. They point at the name, and
  // the tuner does not rewrite them there.
  void ApplyBuiltin(const FrameworkMap& map, const std::string& name, const BuiltinConfig& builtin,
                    const Text& name_text, std::vector<Pending>* pending) {
    const SourceSpan span = SpanOf(name_text);
    for (const auto& [key, raw] : builtin.values) {
      auto it = map.keys.find(key);
      if (it == map.keys.end() || !it->second.config_map.empty()) continue;
      int file = -1;
      if (auto start = name_text.Start()) file = start->first;
      Text value = Text::Literal(raw, file, 0, 0, /*exact=*/false, /*quoted=*/false);
      // A built-in config of a recipe gpulint does not model (torchtune's PPO) says so.
      if (!it->second.unmodelled.empty() || !it->second.unmodelled_values.empty())
        NoteUnmodelled(it->second, &value, false, span, /*config=*/true, pending);
      if (it->second.setting.empty()) continue;
      auto built = BuildSetting(it->second, &value, false, span, /*config=*/true, r_.sources_);
      if (!built) continue;
      Setting setting = built->setting;
      setting.span = span;
      setting.origin = Origin::kConfigFile;
      setting.via = fmt::format("built-in config {} ({})", name, builtin.source);
      setting.editable = false;
      setting.not_editable_reason =
          fmt::format("set by the built-in config {}: override it after the recipe", name);
      pending->push_back({it->second.workloads, std::move(setting)});
    }
  }

  void ReadConfigFile(const Text& path_text, const std::string& map_name,
                      std::vector<Pending>* pending, int depth = 0) {
    const FrameworkMap* map = r_.maps_.Find(map_name);
    if (!map || depth > 2) return;
    if (!path_text.Known()) {
      out_.unresolved.push_back({"config file", path_text.UnknownReason(), SpanOf(path_text)});
      return;
    }
    std::string path = path_text.Str(), resolved, text;
    int file = -1;
    if (!FindFile(path, &resolved, &text, &file)) {
      if (const BuiltinConfig* builtin = r_.maps_.FindBuiltin(map_name, path)) {
        ApplyBuiltin(*map, path, *builtin, path_text, pending);
        return;
      }
      out_.notes.push_back({ReaderNote::Level::kInfo,
                            fmt::format("config file '{}' is not in the linted tree; its settings "
                                        "are unknown",
                                        path),
                            SpanOf(path_text)});
      MarkUnread(*map, path, SpanOf(path_text), pending);
      return;
    }
    size_t base_offset = 0;
    bool exact_base = true;
    if (file < 0) {
      file = r_.sources_.Add(resolved, text);
      out_.files_read.push_back(resolved);
    } else if (r_.virtual_files_.count(path)) {
      // A heredoc body inside the script: offsets are relative to where it starts.
      const Text& body = r_.virtual_files_.at(path);
      auto start = body.Start();
      base_offset = start ? start->second : 0;
      size_t unused_offset = 0, unused_length = 0;
      int unused_file = 0;
      exact_base = body.ExactRun(&unused_file, &unused_offset, &unused_length);
    }
    std::vector<ConfigEntry> entries;
    std::string error;
    if (!ReadConfigEntries(text, &entries, &error)) {
      out_.notes.push_back({ReaderNote::Level::kWarning,
                            fmt::format("config file '{}' cannot be read: {}", path, error),
                            SpanOf(path_text)});
      MarkUnread(*map, path, SpanOf(path_text), pending);
      return;
    }
    const Text* body = nullptr;
    if (auto it = r_.virtual_files_.find(path); it != r_.virtual_files_.end()) body = &it->second;
    for (const ConfigEntry& entry : entries) {
      auto it = map->keys.find(entry.key);
      if (it == map->keys.end() || entry.is_null) continue;
      Text value = Text::Literal(entry.value, file, base_offset + entry.offset, entry.length,
                                 entry.exact && exact_base, entry.quoted);
      // A heredoc body carries its own provenance ("$MBS" expanded from MBS=4): use it.
      if (body && entry.exact) value = body->Substr(entry.offset, entry.offset + entry.length);
      if (!it->second.config_map.empty()) {
        ReadConfigFile(value, it->second.config_map, pending, depth + 1);
        continue;
      }
      AddSetting(it->second, &value, false, SpanOf(value), /*config=*/true, pending, entry.key);
    }
  }

  void ReadProgram(size_t at) {
    const std::string& first = texts_[at];
    std::string module, script;
    size_t args_start = at + 1;
    bool python = IsPythonExecutable(first) ||
                  (!words_[at].Known() && at + 1 < words_.size() &&
                   EndsWith(texts_[at + 1], ".py"));
    const Text* heredoc_source = nullptr;
    if (python) {
      size_t i = at + 1;
      while (i < words_.size()) {
        const std::string& word = texts_[i];
        if (word == "-m" && i + 1 < words_.size()) {
          module = texts_[i + 1];
          args_start = i + 2;
          break;
        }
        if (word == "-c") return;  // inline code: not read
        if (word == "-") {
          for (const RedirectRecord& redirect : record_.redirects)
            if (redirect.has_heredoc) heredoc_source = &redirect.heredoc;
          args_start = i + 1;
          break;
        }
        if (LooksLikeFlag(word)) {
          i += (word == "-W" || word == "-X") ? 2 : 1;
          continue;
        }
        script = word;
        args_start = i + 1;
        break;
      }
      if (module.empty() && script.empty() && !heredoc_source) {
        for (const RedirectRecord& redirect : record_.redirects)
          if (redirect.has_heredoc) heredoc_source = &redirect.heredoc;
        if (!heredoc_source) return;
      }
    } else if (EndsWith(first, ".py")) {
      script = first;  // torchrun train.py, accelerate launch train.py
      python = true;
    } else if (!out_.launch.launchers.empty() && !LooksLikeFlag(first) && launcher_module_) {
      module = first;
      python = true;
    }
    out_.entry = python ? "python" : "command";  // MatchFramework may refine it
    out_.script = !module.empty() ? module : script;

    // The Python file, when it is in the tree, for its calls and argparse defaults.
    std::set<std::string> flag_names;
    for (size_t i = args_start; i < words_.size(); ++i) {
      const std::string& word = texts_[i];
      if (LooksLikeFlag(word)) flag_names.insert(word.substr(0, word.find('=')));
    }
    std::optional<PythonSource> python_source;
    if (python) python_source = LoadPython(script, module, heredoc_source);

    const FrameworkMap* map = MatchFramework(at, python, module, script, flag_names,
                                             python_source ? &*python_source : nullptr);
    if (!map && !pinned_out_.empty()) {
      out_.notices.push_back({PinnedOutNotice(), SpanOf(words_[at])});
      return;
    }
    if (!map) return;
    out_.map = map;
    if (map->kind == "unmodelled") {
      // Recognized and not modelled: say so once, and estimate nothing rather than guess.
      std::string pinned = PinnedOutNotice();
      out_.notices.push_back(
          {!pinned.empty() ? pinned
                           : fmt::format("{} is not modelled by gpulint: this command is not "
                                         "estimated and no memory rule checks it",
                                         matched_title_),
           SpanOf(words_[at])});
      return;
    }
    if (python && map->name != "generic") fallback_ = r_.maps_.Find("generic");
    size_t command_words = 0;
    // The longest spelling that matches: `litgpt finetune lora` before `litgpt finetune`.
    for (const MatchSpec& match : map->matches)
      if (MatchesWords(match.command, texts_, at))
        command_words = std::max(command_words, match.command.size());
    if (!python) args_start = at + command_words;

    std::vector<Pending> pending = launcher_pending_;
    ReadEnvironment(*map, &pending);
    ParseArguments(*map, args_start, &pending);
    if (python_source) BindPython(*map, *python_source, &pending);
    BuildWorkloads(*map, script.empty() ? module : script, pending);
  }

  struct PythonSource {
    std::shared_ptr<const PyModule> module;  ///< never null
    int file = -1;
    size_t base_offset = 0;
    bool exact = true;
  };

  std::optional<PythonSource> LoadPython(const std::string& script, const std::string& module,
                                         const Text* heredoc) {
    const std::set<std::string>& interesting = r_.InterestingPythonCalls();
    PythonSource source;
    std::string text;
    if (heredoc) {
      text = heredoc->Str();
      auto start = heredoc->Start();
      source.file = start ? start->first : -1;
      source.base_offset = start ? start->second : 0;
      int f = 0;
      size_t o = 0, l = 0;
      source.exact = heredoc->ExactRun(&f, &o, &l);
    } else {
      std::string path = script;
      if (path.empty()) {
        path = module;
        std::replace(path.begin(), path.end(), '.', '/');
        path += ".py";
      }
      std::string resolved;
      int existing = -1;
      if (!FindFile(path, &resolved, &text, &existing)) return std::nullopt;
      source.file = existing >= 0 ? existing : r_.sources_.Add(resolved, text);
      if (existing < 0) out_.files_read.push_back(resolved);
    }
    // A file is read through the run's cache; a heredoc is this script's own.
    source.module = r_.options_.parse_cache && !heredoc
                        ? r_.options_.parse_cache->ReadPython(
                              r_.sources_.path(source.file), text, interesting)
                        : std::make_shared<const PyModule>(ReadPython(text, interesting));
    return source;
  }

  const FrameworkMap* MatchFramework(size_t at, bool python, const std::string& module,
                                     const std::string& script,
                                     const std::set<std::string>& flags,
                                     const PythonSource* source) {
    pinned_out_.clear();
    for (const FrameworkMap& map : r_.maps_.maps()) {
      if (map.kind != "framework" && map.kind != "generic" && map.kind != "unmodelled") continue;
      const MatchSpec* match = Matching(map, at, python, module, script, flags, source);
      if (!match) continue;
      // A map of a release the project does not pin: remembered, so that what the command
      // falls to can say which releases gpulint models.
      if (!ModelsPinnedRelease(map)) {
        pinned_out_.push_back(&map);
        continue;
      }
      matched_title_ = match->title.empty() ? map.title : match->title;
      if (!match->python_call.empty()) out_.entry = "python_call";  // vLLM's LLM, not its server
      return &r_.maps_.Loaded(map);
    }
    return nullptr;
  }

  // A match's `requires_value`: each flag written after `at` with one of its values, as
  // `--flag V` or `--flag=V`.
  bool ValuesWritten(const std::map<std::string, std::vector<std::string>>& required,
                     size_t at) const {
    for (const auto& [flag, accepted] : required) {
      bool found = false;
      for (size_t i = at; i < texts_.size() && !found; ++i) {
        const std::string& word = texts_[i];
        std::string value;
        if (word == flag && i + 1 < texts_.size()) {
          value = texts_[i + 1];
        } else if (word.size() > flag.size() && word.compare(0, flag.size(), flag) == 0 &&
                   word[flag.size()] == '=') {
          value = word.substr(flag.size() + 1);
        } else {
          continue;
        }
        found = std::find(accepted.begin(), accepted.end(), value) != accepted.end();
      }
      if (!found) return false;
    }
    return true;
  }

  // The first [[match]] of `map` that the command fits; nullptr when none does.
  const MatchSpec* Matching(const FrameworkMap& map, size_t at, bool python,
                            const std::string& module, const std::string& script,
                            const std::set<std::string>& flags,
                            const PythonSource* source) const {
    for (const MatchSpec& match : map.matches) {
      // A command whose flags changed between releases (ms-swift 2.x's --sft_type) is told
      // apart the same way as a module below.
      if (!match.command.empty() && !python && MatchesWords(match.command, texts_, at) &&
          AnyFlagPresent(match.requires_flags, flags) && ValuesWritten(match.requires_values, at))
        return &match;
      // A module whose command line changed between versions (OpenRLHF's dotted flags) is
      // told apart by the flags only one of its versions has.
      if (!match.python_module.empty() && python && module == match.python_module &&
          AnyFlagPresent(match.requires_flags, flags))
        return &match;
      // "*" stands for any program a team wrote: a script, or a module run with -m by a
      // distributed launcher or carrying the flags the match requires (a bare `python -m`
      // is as often pip or http.server as a trainer).
      const bool any_program =
          match.python_script == "*" &&
          (!script.empty() || (!module.empty() && (!out_.launch.launchers.empty() ||
                                                   !match.requires_flags.empty())));
      if (!match.python_script.empty() && python &&
          (any_program ||
           (!script.empty() && (Basename(script) == match.python_script ||
                                script == match.python_script ||
                                EndsWith(script, "/" + match.python_script)))) &&
          AnyFlagPresent(match.requires_flags, flags))
        return &match;
      if (!match.python_call.empty() && source)
        for (const PyCall& call : source->module->calls)
          if (call.callee == match.python_call) return &match;
    }
    return nullptr;
  }

  // What a command whose framework gpulint models in other releases than the pinned one is told:
  // "trl is pinned to 0.18.2; gpulint models TRL GRPO in releases >=1.0, >=0.23,<0.26 only".
  std::string PinnedOutNotice() const {
    if (pinned_out_.empty()) return "";
    const FrameworkMap& first = *pinned_out_.front();
    std::string ranges;
    for (const FrameworkMap* map : pinned_out_)
      if (map->package == first.package && !map->versions.empty())
        ranges += (ranges.empty() ? "" : ", ") + map->versions;
    auto pin = r_.options_.package_versions.find(first.package);
    std::string pinned = "a release gpulint cannot read";
    if (pin != r_.options_.package_versions.end() && !pin->second.empty()) pinned = pin->second;
    return fmt::format("{} is pinned to {}; gpulint models {} in releases {} only: this "
                       "command is not estimated and no memory rule checks it",
                       first.package, pinned, first.title, ranges);
  }

  // Whether the project pins the release of the map's package.
  bool ReleasePinned(const FrameworkMap& map) const {
    return !map.package.empty() && r_.options_.package_versions.count(map.package) > 0;
  }

  // False when the project pins the map's package to releases the map does not model.
  bool ModelsPinnedRelease(const FrameworkMap& map) const {
    if (map.versions.empty()) return true;
    auto pin = r_.options_.package_versions.find(map.package);
    if (pin == r_.options_.package_versions.end()) return true;
    if (pin->second.empty()) return false;  // pinned to a release gpulint cannot read
    est::VersionRange pinned, modelled;
    if (!est::ParseVersionRange(pin->second, &pinned) ||
        !est::ParseVersionRange(map.versions, &modelled))
      return true;
    return !(pinned.high < modelled.low) && !(modelled.high < pinned.low);
  }

  // The environment variables the map reads, before the flags (which may override them).
  void ReadEnvironment(const FrameworkMap& map, std::vector<Pending>* pending) {
    for (const auto& [name, spec] : map.env)
      if (const Text* value = record_.Env(name))
        AddSetting(spec, value, false, SpanOf(*value), false, pending);
  }

  void ParseArguments(const FrameworkMap& map, size_t i, std::vector<Pending>* pending) {
    size_t positional = 0;
    while (i < words_.size()) {
      const std::string& word = texts_[i];
      if (word == "--") {
        ++i;
        continue;
      }
      if (LooksLikeFlag(word)) {
        i += ApplyFlag(map, i, pending, /*launcher=*/false);
        continue;
      }
      size_t eq = word.find('=');
      if (eq != std::string::npos && eq > 0 && !map.keys.empty()) {
        // A Hydra override: key=value, +key=value, ++key=value.
        std::string key = word.substr(0, eq);
        while (!key.empty() && (key[0] == '+' || key[0] == '~')) key = key.substr(1);
        auto it = map.keys.find(key);
        if (it != map.keys.end()) {
          Text value = words_[i].Substr(eq + 1, word.size());
          AddSetting(it->second, &value, false, SpanOf(words_[i]), false, pending);
        }
        ++i;
        continue;
      }
      if (positional < map.positional.size()) {
        const std::string& name = map.positional[positional++];
        if (name == "config_file") {
          ReadConfigFile(words_[i], map.name, pending);
        } else {
          FlagSpec spec;
          spec.setting = name;
          AddSetting(spec, &words_[i], false, SpanOf(words_[i]), false, pending);
        }
      }
      ++i;
    }
  }

  void BindPython(const FrameworkMap& map, const PythonSource& source,
                  std::vector<Pending>* pending) {
    PythonBinding binding(*source.module, source.file, source.base_offset, source.exact, words_,
                          r_.sources_);
    // Keyword arguments of the map's own calls, then the loader calls (from_pretrained,
    // BitsAndBytesConfig, LoraConfig) that any training or inference script makes.
    std::vector<const FrameworkMap*> providers = {&map};
    for (const FrameworkMap& other : r_.maps_.maps())
      if (&other != &map && (other.kind == "config" || other.name == "transformers"))
        for (const MatchSpec& match : other.matches)
          if (!match.python_call.empty() &&
              std::find(providers.begin(), providers.end(), &other) == providers.end())
            providers.push_back(&r_.maps_.Loaded(other));
    std::set<std::string> already;
    for (const Pending& p : *pending) already.insert(p.setting.name);
    for (const FrameworkMap* provider : providers) {
      std::set<std::string> calls;
      for (const MatchSpec& match : provider->matches)
        if (!match.python_call.empty()) calls.insert(match.python_call);
      for (const PyCall& call : source.module->calls) {
        if (!calls.count(call.callee)) continue;
        for (const BoundKeyword& keyword : binding.Keywords(call)) {
          auto it = provider->kwargs.find(keyword.key);
          if (it == provider->kwargs.end()) continue;
          if (provider != &map && already.count(it->second.setting)) continue;
          if (!keyword.value) continue;
          std::vector<Pending> produced;
          // A value from the script's own flags keeps the script's provenance.
          auto start = keyword.value->Start();
          bool in_python = !start || start->first != record_.file;
          AddSetting(it->second, &*keyword.value, false, SpanOf(*keyword.value), in_python,
                     &produced);
          for (Pending& p : produced) {
            if (keyword.conditional) {
              p.setting.ambiguous = true;
              p.setting.not_editable_reason = keyword.condition_note;
              p.setting.editable = false;
            }
            pending->push_back(std::move(p));
          }
        }
      }
    }
    for (const std::string& note : binding.notes())
      out_.notes.push_back({ReaderNote::Level::kInfo, note, SourceSpan()});
  }

  std::string RoleOf(const FrameworkMap& map, const WorkloadSpec& spec,
                     const std::string& program) {
    if (map.role_words.empty()) return spec.role;
    std::string base = ToLower(Basename(program));
    for (const char* role : {"train", "eval"}) {
      auto it = map.role_words.find(role);
      if (it == map.role_words.end()) continue;
      for (const std::string& word : it->second)
        if (base.find(word) != std::string::npos) return role;
    }
    return out_.launch.distributed ? "train" : "eval";
  }

  void BuildWorkloads(const FrameworkMap& map, const std::string& program,
                      const std::vector<Pending>& pending) {
    std::vector<WorkloadSpec> specs = map.workloads;
    if (specs.empty()) {
      WorkloadSpec train;
      train.role = "train";
      train.primary = true;
      specs.push_back(train);
    }
    // `when`, `when_all` and `unless` are map conditions (lint/reader/map_condition.h: slime's
    // "colocate", "ref_model=false", "lora_rank>0") on what the command sets; a setting it
    // leaves out has the map's unconditional default for the role, if any (verl's critic exists
    // under the default advantage estimator, GAE).
    auto settings_for = [&](const std::string& role) {
      Workload probe;
      probe.role = role;
      for (const Pending& p : pending) probe.settings[p.setting.name] = p.setting;
      for (const DefaultSpec& d : map.defaults) {
        if (d.none || !d.when.empty() || !d.variants.empty() || probe.Find(d.setting)) continue;
        if (!d.workloads.empty() &&
            std::find(d.workloads.begin(), d.workloads.end(), role) == d.workloads.end())
          continue;
        Setting setting;
        setting.name = d.setting;
        setting.value = TypedValue(d.setting, d.value);
        probe.settings[d.setting] = setting;
      }
      return probe;
    };
    for (const WorkloadSpec& spec : specs) {
      const Workload probe = settings_for(spec.role);
      auto is_true = [&](const std::string& when) { return ConditionHolds(when, probe); };
      if (std::any_of(spec.unless.begin(), spec.unless.end(), is_true)) continue;
      if (!spec.when.empty() &&
          std::none_of(spec.when.begin(), spec.when.end(), is_true))
        continue;
      if (!std::all_of(spec.when_all.begin(), spec.when_all.end(), is_true)) continue;
      Workload workload;
      workload.role = RoleOf(map, spec, program);
      workload.framework = map.name;
      workload.release_pinned = ReleasePinned(map);
      workload.command_span = SpanOf(record_.argv[0]);
      auto applies = [&](const Pending& p) {
        return p.roles.empty()
                   ? spec.primary || specs.size() == 1
                   : std::find(p.roles.begin(), p.roles.end(), spec.role) != p.roles.end();
      };
      for (const Pending& p : pending)
        if (applies(p) && !p.weak) Merge(&workload, p.setting);
      // Weak flags fill only what the others left.
      for (const Pending& p : pending)
        if (applies(p) && p.weak && !workload.Find(p.setting.name)) Merge(&workload, p.setting);
      if (out_.launch.nodes && !workload.Find("nodes")) workload.settings["nodes"] = *out_.launch.nodes;
      workload.shares_process_gpus = spec.shares_process;
      // On GPUs of its own whatever the colocation switch or its default says: the framework
      // places it apart.
      if (std::any_of(spec.apart.begin(), spec.apart.end(), is_true)) {
        Setting apart;
        apart.name = "colocate";
        apart.value = TypedValue("colocate", "false");
        apart.origin = Origin::kFrameworkDefault;
        apart.via = "placed apart under " + spec.apart.front();
        apart.not_editable_reason = "the framework places it apart";
        workload.settings["colocate"] = apart;
      }
      out_.workloads.push_back(std::move(workload));
    }
    if (out_.workloads.empty()) return;
    // Workloads in the primary's processes take what they share with it.
    for (size_t w = 1; w < out_.workloads.size(); ++w) {
      if (!out_.workloads[w].shares_process_gpus) continue;
      for (const char* shared : {"model", "micro_batch", "max_seq_len", "dtype", "zero_stage",
                                 "fsdp", "trainer_style", "gpus_per_node", "nodes"})
        if (const Setting* setting = out_.workloads.front().Find(shared);
            setting && !out_.workloads[w].Find(shared)) {
          Setting copy = *setting;
          copy.editable = false;
          copy.not_editable_reason = "shared with the " + out_.workloads.front().role + " workload";
          out_.workloads[w].settings[shared] = copy;
        }
    }
    // A copy: the pushes below may move the vector's elements.
    const Workload primary = out_.workloads.front();
    for (auto& [role, model] : further_) {
      Workload workload;
      workload.role = role;
      workload.framework = map.name;
      workload.release_pinned = ReleasePinned(map);
      workload.command_span = model.span;
      workload.shares_process_gpus = true;
      workload.settings["model"] = model;
      // It serves the process's batch: the same sequences pass through it.
      for (const char* shared : {"micro_batch", "max_seq_len", "max_new_tokens", "dtype"})
        if (const Setting* setting = primary.Find(shared)) {
          Setting copy = *setting;
          copy.editable = false;
          copy.not_editable_reason = "shared with the " + primary.role + " workload";
          workload.settings[shared] = copy;
        }
      out_.workloads.push_back(std::move(workload));
    }
  }

  // List settings (offload) collect; the last spelling of anything else wins, as in argparse.
  static void Merge(Workload* workload, const Setting& setting) {
    auto it = workload->settings.find(setting.name);
    if (it != workload->settings.end() && TypeOfSetting(setting.name) == SettingType::kList &&
        it->second.value.is_list() && setting.value.is_list()) {
      for (const std::string& item : setting.value.list)
        if (std::find(it->second.value.list.begin(), it->second.value.list.end(), item) ==
            it->second.value.list.end())
          it->second.value.list.push_back(item);
      it->second.value.text = Join(it->second.value.list, ",");
      return;
    }
    workload->settings[setting.name] = setting;
  }

  CommandReader& r_;
  const CommandRecord& record_;
  std::vector<Text> words_;
  std::vector<std::string> texts_;  ///< words_[i].Str(), made once
  /// PYTORCH_CUDA_ALLOC_CONF / PYTORCH_ALLOC_CONF given to an `env` wrapper.
  std::map<std::string, Text> wrapper_env_;
  ProgramRead out_;
  std::vector<Pending> launcher_pending_;
  std::vector<std::pair<std::string, Setting>> further_;
  const FrameworkMap* fallback_ = nullptr;
  std::string matched_title_;  ///< the framework the matching [[match]] names
  /// Maps whose [[match]] fits the command but whose releases the project's pin excludes.
  std::vector<const FrameworkMap*> pinned_out_;
  bool launcher_module_ = false;
  SourceSpan visible_span_;
};

CommandReader::CommandReader(SourceMap& sources, const FrameworkMaps& maps,
                             const std::map<std::string, Text>& virtual_files,
                             const CommandReaderOptions& options)
    : sources_(sources), maps_(maps), virtual_files_(virtual_files), options_(options) {}

ProgramRead CommandReader::Read(const CommandRecord& record) { return Impl(*this, record).Run(); }

const std::set<std::string>& CommandReader::InterestingPythonCalls() {
  if (interesting_python_calls_.empty()) {
    interesting_python_calls_ = {"from_pretrained", "BitsAndBytesConfig", "LoraConfig",
                                 "add_argument"};
    for (const FrameworkMap& map : maps_.maps())
      for (const MatchSpec& match : map.matches)
        if (!match.python_call.empty()) interesting_python_calls_.insert(match.python_call);
  }
  return interesting_python_calls_;
}

}  // namespace gpulint
