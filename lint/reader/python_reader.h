// Reads the Python file a script runs — without running it — for what memory depends on: the
// keyword arguments of calls such as LLM(...) and from_pretrained(...), the module constants and
// dicts they use, and argparse flags with their defaults (so that `args.tp` finds its value).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpulint {

struct PyEntry;

/// A Python expression as far as gpulint understands it.
struct PyValue {
  enum class Kind {
    kNumber, kString, kBool, kNone,
    kName,       ///< a bare name: a constant or a variable
    kAttribute,  ///< dotted: args.tp, torch.bfloat16
    kCall,       ///< a nested call (BitsAndBytesConfig(...))
    kDict, kList,
    kOther,      ///< anything else (arithmetic, f-strings, comprehensions)
  };
  Kind kind = Kind::kOther;
  std::string text;        ///< literal value (unquoted string), name, dotted path, callee
  size_t offset = 0;       ///< source range of the value (a string's content, without quotes)
  size_t length = 0;
  bool exact = true;       ///< text equals the source bytes at [offset, offset + length)
  std::vector<PyEntry> entries;  ///< dict items / call keyword args
  std::vector<PyValue> items;                              ///< list items / positional args
  bool conditional = false;  ///< set inside an if/for/try block, not unconditionally
};

/// A dict item or keyword argument: `key` (a string or number key as text) and its value.
struct PyEntry {
  std::string key;
  PyValue value;
};

struct PyArgument {  ///< parser.add_argument("--tp", type=int, default=1)
  std::vector<std::string> flags;
  std::string dest;
  PyValue default_value;  ///< kNone when absent
  bool store_true = false;
  bool store_false = false;
};

struct PyCall {
  std::string callee;      ///< last component: "LLM", "from_pretrained"
  std::string full_callee; ///< as written: "AutoModelForCausalLM.from_pretrained"
  size_t offset = 0;       ///< of the callee
  std::vector<PyValue> positional;
  std::vector<PyEntry> keywords;  ///< with **dict entries merged in
};

struct PyModule {
  std::map<std::string, PyValue> constants;  ///< module-level NAME = literal
  std::vector<PyArgument> arguments;
  std::vector<PyCall> calls;                 ///< calls whose callee is in the interest set
  std::vector<std::string> notes;            ///< what could not be read
};

/// Reads Python source. `interesting` names the callees to collect (last dotted component).
/// Never fails; malformed code yields fewer results and a note.
PyModule ReadPython(std::string_view source, const std::set<std::string>& interesting);

/// The comments of Python source (not '#' inside strings): offset of the '#', text after it.
std::vector<std::pair<size_t, std::string>> PythonComments(std::string_view source);

}  // namespace gpulint
