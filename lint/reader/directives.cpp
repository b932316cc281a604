#include "lint/reader/directives.h"

#include <fmt/format.h>

#include "lint/util/strings.h"

namespace gpulint {
namespace {

Setting DirectiveSetting(const std::string& name, const std::string& text, size_t offset,
                         int file, const SourceMap& sources) {
  Setting setting;
  setting.name = name;
  double number = 0;
  setting.value = ParseNumber(text, &number) ? Value::Number(number, text) : Value::String(text);
  setting.span = sources.Span(file, offset, text.size());
  setting.origin = Origin::kDirective;
  setting.editable = true;
  return setting;
}

// "gpu:h100:4", "gpu:4", "gpu:a100_80g:8,shard:2": the GPU part's type and count.
bool ParseGres(const std::string& value, std::string* type, std::string* count,
               size_t* count_offset) {
  size_t start = 0;
  for (const std::string& item : SplitAny(value, ",")) {
    size_t at = value.find(item, start);
    start = at + item.size();
    if (!StartsWith(item, "gpu")) continue;
    std::vector<std::string> parts = SplitAny(item, ":");
    if (parts.empty() || parts[0] != "gpu") continue;
    if (parts.size() == 2) {
      *count = parts[1];
    } else if (parts.size() >= 3) {
      *type = parts[1];
      *count = parts.back();
    } else {
      *count = "1";
    }
    *count_offset = at + item.size() - count->size();
    return true;
  }
  return false;
}

}  // namespace

void ReadDirectives(const std::vector<CommentRecord>& comments, int file, size_t first_command,
                    const SourceMap& sources, Cluster* cluster,
                    std::map<std::string, std::string>* directives,
                    std::map<std::string, SourceSpan>* directive_spans,
                    std::vector<ReaderNote>* notes) {
  for (const CommentRecord& comment : comments) {
    if (comment.file != file) continue;
    const std::string& text = comment.text;
    size_t text_offset = comment.offset + 1;  // after '#'
    // # gpulint: gpu=H100-80GB model=Qwen/Qwen3-8B disable=GL101
    std::string_view trimmed = Trim(text);
    if (StartsWith(trimmed, "gpulint:")) {
      std::string body(trimmed.substr(8));
      size_t body_offset = text_offset + text.find("gpulint:") + 8;
      size_t cursor = 0;
      for (const std::string& token : SplitAny(body, " \t")) {
        size_t at = body.find(token, cursor);
        cursor = at + token.size();
        if (token == "--") break;  // "-- reason" ends the directive
        size_t eq = token.find('=');
        if (eq == std::string::npos) continue;
        std::string key = token.substr(0, eq), value = token.substr(eq + 1);
        (*directives)[key] = value;
        (*directive_spans)[key] = sources.Span(file, body_offset + at + eq + 1, value.size());
      }
      continue;
    }
    if (!StartsWith(text, "SBATCH")) continue;
    if (comment.offset > first_command) {
      notes->push_back({ReaderNote::Level::kInfo,
                        "#SBATCH after the first command is ignored by sbatch",
                        sources.Span(file, comment.offset, text.size() + 1)});
      continue;
    }
    // "SBATCH --gres=gpu:h100:4" or "SBATCH -N 2"
    std::vector<std::string> words = SplitAny(text.substr(6), " \t");
    size_t cursor = 6;
    for (size_t i = 0; i < words.size(); ++i) {
      size_t at = text.find(words[i], cursor);
      cursor = at + words[i].size();
      std::string option = words[i], value;
      size_t value_offset = 0;
      size_t eq = option.find('=');
      if (eq != std::string::npos) {
        value = option.substr(eq + 1);
        value_offset = text_offset + at + eq + 1;
        option = option.substr(0, eq);
      } else if (i + 1 < words.size() && !StartsWith(words[i + 1], "-")) {
        value = words[i + 1];
        value_offset = text_offset + text.find(value, cursor);
        cursor = text.find(value, cursor) + value.size();
        ++i;
      }
      if (option == "--gres") {
        std::string type, count;
        size_t count_at = 0;
        if (ParseGres(value, &type, &count, &count_at)) {
          cluster->gpus_per_node = DirectiveSetting("gpus_per_node", count,
                                                    value_offset + count_at, file, sources);
          if (!type.empty())
            cluster->gpu = DirectiveSetting("gpu", type, value_offset + value.find(type), file,
                                            sources);
        }
      } else if (option == "--gpus" || option == "-G" || option == "--gpus-per-node") {
        std::string count = value, type;
        size_t colon = value.rfind(':');
        if (colon != std::string::npos) {
          type = value.substr(0, colon);
          count = value.substr(colon + 1);
        }
        Setting setting = DirectiveSetting(option == "--gpus-per-node" ? "gpus_per_node"
                                                                        : "gpus_total",
                                           count, value_offset + (colon == std::string::npos
                                                                      ? 0
                                                                      : colon + 1),
                                           file, sources);
        if (option == "--gpus-per-node") {
          cluster->gpus_per_node = setting;
        } else {
          cluster->gpus_total = setting;
        }
        if (!type.empty() && !cluster->gpu)
          cluster->gpu = DirectiveSetting("gpu", type, value_offset, file, sources);
      } else if (option == "--nodes" || option == "-N") {
        // "2-4" asks for a range; the smallest is what a job can count on.
        std::string count = value.substr(0, value.find('-'));
        cluster->nodes = DirectiveSetting("nodes", count, value_offset, file, sources);
      } else if (option == "--constraint" || option == "-C") {
        cluster->other["constraint"] = DirectiveSetting("constraint", value, value_offset, file,
                                                        sources);
      } else if (option == "--partition" || option == "-p") {
        cluster->other["partition"] = DirectiveSetting("partition", value, value_offset, file,
                                                       sources);
      } else if (option == "--ntasks-per-node" || option == "--gpus-per-task" || option == "--mem" ||
                 option == "--cpus-per-task" || option == "-c" || option == "--ntasks" ||
                 option == "-n" || option == "--mem-per-cpu" || option == "--time" ||
                 option == "-t") {
        std::string name = option;
        while (StartsWith(name, "-")) name = name.substr(1);
        for (char& c : name)
          if (c == '-') c = '_';
        cluster->other[name] = DirectiveSetting(name, value, value_offset, file, sources);
      }
    }
  }
}

}  // namespace gpulint
