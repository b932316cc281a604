// A framework flag map (rules/frameworks/<name>.toml): how to recognize a framework's commands,
// which workloads they start, and how its flags, config keys and Python keyword arguments map
// onto canonical settings, with the defaults that matter for memory. Data, not code: adding a
// framework is adding one TOML file (format: rules/frameworks/README.md).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpulint {

/// How one flag, key or keyword argument maps onto a setting.
struct FlagSpec {
  std::string setting;                     ///< canonical setting name
  enum class Kind {
    kValue,   ///< takes a value: --flag V or --flag=V
    kSwitch,  ///< no value: presence sets `value` (default true); --no-flag sets false
    kBool,    ///< optional value: --flag, --flag true, --flag False (HfArgumentParser)
  } kind = Kind::kValue;
  std::string value;                       ///< kSwitch: the value it sets ("true" if empty)
  std::map<std::string, std::string> values;  ///< value translation, e.g. "4" -> "nf4"
  std::vector<std::string> workloads;      ///< roles it applies to; empty: the primary one
  std::string config_map;                  ///< the value is a config file read with this map
  std::string further_model_role;          ///< the value names a further model with this role
  bool list = false;                       ///< the value is a list (comma separated)
  /// Read past, never used: no estimate or rule reads it (a launcher's --master-addr, ray's
  /// --runtime-env-json), so a value gpulint cannot know is no finding.
  bool unused = false;
  /// The value is a list whose members `values` looks up: the first member it names decides
  /// (axolotl's `plugins: [..CutCrossEntropyPlugin, ..LigerPlugin]`); none named, "*" or nothing.
  bool members = false;
  bool nargs = false;                      ///< argparse nargs="+": every word up to the next flag
  double scale = 1;                        ///< multiply numbers (e.g. GB -> bytes)
  /// Values that set no limit (ms-swift 2.x's `--max_length -1`): the setting is written as
  /// kNoLimit, not a number, so neither a default nor a guess stands in for it; the data decides.
  std::vector<std::string> no_limit;
  /// Sets its setting only where no other flag of the command does, whatever their order
  /// (OpenRLHF's --reward_pretrain is the critic's model unless --critic_pretrain names one).
  bool weak = false;
  bool alias = false;                      ///< another spelling of the map's main one
  /// Set (true, or any value) this switch changes memory in a way gpulint does not model
  /// (LLaMA-Factory's use_kt keeps MoE experts on the CPU): the workload is not estimated,
  /// and a notice says why. `unmodelled_values`: the same for particular values as written.
  std::string unmodelled;
  std::map<std::string, std::string> unmodelled_values;
};

struct MatchSpec {
  std::vector<std::string> command;        ///< executable and subcommand words
  std::string python_module;               ///< python -m MODULE
  std::string python_script;               ///< basename of a script run with python
  std::vector<std::string> requires_flags; ///< match only when one of these flags is present
  /// Match only when each of these flags is written with one of its values (ms-swift's
  /// `swift rlhf --rlhf_type grpo`, a trainer of its own behind the same command).
  std::map<std::string, std::vector<std::string>> requires_values;
  std::string python_call;                 ///< a call in Python source (LLM, from_pretrained)
  /// A YAML/JSON file linted on its own is this framework's config when it has every one of
  /// these keys (dotted, as ReadConfigEntries names them), and reads as `config_command` with
  /// "{file}" replaced by its name. Positive evidence only: a YAML is nobody's by default.
  std::vector<std::string> config_keys;
  std::vector<std::string> config_command;
  /// The start of the command a config's own comments say runs it ("tune run"): that
  /// command, with the value after --config replaced by the file, is how the file is read.
  /// Without such a comment (and no config_command) the file gets a notice, not a guess.
  std::string config_usage;
  std::string title;                       ///< kind "unmodelled": the framework this match names
};

struct WorkloadSpec {
  std::string role;
  std::vector<std::string> gpus;           ///< product of these settings = GPUs it occupies
  /// Factors of `gpus` that a bool setting folds into another when true: SGLang's dp_attention
  /// runs its data-parallel attention inside the TP group, so dp adds no GPUs
  /// ({"dp": "dp_attention"}).
  std::map<std::string, std::string> gpus_within;
  /// Bool settings that make this workload vanish when one is true ("colocate"), or has the
  /// value given ("ref_model=false": a reference policy loaded unless switched off). A string or
  /// a list in the map.
  std::vector<std::string> unless;
  /// Conditions of the same form of which one must hold for the workload to exist (OpenRLHF's
  /// reference policy shares the actor's GPUs only under --colocate_all_models or
  /// --colocate_actor_ref). Empty: it exists unless `unless` holds. Both read what the command
  /// line sets, not the map's defaults.
  std::vector<std::string> when;
  /// Conditions that must all hold (TRL before 1.0 runs a vLLM engine in the trainer's
  /// processes only under use_vllm and vllm_mode=colocate). Read as `when` is.
  std::vector<std::string> when_all;
  /// Conditions, read as `when` is, under which the workload takes GPUs of its own whatever
  /// `colocate` says (OpenRLHF's engines under --train.async_enable get no placement group of the
  /// actor's: openrlhf/cli/train_ppo_ray.py:75).
  std::vector<std::string> apart;
  bool primary = false;
  /// Lives in the primary workload's processes, on its GPUs, beside it (grpo_fast's reference
  /// policy next to each learner): it takes the primary's model, batch and sharding.
  bool shares_process = false;
  /// The program launches itself over every visible GPU when no count is given (`axolotl
  /// train` runs `accelerate launch`): the visible devices, unknown where none are declared.
  bool all_visible_gpus = false;
};

/// A default that holds only on some GPUs or entry points (vLLM's batch defaults).
struct DefaultVariant {
  std::string value;
  double gpu_min_gib = 0;                  ///< holds on GPUs with at least this much memory
  std::vector<std::string> gpu_not;        ///< ... whose name contains none of these
  std::string entry;                       ///< "python" (a Python call) or "" (any)
  std::string role;                        ///< holds for this workload only ("" for any)
  std::string when;                        ///< ... and when this condition holds ("" always)
};

struct DefaultSpec {
  std::string setting;
  std::string value;
  std::string source;                      ///< where the default was read
  std::vector<std::string> workloads;
  std::string when;                        ///< a condition (lint/reader/map_condition.h)
  std::vector<DefaultVariant> variants;    ///< the first that holds wins over `value`
  /// The default steps back where the script writes any of these settings: a framework's own
  /// switch that turns several things on only when the user chose none of them (axolotl's
  /// fused LoRA kernels).
  std::vector<std::string> unless_written;
  /// `none = true`: the framework has no default for it here, though a map this one inherits
  /// does (TRL's GRPOConfig has no max_length, its SFTConfig does); nothing is assumed.
  bool none = false;
};

/// A change the framework refuses without another (verl's Ulysses sequence parallelism needs
/// remove_padding): the tuner writes both.
struct RequirementSpec {
  std::string when;                                      ///< a condition on the new values
  std::vector<std::pair<std::string, std::string>> set;  ///< settings it needs, and values
  std::string source;                                    ///< where it was read
};

/// A value the framework needs at least as large as the sum of others ([[at_least]]): verl's
/// dynamic batching packs whole sequences, so its token budget (times the Ulysses size) must
/// hold the longest one (prompt + response); its rollout cuts responses at max_model_len. A
/// change to a summed setting moves the bound with it (tuner/bounds.h), all of them or none; a
/// bound the framework asserts is a finding when the script's values miss it (GL307).
struct BoundSpec {
  std::string setting;             ///< the bound: `setting` x `times` at least ...
  std::vector<std::string> sum;    ///< ... the sum of these settings of the same workload
  std::vector<std::string> times;  ///< factors of the bound (absent ones count 1)
  std::string role;                ///< the workloads it binds ("": all the map starts)
  std::string when;                ///< a condition on the workload, as in [[requires]]
  /// "refuses": the framework stops (an assertion, a ValueError at start-up); "cuts": it runs
  /// and truncates (no finding of its own).
  std::string effect = "refuses";
  std::string source;              ///< the framework's line that asserts or cuts
};

/// A flag whose meaning the framework's source does not fix (a team's own entry point decides
/// what `--bf16` does): the meaning the map gives it, and another that gpulint prices beside it.
/// Where the two put the job on different sides of the GPU's memory, the verdict is left open
/// until the script states the meaning (lint/analysis/readings.h).
struct ReadingSpec {
  std::string setting;   ///< the setting the flag sets
  std::string flag;      ///< the flag, for people ("--bf16")
  std::string value;     ///< applies when the setting has this value; empty: any value.
                         ///< With `unset`: the value the estimate assumes
  std::vector<std::string> flags;  ///< applies only to these spellings; empty: any
  bool unset = false;    ///< applies when the script leaves the setting to the map's assumption
                         ///< or default
  bool unpinned = false;  ///< applies only when the project pins no release of the map's package
  std::string taken_as;  ///< the map's meaning, for people
  std::string other_as;  ///< the other meaning, for people
  std::vector<std::pair<std::string, std::string>> other;  ///< settings under the other meaning
  /// Settings that state the map's meaning (`batch_scope = "per_device"`); empty: the setting
  /// at its value.
  std::vector<std::pair<std::string, std::string>> taken;
};

/// A config a framework ships under a name, not a path (torchtune's `tune run ... --config
/// qwen2_5/7B_lora`): the values of the keys gpulint reads, and where they were read. Kept in
/// a map of kind "builtins" whose `builtins_for` names the config map that reads them.
struct BuiltinConfig {
  std::string source;
  std::vector<std::pair<std::string, std::string>> values;  ///< dotted key -> value as written
};

struct FrameworkMap {
  std::string name;
  std::string title;
  /// framework | launcher | wrapper | config | generic | unmodelled (recognized, not modelled:
  /// its commands and configs get a notice instead of a guessed workload)
  std::string kind = "framework";
  std::string version;                     ///< the release the map was read from ("1.9")
  /// The pip package of the framework ("trl") and the releases this map models, as a pin
  /// (">=1.0"). Where a project pins the package (a `# gpulint: trl=0.23` directive, the
  /// script's `pip install`, gpulint.toml's [versions], requirements files), a map whose
  /// releases the pin does not reach is not matched: an older map of the same package is.
  /// Unpinned, the maps are tried in priority order, the newest release first.
  std::string package;
  std::string versions;
  std::string source;
  std::string path;                        ///< the TOML file (for errors)
  int priority = 50;                       ///< lower is tried first; generic maps last
  std::vector<MatchSpec> matches;
  std::vector<std::string> positional;     ///< settings the positional arguments hold
  std::vector<WorkloadSpec> workloads;
  std::map<std::string, FlagSpec> flags;   ///< by flag spelling, aliases included
  std::map<std::string, FlagSpec> keys;    ///< dotted keys: Hydra overrides, YAML, JSON
  std::map<std::string, FlagSpec> kwargs;  ///< Python keyword arguments
  /// Environment variables the program reads (ms-swift's NPROC_PER_NODE), as the command sees
  /// them: `X=1 cmd`, then exported.
  std::map<std::string, FlagSpec> env;
  std::vector<DefaultSpec> defaults;
  std::vector<RequirementSpec> requirements;  ///< [[requires]]
  std::vector<BoundSpec> bounds;              ///< [[at_least]]
  std::vector<ReadingSpec> readings;          ///< [[reading]]
  std::vector<std::string> program_after;  ///< launcher: "--" ends its options
  /// Launcher: words after which the program starts, the last one winning (`mason.py ... --
  /// source setup.sh \&\& python train.py`: the command string runs in a shell).
  std::vector<std::string> program_separators;
  bool distributed = false;                ///< launcher: starts one process per GPU
  // Roles a generic entry point gets from words in its script name.
  std::map<std::string, std::vector<std::string>> role_words;
  /// The config file a command names (`trl grpo --config grpo.yaml`: HfArgumentParser's
  /// dataclass fields) takes the map's keyword arguments, inherited ones included, as keys.
  bool kwargs_as_keys = false;
  /// Maps whose flags, keys, kwargs, defaults, [[requires]] and [[reading]] apply too.
  std::vector<std::string> inherits;
  /// Config maps: the settings a file of this kind may set, unknown when a command names one
  /// gpulint cannot read (an unread DeepSpeed JSON is not "no ZeRO").
  std::vector<std::string> unknown_when_unread;
  /// Kind "builtins": the config maps these named configs belong to, and the configs by name.
  std::vector<std::string> builtins_for;
  std::map<std::string, BuiltinConfig> builtins;
  bool loaded = true;                      ///< false: only the header is read (see Loaded)
  std::string text;                        ///< the TOML, kept until the map is loaded

  const FlagSpec* Flag(const std::string& spelling) const;
};

/// All maps: the built-in ones and the project's own (gpulint.toml `frameworks = [...]`).
class FrameworkMaps {
 public:
  /// Loads the built-in maps. Aborts only when they are broken (a build defect the tests catch).
  FrameworkMaps();
  /// Merges inherited maps into their heirs; call after every map is added.
  void ResolveInheritance();
  /// Adds a project map from a file; false with "what: file:line:col" on error.
  bool AddFile(const std::string& path, std::string* error);
  bool AddText(const std::string& text, const std::string& where, std::string* error);

  /// Every map with its header ([framework], [[match]], [[workload]]): enough to match.
  const std::vector<FrameworkMap>& maps() const { return maps_; }
  /// `map` with its flags, keys, kwargs and defaults and its parents' merged in. Built-in maps
  /// are read only up to their first such table at start-up (most of them never match a given
  /// script) and in full the first time one is used; the object stays where it is.
  const FrameworkMap& Loaded(const FrameworkMap& map) const;
  /// By name, loaded; nullptr when there is none.
  const FrameworkMap* Find(const std::string& name) const;
  /// The pip packages the maps name (`package`), for reading pins of them.
  std::vector<std::string> Packages() const;
  /// The config `config_map` ships as `name`, from the maps of kind "builtins" that hold it;
  /// nullptr when none does.
  const BuiltinConfig* FindBuiltin(const std::string& config_map, const std::string& name) const;

 private:
  void MergeParents(FrameworkMap* heir) const;

  mutable std::vector<FrameworkMap> maps_;  // sorted by priority
  mutable std::recursive_mutex load_mutex_;  // files are linted on several threads
};

/// Parses one map. False with "what: where:line:col" when the file is not a valid map.
bool ParseFrameworkMap(const std::string& text, const std::string& where, FrameworkMap* map,
                       std::string* error);

}  // namespace gpulint
