// Resolves the keyword arguments of a Python call to text with provenance: literals where they
// are written in the .py file, module constants, `args.X` through argparse to the shell's flag or
// the argument's default, nested calls as dotted keys (quantization_config.load_in_4bit).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lint/reader/python_reader.h"
#include "lint/reader/shell_text.h"
#include "lint/reader/source_map.h"

namespace gpulint {

struct BoundKeyword {
  std::string key;            ///< keyword name, "0" for the first positional, "a.b" when nested
  std::optional<Text> value;  ///< nullopt for None
  bool conditional = false;   ///< written only under a condition in the Python file
  std::string condition_note;
};

class PythonBinding {
 public:
  /// `file` and `base_offset` locate the module's text in the SourceMap (a heredoc starts inside
  /// the shell script); `shell_args` are the words the script passed to the program.
  PythonBinding(const PyModule& module, int file, size_t base_offset, bool exact,
                const std::vector<Text>& shell_args, const SourceMap& sources);
  std::vector<BoundKeyword> Keywords(const PyCall& call);
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::optional<Text> Resolve(const PyValue& value, int depth);
  std::optional<Text> FromArgparse(const std::string& dest, int depth);
  void Flatten(const std::string& prefix, const PyValue& value, bool conditional,
               std::vector<BoundKeyword>* out, int depth);

  const PyModule& module_;
  int file_;
  size_t base_offset_;
  bool exact_;
  const std::vector<Text>& shell_args_;
  const SourceMap& sources_;
  std::vector<std::string> notes_;
};

}  // namespace gpulint
