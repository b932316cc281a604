#include "lint/reader/shell_env.h"

#include <atomic>

namespace gpulint {
namespace {

bool SameText(const Text& a, const Text& b) {
  if (a.Str() != b.Str() || a.Known() != b.Known()) return false;
  int file_a = -1, file_b = -1;
  size_t offset_a = 0, offset_b = 0, length_a = 0, length_b = 0;
  bool exact_a = a.ExactRun(&file_a, &offset_a, &length_a);
  bool exact_b = b.ExactRun(&file_b, &offset_b, &length_b);
  // The same characters written in two places are two different things to edit.
  return exact_a == exact_b && file_a == file_b && offset_a == offset_b;
}

}  // namespace

bool Variable::SameAs(const Variable& other) const {
  if (is_array != other.is_array || ambiguous != other.ambiguous) return false;
  if (!is_array) return SameText(scalar, other.scalar);
  if (elements.size() != other.elements.size()) return false;
  for (size_t i = 0; i < elements.size(); ++i)
    if (!SameText(elements[i], other.elements[i])) return false;
  return true;
}

const Variable* ShellEnv::Get(const std::string& name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : &it->second;
}

namespace {

// Versions come from one counter for all environments, so that two environments with the same
// version hold the same variables (a copy keeps its version; any change takes a new one).
uint64_t NextVersion() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

}  // namespace

Variable* ShellEnv::GetMutable(const std::string& name) {
  auto it = vars_.find(name);
  if (it == vars_.end()) return nullptr;
  version_ = NextVersion();
  return &it->second;
}

std::map<std::string, Variable>& ShellEnv::mutable_vars() {
  version_ = NextVersion();
  return vars_;
}

void ShellEnv::Unset(const std::string& name) {
  version_ = NextVersion();
  vars_.erase(name);
}

void ShellEnv::SetScalar(const std::string& name, Text value) {
  version_ = NextVersion();
  Variable& var = vars_[name];
  var.is_array = false;
  var.scalar = std::move(value);
  var.elements.clear();
  var.ambiguous = false;
  var.ambiguity.clear();
}

void ShellEnv::SetArray(const std::string& name, std::vector<Text> elements) {
  version_ = NextVersion();
  Variable& var = vars_[name];
  var.is_array = true;
  var.elements = std::move(elements);
  var.scalar = Text();
  var.ambiguous = false;
  var.ambiguity.clear();
}

void ShellEnv::Export(const std::string& name) {
  version_ = NextVersion();
  vars_[name].exported = true;
}
}  // namespace gpulint
