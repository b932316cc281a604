// A canonical setting of a workload (micro_batch, tp, max_model_len, ...) with its value and
// where that value is written, so that rules can cite it and the tuner can rewrite it.
#pragma once

#include <string>
#include <vector>

#include "lint/core/source_span.h"

namespace gpulint {

/// Where a value came from.
enum class Origin {
  kLiteral,           ///< written on the command line of the workload itself
  kVariableDefault,   ///< through a shell variable (assignment or ${X:-default})
  kConfigFile,        ///< a YAML/JSON config file, a Python file the script runs
  kFrameworkDefault,  ///< not written anywhere: the framework's documented default
  kDirective,         ///< #SBATCH or # gpulint: directives
  kCommandLine,       ///< gpulint --set / --gpu / --env
};

const char* OriginName(Origin origin);

/// A value: numbers are doubles, flags are bools, everything else is text; lists hold text.
struct Value {
  enum class Kind { kNone, kNumber, kBool, kString, kList } kind = Kind::kNone;
  double number = 0;
  bool boolean = false;
  std::string text;               ///< the string, or the original spelling of a number/bool
  std::vector<std::string> list;

  static Value Number(double n, std::string spelling = "");
  static Value Bool(bool b);
  static Value String(std::string s);
  static Value List(std::vector<std::string> items);
  bool is_number() const { return kind == Kind::kNumber; }
  bool is_bool() const { return kind == Kind::kBool; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_list() const { return kind == Kind::kList; }
  /// The value as a person would write it ("8", "0.9", "true", "a,b").
  std::string ToString() const;
};

/// The value of a setting written as "no limit" (a flag map's `no_limit` values, such as
/// ms-swift 2.x's `--max_length -1`): not a number, and not unset either.
inline constexpr const char* kNoLimit = "unlimited";

struct Setting {
  std::string name;     ///< canonical name (architecture.md)
  Value value;
  SourceSpan span;      ///< the value's text; invalid for framework defaults
  Origin origin = Origin::kLiteral;
  std::string via;      ///< e.g. "$MICRO_BATCH" or "--micro-batch-size" (how it reached the flag)
  std::string written_as;  ///< the flag or key that set it, as the script spells it ("--bs")
  bool editable = false;       ///< the span holds exactly the value's text
  std::string not_editable_reason;  ///< why the tuner may not rewrite it
  bool ambiguous = false;      ///< differs between branches: value is one candidate, not picked
};

}  // namespace gpulint
