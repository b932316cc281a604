// Shell variables during evaluation: scalars and arrays with provenance, exported or not, and
// marked ambiguous when branches that gpulint cannot decide set them differently.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/reader/shell_text.h"

namespace gpulint {

struct Variable {
  bool is_array = false;
  Text scalar;
  std::vector<Text> elements;
  bool exported = false;
  bool ambiguous = false;
  std::string ambiguity;  ///< e.g. "set differently in the branches of the if on line 12"

  /// Scalar value; for an array its first element (as bash does for $A).
  Text Value() const { return is_array ? (elements.empty() ? Text() : elements[0]) : scalar; }
  bool SameAs(const Variable& other) const;
};

class ShellEnv {
 public:
  const Variable* Get(const std::string& name) const;
  Variable* GetMutable(const std::string& name);
  void SetScalar(const std::string& name, Text value);
  void SetArray(const std::string& name, std::vector<Text> elements);
  void Unset(const std::string& name);
  void Export(const std::string& name);
  const std::map<std::string, Variable>& vars() const { return vars_; }
  std::map<std::string, Variable>& mutable_vars();
  /// Changes whenever a variable may have changed, so that what was derived from the
  /// variables (the environment every command sees) is shared until then, not copied per
  /// command: a script that doubles an exported variable and starts a thousand commands would
  /// otherwise hold a thousand copies.
  uint64_t version() const { return version_; }

 private:
  std::map<std::string, Variable> vars_;
  uint64_t version_ = 0;
};

}  // namespace gpulint
