#include "lint/reader/shell_evaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <string_view>

#include "lint/reader/parse_cache.h"
#include "lint/reader/shell_expand.h"
#include "lint/reader/shell_parser.h"
#include "lint/util/paths.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace {

// Bounds that keep hostile or generated scripts linear: loops are unrolled only when short,
// function calls nest only so deep, and the whole walk evaluates at most so many commands.
constexpr size_t kMaxLoopItems = 64;
constexpr int kMaxCallDepth = 16;
constexpr int kMaxEvaluatedCommands = 20000;
// Every command records the background jobs still running when it starts; past this many live
// jobs that record would grow with the square of the script. No node runs this many GPU jobs.
constexpr size_t kMaxTrackedBackground = 256;
// A value that grows past this (X=$X$X in a loop) is no configuration value: it becomes unknown.
constexpr size_t kMaxValueBytes = 1 << 20;
constexpr size_t kMaxValuePieces = 4096;
// Arrays in launch scripts list GPUs, models or datasets: tens of elements. Each expansion of
// "${B[@]}" copies them all, so B+=("${B[@]}") repeated is linear only while the cap is small.
constexpr size_t kMaxArrayElements = 256;
// Scripts that run or source other scripts: each run reads and evaluates a file again, and
// scripts that run each other twice per level would run 2^depth files.
constexpr int kMaxFilesRun = 256;

size_t BytesOf(const Text& text) {
  size_t bytes = 0;
  for (const TextPiece& piece : text.pieces()) bytes += piece.text.size();
  return bytes;
}

Text Capped(Text text, int file, size_t offset) {
  if (BytesOf(text) <= kMaxValueBytes && text.pieces().size() <= kMaxValuePieces) return text;
  return Text::Unknown("a value that grows past 1 MiB or 4096 parts", file, offset, 1);
}

// An array holds at most kMaxArrayElements elements and, in all, what one value may hold (each
// element alone could be a MiB, and B+=("${B[@]}") doubles them).
bool ArrayHasRoom(const std::vector<Text>& elements, size_t bytes_so_far, const Text& next) {
  return elements.size() < kMaxArrayElements && bytes_so_far + BytesOf(next) <= kMaxValueBytes;
}

// Whether two commands sit in different arms of the same if or case (branch paths such as
// "if@12:1/case@20:2", one component per undecided branch the command is inside): only one arm
// runs, so a job started in one never runs beside a command of another. (An undecided if in a
// loop body could take both arms in different iterations; that case reads as one choice, which
// can miss a shared GPU but never invents one.)
bool ExclusiveBranches(std::string_view a, std::string_view b) {
  while (!a.empty() && !b.empty()) {
    std::string_view first_a = a.substr(0, a.find('/'));
    std::string_view first_b = b.substr(0, b.find('/'));
    if (first_a != first_b) {
      size_t colon_a = first_a.rfind(':'), colon_b = first_b.rfind(':');
      return colon_a != std::string_view::npos && colon_a == colon_b &&
             first_a.substr(0, colon_a) == first_b.substr(0, colon_b);
    }
    a.remove_prefix(std::min(a.size(), first_a.size() + 1));
    b.remove_prefix(std::min(b.size(), first_b.size() + 1));
  }
  return false;
}

enum class Flow { kNormal, kExit, kReturn, kBreak, kContinue };

// Builds the fields of one word: unquoted expansions split at blanks, quoted ones never do.
class FieldBuilder {
 public:
  void AddQuoted(const Text& text) {
    for (const TextPiece& piece : text.pieces()) current_.AppendPiece(piece);
    open_ = true;
  }
  void AddUnquoted(const Text& text) {
    for (const TextPiece& piece : text.pieces()) {
      if (piece.unknown) {
        current_.AppendPiece(piece);
        open_ = true;
        continue;
      }
      size_t start = 0;
      for (size_t i = 0; i <= piece.text.size(); ++i) {
        bool blank = i < piece.text.size() &&
                     (piece.text[i] == ' ' || piece.text[i] == '\t' || piece.text[i] == '\n');
        if (i < piece.text.size() && !blank) continue;
        if (i > start) {
          Text one;
          one.AppendPiece(piece);
          current_.Append(one.Substr(start, i));
          open_ = true;
        }
        if (blank) Break();
        start = i + 1;
      }
    }
  }
  // "${A[@]}": each element its own field, the first joined to what precedes.
  void AddSeparateFields(const std::vector<Text>& elements) {
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i > 0) Break();
      AddQuoted(elements[i]);
    }
  }
  void MarkOpen() { open_ = true; }  // "" is an (empty) field
  void Break() {
    if (open_) fields_.push_back(std::move(current_));
    current_ = Text();
    open_ = false;
  }
  std::vector<Text> Finish() {
    Break();
    return std::move(fields_);
  }

 private:
  std::vector<Text> fields_;
  Text current_;
  bool open_ = false;
};

Text JoinFields(const std::vector<Text>& fields) {
  Text joined;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) {
      TextPiece space;
      space.text = " ";
      joined.AppendPiece(space);
    }
    joined.Append(fields[i]);
  }
  return joined;
}

bool IsBuiltinNoop(const std::string& name) {
  static const std::set<std::string> kNoops = {
      "echo",  "printf", "set",   "mkdir", "rm",    "cp",     "mv",    "touch",  "sleep",
      "true",  "false",  ":",     "trap",  "ulimit", "umask", "pkill", "kill",   "ln",
      "chmod", "pip",    "pip3",  "git",   "wget",  "curl",   "tail",  "head",   "grep",
      "sed",   "awk",    "tr",    "sort",  "date",  "hostname", "nvidia-smi",
      "module", "conda", "source_if_exists", "cat", "tee",  "ls",    "pwd",   "wc",
      "dirname", "basename", "readlink", "realpath", "hash", "type", "command", "builtin",
      "let",   "read",   "getopts", "shopt", "alias", "ps",  "env_setup", "sync", "test", "["};
  return kNoops.count(name) > 0;
}

class Evaluator {
 public:
  Evaluator(SourceMap& sources, const EvaluatorOptions& options)
      : sources_(sources), options_(options) {}

  ShellProgram Run(int file) {
    files_being_read_.insert(sources_.path(file));
    RunFile(file, /*background=*/false);
    out_.final_env = env_;
    return std::move(out_);
  }

 private:
  struct Frame {
    std::vector<Text> positional;
    bool known = false;  // false: the script's own arguments, not known
  };
  struct Context {
    int file = 0;
    bool background = false;
    std::string branch;
  };

  void Note(int file, size_t offset, std::string message,
            ReaderNote::Level level = ReaderNote::Level::kWarning) {
    // A syntax error at the end of the text (an unclosed '{') points at no character: a span
    // of one byte there would run past the file (found by tests/fuzz/fuzz_shell).
    size_t length =
        file >= 0 && file < sources_.size() && offset < sources_.text(file).size() ? 1 : 0;
    out_.notes.push_back({level, std::move(message), sources_.Span(file, offset, length)});
  }

  // `shared`: a file that other scripts may run too, parsed through the shared cache.
  Flow RunFile(int file, bool background, bool shared = false) {
    std::shared_ptr<const ParsedScript> script =
        shared && options_.parse_cache
            ? options_.parse_cache->Parse(sources_.path(file), sources_.text(file))
            : std::make_shared<const ParsedScript>(ParseShell(sources_.text(file)));
    for (const LexDiagnostic& d : script->lexed.diagnostics) Note(file, d.offset, d.message);
    for (const LexDiagnostic& d : script->diagnostics) Note(file, d.offset, d.message);
    for (const Comment& comment : script->lexed.comments)
      out_.comments.push_back({file, comment.offset, comment.text});
    const ParsedScript& parsed = *script;
    scripts_.push_back(std::move(script));
    Context context;
    context.file = file;
    context.background = background;
    current_heredocs_[file] = &parsed.lexed.heredocs;
    Flow flow = Eval(*parsed.root, context);
    return flow == Flow::kReturn ? Flow::kNormal : flow;
  }

  // ---- expansion ----

  std::optional<Variable> Lookup(const std::string& name) const {
    if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0])) && name != "0") {
      if (frames_.empty() || !frames_.back().known) return std::nullopt;
      size_t index = static_cast<size_t>(name[0] - '1');
      Variable var;
      if (index < frames_.back().positional.size()) var.scalar = frames_.back().positional[index];
      return var;
    }
    if (const Variable* var = env_.Get(name)) return *var;
    if (auto it = options_.env.find(name); it != options_.env.end()) {
      Variable var;
      TextPiece piece;
      piece.text = it->second;
      piece.variable = name;
      var.scalar.AppendPiece(piece);
      var.exported = true;
      return var;
    }
    return std::nullopt;
  }

  std::string UnknownReason(const std::string& name) const {
    if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0])))
      return fmt::format("${} is an argument of the script", name);
    if (name == "@" || name == "*" || name == "#") return "the script's arguments";
    if (StartsWith(name, "SLURM_")) return fmt::format("${} is set by SLURM at run time", name);
    return fmt::format("environment variable ${} is not set in the script (give it with --env "
                       "{}=VALUE)",
                       name, name);
  }

  Text UnknownText(std::string reason, int file, const WordPart& part) const {
    return Text::Unknown(std::move(reason), file, part.offset, part.length);
  }

  Text MarkAmbiguous(Text text, const Variable& var) const {
    if (!var.ambiguous) return text;
    for (TextPiece& piece : text.mutable_pieces()) {
      piece.unknown = true;
      piece.unknown_reason = var.ambiguity;
    }
    return text;
  }

  void ExpandParameter(const WordPart& part, int file, FieldBuilder& fields) {
    // "$@" / "${A[@]}": separate fields.
    bool all_elements = part.index == "@" || part.index == "*" || part.name == "@" ||
                        part.name == "*";
    if (part.name == "@" || part.name == "*") {
      if (frames_.empty() || !frames_.back().known) {
        fields.AddQuoted(UnknownText(UnknownReason(part.name), file, part));
        return;
      }
      if (part.quoted) {
        fields.AddSeparateFields(frames_.back().positional);
      } else {
        for (size_t i = 0; i < frames_.back().positional.size(); ++i) {
          if (i) fields.Break();
          fields.AddUnquoted(frames_.back().positional[i]);
        }
      }
      return;
    }
    if (part.name == "#" && !frames_.empty() && frames_.back().known) {
      fields.AddQuoted(Text::Literal(std::to_string(frames_.back().positional.size()), -1, 0, 0,
                                     false, true));
      return;
    }
    std::optional<Variable> var = Lookup(part.name);
    bool set = var.has_value() && (!var->Value().empty() || var->is_array || !part.op.empty());
    bool null = !var.has_value() || (var->Value().Str().empty() && var->Value().Known() &&
                                     !var->is_array);
    if (part.length_of) {
      if (!var || !var->Value().Known()) {
        fields.AddQuoted(UnknownText(UnknownReason(part.name), file, part));
      } else {
        size_t n = var->is_array && all_elements ? var->elements.size() : var->Value().Str().size();
        fields.AddQuoted(Text::Literal(std::to_string(n), -1, 0, 0, false, true));
      }
      return;
    }
    const std::string& op = part.op;
    if (op == ":-" || op == "-" || op == ":=" || op == "=") {
      bool use_default = op[0] == ':' ? null : !var.has_value();
      if (use_default) {
        Text value = ExpandJoined(part.argument, file);
        value.MarkVariable(part.name, /*from_default=*/true);
        if (op == ":=" || op == "=") env_.SetScalar(part.name, value);
        AddValue(value, part.quoted, fields);
        return;
      }
    } else if (op == ":+" || op == "+") {
      if (!var) {  // unset here; the environment may still set it
        fields.AddQuoted(UnknownText(UnknownReason(part.name), file, part));
        return;
      }
      bool use_word = op == ":+" ? !null : true;
      if (use_word) AddValue(ExpandJoined(part.argument, file), part.quoted, fields);
      return;
    } else if (op == "other") {
      fields.AddQuoted(UnknownText(
          fmt::format("the expansion at this place (${{{}...}}) is not evaluated", part.name), file,
          part));
      return;
    }
    if (!var) {
      fields.AddQuoted(UnknownText(UnknownReason(part.name), file, part));
      return;
    }
    if (op == "#" || op == "##" || op == "%" || op == "%%") {
      Text value = var->Value();
      Text pattern = ExpandJoined(part.argument, file);
      if (!value.Known() || !pattern.Known()) {
        fields.AddQuoted(UnknownText(UnknownReason(part.name), file, part));
        return;
      }
      size_t begin = 0, end = 0;
      std::string str = value.Str();
      RemovePattern(str, op, pattern.Str(), &begin, &end);
      Text slice = value.Substr(begin, end);
      slice.MarkVariable(part.name, false);
      AddValue(MarkAmbiguous(slice, *var), part.quoted, fields);
      return;
    }
    if (var->is_array && all_elements) {
      std::vector<Text> elements;
      for (const Text& element : var->elements) {
        Text marked = element;
        marked.MarkVariable(part.name, false);
        elements.push_back(MarkAmbiguous(marked, *var));
      }
      if (part.quoted) {
        fields.AddSeparateFields(elements);
      } else {
        for (size_t i = 0; i < elements.size(); ++i) {
          if (i) fields.Break();
          fields.AddUnquoted(elements[i]);
        }
      }
      return;
    }
    Text value;
    if (var->is_array && !part.index.empty()) {
      double index = 0;
      if (ParseNumber(part.index, &index) && index >= 0 &&
          static_cast<size_t>(index) < var->elements.size())
        value = var->elements[static_cast<size_t>(index)];
    } else {
      value = var->Value();
    }
    value.MarkVariable(part.name, false);
    (void)set;
    AddValue(MarkAmbiguous(value, *var), part.quoted, fields);
  }

  static void AddValue(const Text& value, bool quoted, FieldBuilder& fields) {
    if (quoted) {
      fields.AddQuoted(value);
      fields.MarkOpen();
    } else {
      fields.AddUnquoted(value);
    }
  }

  void ExpandPartsInto(const std::vector<WordPart>& parts, int file, FieldBuilder& fields) {
    for (const WordPart& part : parts) {
      switch (part.kind) {
        case WordPart::Kind::kLiteral:
          fields.AddQuoted(Text::Literal(part.text, file, part.offset, part.length, part.exact,
                                         part.quoted));
          if (part.quoted) fields.MarkOpen();
          break;
        case WordPart::Kind::kParameter:
          ExpandParameter(part, file, fields);
          break;
        case WordPart::Kind::kCommandSubst: {
          // $(which trl) names the program it finds: read it as that name.
          std::string inner = part.text;
          if (StartsWith(inner, "$(")) inner = inner.substr(2, inner.size() - 3);
          if (StartsWith(inner, "`")) inner = inner.substr(1, inner.size() - 2);
          std::vector<std::string> words = SplitAny(inner, " \t");
          if (words.size() == 2 && (words[0] == "which" || words[0] == "command -v")) {
            fields.AddQuoted(Text::Literal(words[1], file, part.offset, part.length, false, true));
            break;
          }
          fields.AddQuoted(UnknownText("the output of a command substitution", file, part));
          break;
        }
        case WordPart::Kind::kArithmetic: {
          std::string unknown_name;
          auto value = EvaluateArithmetic(
              part.text,
              [&](const std::string& name) -> std::optional<long long> {
                auto var = Lookup(name);
                double number = 0;
                // Past long long's range (X=1e60) the cast is undefined: unknown instead.
                if (!var || !var->Value().Known() || var->ambiguous ||
                    !ParseNumber(var->Value().Str(), &number) ||
                    !(number >= -9.2e18 && number <= 9.2e18))
                  return std::nullopt;
                return static_cast<long long>(number);
              },
              &unknown_name);
          if (value) {
            fields.AddQuoted(Text::Literal(std::to_string(*value), file, part.offset, part.length,
                                           false, true));
          } else {
            fields.AddQuoted(UnknownText(
                unknown_name.empty() ? "arithmetic that gpulint cannot evaluate"
                                     : "arithmetic on " + UnknownReason(unknown_name),
                file, part));
          }
          break;
        }
      }
    }
  }

  std::vector<Text> ExpandWord(const Word& word, int file) {
    FieldBuilder fields;
    ExpandPartsInto(word.parts, file, fields);
    return fields.Finish();
  }

  // No field splitting: assignments, ${X:-default} arguments, case subjects.
  Text ExpandJoined(const std::vector<WordPart>& parts, int file) {
    Text joined;
    for (const WordPart& part : parts) {
      FieldBuilder fields;
      WordPart quoted_part = part;
      quoted_part.quoted = true;  // suppress splitting; keep array elements joined by spaces
      ExpandPartsInto({quoted_part}, file, fields);
      joined.Append(JoinFields(fields.Finish()));
    }
    return joined;
  }
  Text ExpandJoined(const Word& word, int file) { return ExpandJoined(word.parts, file); }

  // ---- control flow ----

  Flow Eval(const Node& node, const Context& context) {
    switch (node.kind) {
      case Node::Kind::kSequence:
        for (size_t i = 0; i < node.children.size(); ++i) {
          Context child = context;
          child.background = context.background || node.background[i];
          Flow flow = Eval(*node.children[i], child);
          if (flow != Flow::kNormal) return flow;
        }
        return Flow::kNormal;
      case Node::Kind::kAndOr:
        for (size_t i = 0; i < node.children.size(); ++i) {
          Flow flow = Eval(*node.children[i], context);
          // `cmd || exit 1` exits only when cmd fails, which gpulint cannot know.
          bool conditional = i > 0 && node.ops[i - 1] == "||";
          if (flow == Flow::kExit && conditional) continue;
          if (flow != Flow::kNormal) return flow;
        }
        return Flow::kNormal;
      case Node::Kind::kPipeline:
        for (const auto& child : node.children) Eval(*child, context);
        return Flow::kNormal;
      case Node::Kind::kCommand:
        return EvalCommand(node, context);
      case Node::Kind::kIf:
        return EvalIf(node, context);
      case Node::Kind::kCase:
        return EvalCase(node, context);
      case Node::Kind::kFor:
        return EvalFor(node, context);
      case Node::Kind::kWhile: {
        Flow flow = Eval(*node.children[1], context);
        return flow == Flow::kBreak || flow == Flow::kContinue ? Flow::kNormal : flow;
      }
      case Node::Kind::kGroup:
        return Eval(*node.children[0], context);
      case Node::Kind::kSubshell: {
        // Variables set inside ( ... ) do not leak out; neither does exit.
        ShellEnv saved = env_;
        std::string saved_cwd = cwd_;
        Eval(*node.children[0], context);
        env_ = std::move(saved);
        cwd_ = saved_cwd;
        return Flow::kNormal;
      }
      case Node::Kind::kFunction:
        functions_[node.name] = {node.children[0].get(), context.file};
        return Flow::kNormal;
      case Node::Kind::kNoop:
        return Flow::kNormal;
    }
    return Flow::kNormal;
  }

  // The value of the last test command of a condition, when it can be decided.
  std::optional<bool> Decide(const Node& condition, int file) {
    const Node* node = &condition;
    while (node->kind == Node::Kind::kSequence && !node->children.empty())
      node = node->children.back().get();
    if (node->kind != Node::Kind::kCommand || node->words.empty()) return std::nullopt;
    std::string command;
    if (!node->words[0].IsLiteral(&command)) return std::nullopt;
    bool double_bracket = command == "[[";
    if (command != "[" && command != "test" && !double_bracket) return std::nullopt;
    std::vector<std::optional<std::string>> args;
    for (size_t i = 1; i < node->words.size(); ++i) {
      std::string literal;
      if (node->words[i].IsLiteral(&literal) && (literal == "]" || literal == "]]")) break;
      Text value = ExpandJoined(node->words[i], file);
      args.push_back(value.Known() ? std::optional<std::string>(value.Str()) : std::nullopt);
    }
    return EvaluateTest(args, double_bracket);
  }

  // Runs each branch on a copy of the variables and merges: what all branches agree on stays,
  // what differs becomes ambiguous (never picked).
  Flow EvalBranches(const std::vector<const Node*>& branches, bool fallthrough_possible,
                    const Context& context, size_t offset, const char* what) {
    ShellEnv before = env_;
    std::vector<ShellEnv> results;
    int line = sources_.LineOf(context.file, offset);
    for (size_t i = 0; i < branches.size(); ++i) {
      env_ = before;
      Context branch_context = context;
      if (branches.size() > 1 || fallthrough_possible) {
        branch_context.branch = fmt::format("{}@{}:{}", what, line, i + 1);
        if (!context.branch.empty()) branch_context.branch = context.branch + "/" +
                                                             branch_context.branch;
      }
      Flow flow = Eval(*branches[i], branch_context);
      if (flow == Flow::kExit || flow == Flow::kReturn) continue;  // never reaches what follows
      if (flow == Flow::kBreak || flow == Flow::kContinue) {
        results.push_back(env_);
        continue;
      }
      results.push_back(env_);
    }
    if (fallthrough_possible) results.push_back(before);
    if (results.empty()) {
      env_ = before;
      return branches.empty() ? Flow::kNormal : Flow::kExit;
    }
    env_ = results[0];
    std::string reason = fmt::format("set differently in the branches of the {} on line {}", what,
                                     line);
    for (size_t r = 1; r < results.size(); ++r) {
      for (auto& [name, var] : env_.mutable_vars()) {
        const Variable* other = results[r].Get(name);
        if (!other || !var.SameAs(*other)) {
          var.ambiguous = true;
          var.ambiguity = reason;
        }
      }
      for (const auto& [name, var] : results[r].vars()) {
        if (env_.Get(name)) continue;
        Variable copy = var;
        copy.ambiguous = true;
        copy.ambiguity = reason;
        env_.mutable_vars()[name] = copy;
      }
    }
    return Flow::kNormal;
  }

  Flow EvalIf(const Node& node, const Context& context) {
    std::vector<const Node*> candidates;
    size_t pairs = (node.children.size() - (node.has_else ? 1 : 0)) / 2;
    bool decided = false;
    for (size_t i = 0; i < pairs; ++i) {
      const Node& condition = *node.children[2 * i];
      Eval(condition, context);  // a condition may itself assign or start something
      std::optional<bool> value = Decide(condition, context.file);
      if (value && !*value) continue;
      candidates.push_back(node.children[2 * i + 1].get());
      if (value && *value) {
        decided = candidates.size() == 1;
        break;
      }
    }
    bool reached_else = candidates.empty() || !decided;
    if (node.has_else && reached_else) candidates.push_back(node.children.back().get());
    if (decided) return Eval(*candidates[0], context);
    bool fallthrough = !node.has_else && reached_else;
    return EvalBranches(candidates, fallthrough, context, node.offset, "if");
  }

  Flow EvalCase(const Node& node, const Context& context) {
    Text subject = ExpandJoined(node.subject, context.file);
    std::vector<const Node*> candidates;
    bool decided = false;
    for (size_t i = 0; i < node.children.size(); ++i) {
      bool any_unknown = !subject.Known();
      bool matched = false;
      for (const Word& pattern_word : node.patterns[i]) {
        Text pattern = ExpandJoined(pattern_word, context.file);
        if (!pattern.Known()) {
          any_unknown = true;
        } else if (subject.Known() && GlobMatch(pattern.Str(), subject.Str())) {
          matched = true;
        }
      }
      if (matched && !any_unknown) {
        if (candidates.empty()) {
          decided = true;
          candidates.push_back(node.children[i].get());
        }
        break;
      }
      if (matched || any_unknown) candidates.push_back(node.children[i].get());
    }
    if (decided) return Eval(*candidates[0], context);
    return EvalBranches(candidates, /*fallthrough_possible=*/true, context, node.offset, "case");
  }

  Flow EvalFor(const Node& node, const Context& context) {
    std::vector<Text> items;
    bool known = node.has_in;
    if (node.has_in) {
      for (const Word& word : node.items)
        for (Text& field : ExpandWord(word, context.file)) {
          if (!field.Known()) known = false;
          items.push_back(std::move(field));
        }
    } else if (!frames_.empty() && frames_.back().known) {
      items = frames_.back().positional;  // `for x; do` iterates over "$@"
      known = true;
    }
    if (!known || items.size() > kMaxLoopItems) {
      // Read the body once with the loop variable unknown.
      if (!node.name.empty())
        env_.SetScalar(node.name,
                       Text::Unknown(fmt::format("the loop variable of the for on line {}",
                                                 sources_.LineOf(context.file, node.offset)),
                                     context.file, node.offset, 3));
      Flow flow = Eval(*node.children[0], context);
      return flow == Flow::kBreak || flow == Flow::kContinue ? Flow::kNormal : flow;
    }
    ++loop_depth_;
    Flow result = Flow::kNormal;
    for (Text& item : items) {
      env_.SetScalar(node.name, item);
      Flow flow = Eval(*node.children[0], context);
      if (flow == Flow::kBreak) break;
      if (flow == Flow::kExit || flow == Flow::kReturn) {
        result = flow;
        break;
      }
    }
    --loop_depth_;
    return result;
  }

  // ---- commands ----

  void Assign(const Assignment& assignment, int file, bool exported) {
    if (assignment.is_array) {
      std::vector<Text> elements;
      if (assignment.append)
        if (const Variable* old = env_.Get(assignment.name); old && old->is_array)
          elements = old->elements;
      size_t bytes = 0;
      for (const Text& element : elements) bytes += BytesOf(element);
      for (const Word& word : assignment.elements)
        for (Text& field : ExpandWord(word, file)) {
          Text element = Capped(std::move(field), file, assignment.offset);
          if (!ArrayHasRoom(elements, bytes, element)) break;
          bytes += BytesOf(element);
          elements.push_back(std::move(element));
        }
      bool was_exported = env_.Get(assignment.name) && env_.Get(assignment.name)->exported;
      env_.SetArray(assignment.name, std::move(elements));
      if (exported || was_exported) env_.Export(assignment.name);
      return;
    }
    Text value = Capped(ExpandJoined(assignment.value, file), file, assignment.offset);
    // An empty value still has a place where a number could be written: keep it as a span.
    if (value.empty())
      value = Text::Literal("", file, assignment.value.offset, 0, true, false);
    Variable* existing = env_.GetMutable(assignment.name);
    bool was_exported = existing && existing->exported;
    if (!assignment.index.empty() && existing && existing->is_array) {
      // B[100000000]=x is no configuration: past the element cap the assignment is not read
      // (it resized the array to the index, 2.4 GB; 1e300 is no size_t at all).
      double index = 0;
      if (ParseNumber(assignment.index, &index) && index >= 0 &&
          index < static_cast<double>(kMaxArrayElements)) {
        size_t i = static_cast<size_t>(index);
        size_t bytes = 0;
        for (const Text& element : existing->elements) bytes += BytesOf(element);
        if (i < existing->elements.size()) bytes -= BytesOf(existing->elements[i]);
        if (bytes + BytesOf(value) > kMaxValueBytes) return;
        if (existing->elements.size() <= i) existing->elements.resize(i + 1);
        existing->elements[i] = value;
      }
      return;
    }
    if (assignment.append && existing) {
      Text combined = existing->Value();
      combined.Append(value);
      value = Capped(combined, file, assignment.offset);
    }
    env_.SetScalar(assignment.name, value);
    if (exported || was_exported) env_.Export(assignment.name);
  }

  Flow EvalCommand(const Node& node, const Context& context) {
    // Straight-line code is linear in the input; only loops and calls repeat it.
    if ((loop_depth_ > 0 || call_depth_ > 0) && ++evaluated_commands_ > kMaxEvaluatedCommands) {
      if (evaluated_commands_ == kMaxEvaluatedCommands + 1)
        Note(context.file, node.offset,
             "the script expands into more than 20000 commands; the rest is not read",
             ReaderNote::Level::kReadInPart);
      return Flow::kExit;
    }
    const int file = context.file;
    if (!out_.first_command.count(file)) out_.first_command[file] = node.offset;
    std::vector<Text> argv;
    for (const Word& word : node.words)
      for (Text& field : ExpandWord(word, file)) argv.push_back(std::move(field));
    std::string name = argv.empty() ? "" : argv[0].Str();

    // Declarations and plain assignments change the shell's own variables.
    bool declaration = name == "export" || name == "local" || name == "declare" ||
                       name == "readonly" || name == "typeset";
    if (argv.empty() || declaration) {
      bool exported = name == "export";
      if (declaration)
        for (size_t i = 1; i < argv.size(); ++i) {
          std::string flag = argv[i].Str();
          if (flag == "-x") exported = true;
        }
      for (const Assignment& assignment : node.assignments) Assign(assignment, file, exported);
      if (exported)
        for (size_t i = 1; i < argv.size(); ++i)
          if (!StartsWith(argv[i].Str(), "-")) env_.Export(argv[i].Str());
      RecordHeredocFiles(node, argv, file);
      return Flow::kNormal;
    }

    std::vector<std::pair<std::string, Text>> prefix;
    for (const Assignment& assignment : node.assignments)
      prefix.emplace_back(assignment.name, ExpandJoined(assignment.value, file));

    if (name == "exit") return Flow::kExit;
    if (name == "return") return Flow::kReturn;
    if (name == "break") return Flow::kBreak;
    if (name == "continue") return Flow::kContinue;
    if (name == "unset") {
      for (size_t i = 1; i < argv.size(); ++i)
        if (!StartsWith(argv[i].Str(), "-")) env_.Unset(argv[i].Str());
      return Flow::kNormal;
    }
    if (name == "wait") {
      live_background_.clear();
      return Flow::kNormal;
    }
    if (name == "shift") {
      if (!frames_.empty() && frames_.back().known && !frames_.back().positional.empty())
        frames_.back().positional.erase(frames_.back().positional.begin());
      return Flow::kNormal;
    }
    if (name == "cd") {
      if (argv.size() >= 2 && argv[1].Known()) {
        std::string target = argv[1].Str();
        // Once unknown, only an absolute path makes the folder known again.
        if (!cwd_known_ && !StartsWith(target, "/")) return Flow::kNormal;
        cwd_known_ = true;
        cwd_ = StartsWith(target, "/") ? target : JoinNormal(cwd_, target);
        // Longer than a path can be (PATH_MAX): not a real folder, and every further `cd ..`
        // would copy it again (80,000 of them made reading quadratic).
        if (cwd_.size() > 4096) {
          cwd_.clear();
          cwd_known_ = false;
        }
      } else {
        cwd_known_ = false;
      }
      return Flow::kNormal;
    }
    if (name == "eval") {
      Note(file, node.offset, "'eval' is not read: what it runs is not known",
           ReaderNote::Level::kInfo);
      return Flow::kNormal;
    }
    if (name == "source" || name == ".") {
      if (argv.size() >= 2) Source(argv[1], file, node.offset, context.background);
      return Flow::kNormal;
    }
    if (auto fn = functions_.find(name); fn != functions_.end()) {
      return CallFunction(fn->second.first, fn->second.second, argv, context);
    }
    if ((name == "bash" || name == "sh") && argv.size() >= 2 && !StartsWith(argv[1].Str(), "-")) {
      if (RunChildScript(argv[1], std::vector<Text>(argv.begin() + 2, argv.end()), prefix, file,
                         node.offset, context))
        return Flow::kNormal;
    }
    if (StartsWith(name, "./") && EndsWith(name, ".sh")) {
      if (RunChildScript(argv[0], std::vector<Text>(argv.begin() + 1, argv.end()), prefix, file,
                         node.offset, context))
        return Flow::kNormal;
    }
    if (IsBuiltinNoop(name) && !HasHeredoc(node)) return Flow::kNormal;
    if (RecordHeredocFiles(node, argv, file)) return Flow::kNormal;

    CommandRecord record;
    record.argv = std::move(argv);
    record.env_prefix = std::move(prefix);
    record.exported = ExportedEnvironment();
    record.redirects = ExpandRedirects(node, file);
    record.file = file;
    record.offset = node.offset;
    record.background = context.background;
    for (int job : live_background_)
      if (!ExclusiveBranches(out_.commands[static_cast<size_t>(job)].branch, context.branch))
        record.concurrent_with.push_back(job);
    record.branch = context.branch;
    record.cwd = cwd_;
    record.cwd_known = cwd_known_;
    int index = static_cast<int>(out_.commands.size());
    out_.commands.push_back(std::move(record));
    if (context.background) {
      if (live_background_.size() < kMaxTrackedBackground) {
        live_background_.push_back(index);
      } else if (!background_capped_) {
        background_capped_ = true;
        Note(file, node.offset,
             fmt::format("more than {} background jobs run at once; later ones are not counted "
                         "as sharing GPUs with the commands after them",
                         kMaxTrackedBackground));
      }
    }
    return Flow::kNormal;
  }

  static bool HasHeredoc(const Node& node) {
    for (const Redirect& redirect : node.redirects)
      if (redirect.heredoc >= 0) return true;
    return false;
  }

  std::vector<RedirectRecord> ExpandRedirects(const Node& node, int file) {
    std::vector<RedirectRecord> records;
    for (const Redirect& redirect : node.redirects) {
      RedirectRecord record;
      record.op = redirect.op;
      if (redirect.heredoc >= 0) {
        record.has_heredoc = true;
        record.heredoc = HeredocText(redirect.heredoc, file);
      } else {
        record.target = ExpandJoined(redirect.target, file);
      }
      records.push_back(std::move(record));
    }
    return records;
  }

  Text HeredocText(int index, int file) {
    const Heredoc& heredoc = (*current_heredocs_[file])[static_cast<size_t>(index)];
    if (!heredoc.expand) {
      return Text::Literal(heredoc.body, file, heredoc.body_offset, heredoc.body.size(),
                           !heredoc.strip_tabs, true);
    }
    std::vector<WordPart> parts = LexHeredocBody(heredoc.body);
    for (WordPart& part : parts) {
      part.offset += heredoc.body_offset;
      if (heredoc.strip_tabs) part.exact = false;
      part.quoted = true;
    }
    return ExpandJoined(parts, file);
  }

  // `cat > path <<EOF` and `tee path <<EOF`: remember the file the script writes.
  bool RecordHeredocFiles(const Node& node, const std::vector<Text>& argv, int file) {
    if (!HasHeredoc(node) || argv.empty()) return false;
    std::string program = argv[0].Str();
    if (program != "cat" && program != "tee") return false;
    Text body;
    std::string target;
    for (const Redirect& redirect : node.redirects) {
      if (redirect.heredoc >= 0) {
        body = HeredocText(redirect.heredoc, file);
      } else if (EndsWith(redirect.op, ">") || EndsWith(redirect.op, ">>")) {
        target = ExpandJoined(redirect.target, file).Str();
      }
    }
    if (program == "tee" && argv.size() >= 2) target = argv.back().Str();
    if (target.empty()) return false;
    out_.virtual_files[target] = body;
    return true;
  }

  Flow CallFunction(const Node* body, int body_file, const std::vector<Text>& argv,
                    const Context& context) {
    if (call_depth_ >= kMaxCallDepth) {
      Note(context.file, 0, "functions call each other more than 16 deep; deeper calls not read",
           ReaderNote::Level::kReadInPart);
      return Flow::kNormal;
    }
    ++call_depth_;
    frames_.push_back({std::vector<Text>(argv.begin() + 1, argv.end()), true});
    Context inner = context;
    inner.file = body_file;
    Flow flow = Eval(*body, inner);
    frames_.pop_back();
    --call_depth_;
    return flow == Flow::kExit ? Flow::kExit : Flow::kNormal;
  }

  // Finds a file the script names: as written (relative to the script's folder and the current
  // folder) or, when its folder part is unknown ("${SCRIPT_DIR}/x.sh"), by its known tail.
  bool ReadNamedFile(const Text& path, std::string* resolved, std::string* text,
                     bool* by_tail) {
    *by_tail = false;
    namespace fs = std::filesystem;
    std::vector<std::string> candidates;
    std::string written = path.Str();
    if (path.Known()) {
      if (StartsWith(written, "/")) {
        candidates.push_back(written);
      } else {
        candidates.push_back(JoinNormal(JoinPath(options_.script_dir, cwd_), written));
        candidates.push_back(JoinNormal(options_.script_dir, written));
      }
    } else if (!written.empty()) {
      // "${SCRIPT_DIR}/models/x.sh": try the known tail from the script's folder and above.
      std::string tail = written;
      while (StartsWith(tail, "/")) tail = tail.substr(1);
      fs::path dir = options_.script_dir.empty() ? fs::path(".") : fs::path(options_.script_dir);
      for (int up = 0; up < 3 && !tail.empty(); ++up) {
        candidates.push_back((dir / tail).lexically_normal());
        dir = dir / "..";
      }
      *by_tail = true;
    }
    for (const std::string& candidate : candidates) {
      if (options_.read_file && options_.read_file(candidate, text)) {
        *resolved = candidate;
        return true;
      }
    }
    return false;
  }

  // Counts one more script run or sourced; false past kMaxFilesRun (noted once).
  bool FileRunAllowed(int file, size_t offset) {
    if (++files_run_ <= kMaxFilesRun) return true;
    if (files_run_ == kMaxFilesRun + 1)
      Note(file, offset,
           fmt::format("more than {} scripts run or sourced; the rest are not read", kMaxFilesRun),
           ReaderNote::Level::kReadInPart);
    return false;
  }

  void Source(const Text& path, int file, size_t offset, bool background) {
    std::string resolved, text;
    bool by_tail = false;
    if (!FileRunAllowed(file, offset)) return;
    if (!ReadNamedFile(path, &resolved, &text, &by_tail)) {
      Note(file, offset,
           path.Known() ? fmt::format("sourced file '{}' was not found; its settings are unknown",
                                      path.Str())
                        : fmt::format("sourced file path is not known ({}); its settings are "
                                      "unknown",
                                      path.UnknownReason()),
           ReaderNote::Level::kInfo);
      return;
    }
    if (files_being_read_.count(resolved)) return;  // followed once
    files_being_read_.insert(resolved);
    if (by_tail)
      Note(file, offset,
           fmt::format("the sourced path is partly unknown; read '{}', the file it names beside "
                       "the script",
                       resolved),
           ReaderNote::Level::kInfo);
    int sourced = sources_.Add(resolved, std::move(text));
    RunFile(sourced, background, /*shared=*/true);
  }

  // The variables a program started now sees, shared with every other command that sees the
  // same ones (the environment changes rarely; commands are many).
  std::shared_ptr<const std::map<std::string, Text>> ExportedEnvironment() {
    if (exported_cache_ && exported_version_ == env_.version()) return exported_cache_;
    auto exported = std::make_shared<std::map<std::string, Text>>();
    for (const auto& [var_name, var] : env_.vars())
      if (var.exported) (*exported)[var_name] = MarkAmbiguous(var.Value(), var);
    for (const auto& [var_name, value] : options_.env)
      if (!exported->count(var_name) && !env_.Get(var_name)) {
        TextPiece piece;
        piece.text = value;
        piece.variable = var_name;
        Text text;
        text.AppendPiece(piece);
        (*exported)[var_name] = text;
      }
    exported_cache_ = std::move(exported);
    exported_version_ = env_.version();
    return exported_cache_;
  }

  bool RunChildScript(const Text& path, std::vector<Text> args,
                      const std::vector<std::pair<std::string, Text>>& prefix, int file,
                      size_t offset, const Context& context) {
    std::string resolved, text;
    bool by_tail = false;
    if (!path.Known() || !FileRunAllowed(file, offset)) return false;
    if (!ReadNamedFile(path, &resolved, &text, &by_tail)) return false;
    if (files_being_read_.count(resolved)) return true;
    files_being_read_.insert(resolved);
    // A child bash sees exported variables and the prefix assignments only.
    ShellEnv saved = env_;
    ShellEnv child;
    for (const auto& [name, var] : env_.vars())
      if (var.exported) child.mutable_vars()[name] = var;
    for (const auto& [name, value] : prefix) {
      child.SetScalar(name, value);
      child.Export(name);
    }
    env_ = std::move(child);
    frames_.push_back({std::move(args), true});
    std::string saved_cwd = cwd_;
    int child_file = sources_.Add(resolved, std::move(text));
    RunFile(child_file, context.background, /*shared=*/true);
    frames_.pop_back();
    env_ = std::move(saved);
    cwd_ = saved_cwd;
    // The guard is against a script running itself; running it again later is a new process.
    files_being_read_.erase(resolved);
    return true;
  }

  SourceMap& sources_;
  const EvaluatorOptions& options_;
  ShellProgram out_;
  ShellEnv env_;
  std::vector<Frame> frames_;
  std::map<std::string, std::pair<const Node*, int>> functions_;
  std::vector<std::shared_ptr<const ParsedScript>> scripts_;  // keeps function bodies alive
  std::map<int, const std::vector<Heredoc>*> current_heredocs_;
  std::vector<int> live_background_;
  std::set<std::string> files_being_read_;
  std::string cwd_;
  bool cwd_known_ = true;
  int call_depth_ = 0;
  int loop_depth_ = 0;
  int evaluated_commands_ = 0;
  bool background_capped_ = false;
  int files_run_ = 0;
  std::shared_ptr<const std::map<std::string, Text>> exported_cache_;
  uint64_t exported_version_ = 0;
};

}  // namespace

const Text* CommandRecord::Env(const std::string& name) const {
  for (auto it = env_prefix.rbegin(); it != env_prefix.rend(); ++it)
    if (it->first == name) return &it->second;
  if (!exported) return nullptr;
  auto it = exported->find(name);
  return it == exported->end() ? nullptr : &it->second;
}

ShellProgram EvaluateShell(SourceMap& sources, int file, const EvaluatorOptions& options) {
  return Evaluator(sources, options).Run(file);
}

}  // namespace gpulint
