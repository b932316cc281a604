// A rule as data (rules/GLnnn-name.toml): when it applies, what it says, where it points, how
// it is fixed, and its documentation. Loading checks the expression and the message template
// against the variables rules may read, so that a broken rule fails at load, not at lint.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lint/core/finding.h"
#include "lint/rules/expression.h"

namespace gpulint {

/// A piece of a message template: literal text, or {expression:format}.
struct MessagePart {
  std::string literal;
  std::unique_ptr<Expr> expr;
  std::string format;  ///< fmt spec for numbers (".1f"), "" for the default
};

struct RuleDoc {
  std::string what, why, example, instead, fix, options;
  std::string file = "run.sh";  ///< what the example is (run.sh, train.py): its language
};

struct Rule {
  std::string id;          ///< GL101
  std::string name;        ///< out-of-memory
  std::string category;    ///< memory, parallelism, batch, serving, deprecated, input
  Severity severity = Severity::kWarning;
  std::string scope = "workload";  ///< workload | file | device | builtin
  std::vector<std::string> roles;       ///< empty: every role
  std::vector<std::string> frameworks;  ///< empty: every framework
  std::string when_text;
  std::unique_ptr<Expr> when;
  std::vector<MessagePart> message;
  std::vector<std::string> at;     ///< settings (or cluster.X) the finding points at, first found
  // Fix: a tuner objective ("fit", "maximize-batch", "maximize-context") or settings to write.
  std::string fix_objective;
  std::map<std::string, std::string> fix_set;
  bool fix_safe = true;
  RuleDoc doc;
  std::string path;        ///< the file it was loaded from
};

/// Loads a rule file (TOML): one rule at the top level, or a pack of [[rule]] tables.
/// `schema` lists the variables rules may read. On error returns false and sets `error` to
/// "what: file:line:col (rule GLnnn)". Without `with_docs` a one-rule file's trailing [doc]
/// table is skipped and `doc` stays empty.
bool LoadRules(const std::string& text, const std::string& path, const ExprSchema& schema,
               std::vector<std::unique_ptr<Rule>>* rules, std::string* error,
               bool with_docs = true);

/// Renders the message of `rule` with `lookup`; missing values print as "?".
std::string RenderMessage(const Rule& rule, const ExprLookup& lookup);
std::string RenderMessage(const Rule& rule, MemoLookup& lookup);

/// The documentation as plain text (`gpulint explain`).
std::string RuleDocText(const Rule& rule);
/// The documentation as Markdown (SARIF help.markdown, docs).
std::string RuleDocMarkdown(const Rule& rule);
/// Where the rule's documentation lives online.
std::string RuleUrl(const Rule& rule);

}  // namespace gpulint
