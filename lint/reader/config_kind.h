// Which framework a YAML or JSON file belongs to when it is linted on its own, by positive
// evidence only: the keys a flag map's [[match]] lists as that framework's own. A file that
// no map claims is nobody's (it was read as LLaMA-Factory by default once: axolotl, torchtune,
// TRL and accelerate configs came out as LoRA at 2048 tokens).
#pragma once

#include <string>
#include <vector>

#include "lint/reader/framework_map.h"

namespace gpulint {

struct ConfigKind {
  const FrameworkMap* map = nullptr;  ///< null: no map claims the file
  const MatchSpec* match = nullptr;   ///< the [[match]] whose config_keys it has
  /// The command the file is read as (the match's config_command with {file} filled in);
  /// empty for a config read only through the command that names it (DeepSpeed, accelerate)
  /// and for a framework gpulint recognizes but does not model.
  std::vector<std::string> command;
  /// A map claims the file but nothing says how it is run (config_usage found no command).
  bool usage_missing = false;
  bool parsed = false;                ///< the text parsed as YAML/JSON
  std::vector<std::string> top_keys;  ///< its first top-level keys, to say what it is
};

/// The framework whose config `text` (the file `file_name`) is, trying maps in priority order.
ConfigKind RecognizeConfig(const std::string& text, const std::string& file_name,
                           const FrameworkMaps& maps);

}  // namespace gpulint
