#include "lint/workspace/file_walker.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "lint/reader/shell_expand.h"
#include "lint/util/paths.h"
#include "lint/util/read_file.h"
#include "lint/util/strings.h"
#include "lint/workspace/gitignore.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

bool HasShellShebang(const std::string& path) {
  // The first bytes of a regular file only: a FIFO or device named like a script is not read.
  std::string first;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat info;
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    char head[64];
    ssize_t got = read(fd, head, sizeof head);
    if (got > 0) first.assign(head, static_cast<size_t>(got));
  }
  close(fd);
  if (!StartsWith(first, "#!")) return false;
  first = first.substr(0, first.find('\n'));
  return first.find("bash") != std::string::npos || first.find("/sh") != std::string::npos ||
         first.find(" sh") != std::string::npos || first.find("zsh") != std::string::npos;
}

bool IsScript(const std::string& path, std::string_view name) {
  size_t dot = name.find_last_of('.');
  std::string_view ext = dot == std::string_view::npos || dot == 0 ? "" : name.substr(dot);
  if (ext == ".sh" || ext == ".bash" || ext == ".slurm" || ext == ".sbatch") return true;
  if (!ext.empty()) return false;
  return HasShellShebang(path);
}

// The rules below `folder`: those above it and, where the folder has one, its .gitignore.
std::shared_ptr<const Gitignore> ReadGitignore(const std::string& dir, const std::string& folder,
                                               std::shared_ptr<const Gitignore> above) {
  std::string text;
  // A .gitignore that is a link to /dev/zero or a FIFO, or megabytes long, is not read.
  if (ReadRegularFile(JoinPath(dir, ".gitignore"), &text, size_t{1} << 20) != ReadStatus::kOk)
    return above;
  return Gitignore::Add(std::move(above), folder, text);
}

// The .gitignore rules in force in a folder, shared with every folder below it.
using Ignores = std::shared_ptr<const Gitignore>;

struct Entry {
  std::string name;
  bool is_dir = false;   ///< a folder, not through a symbolic link
  bool is_file = false;  ///< a regular file, or a link to one
};

// The entries of a folder from readdir's d_type, without a stat per entry where the file
// system fills it in (std::filesystem::directory_iterator cost two more system calls per
// folder, and a large tree has tens of thousands).
std::vector<Entry> ListFolder(const std::string& dir) {
  std::vector<Entry> entries;
  DIR* handle = opendir(dir.c_str());
  if (!handle) return entries;
  while (const dirent* found = readdir(handle)) {
    Entry entry;
    entry.name = found->d_name;
    if (entry.name == "." || entry.name == "..") continue;
    unsigned char type = found->d_type;
    struct stat info;
    if (type == DT_UNKNOWN) {
      if (lstat((dir + "/" + entry.name).c_str(), &info) != 0) continue;
      type = S_ISDIR(info.st_mode) ? DT_DIR : S_ISLNK(info.st_mode) ? DT_LNK
                                            : S_ISREG(info.st_mode) ? DT_REG : DT_UNKNOWN;
    }
    entry.is_dir = type == DT_DIR;
    entry.is_file = type == DT_REG || (type == DT_LNK &&
                                       stat((dir + "/" + entry.name).c_str(), &info) == 0 &&
                                       S_ISREG(info.st_mode));
    entries.push_back(std::move(entry));
  }
  closedir(handle);
  return entries;
}

// Lists one folder of the walk under `root`: files to lint go to `found`, folders to walk to
// `subfolders`, each with the .gitignore patterns that hold below it.
void ListInto(const std::string& root, const std::string& folder, Ignores ignores,
              const std::vector<std::string>& exclude, const std::vector<std::string>& include,
              std::vector<std::pair<std::string, Ignores>>* subfolders,
              std::vector<std::string>* found) {
  const std::string dir = folder.empty() ? root : JoinPath(root, folder);
  std::vector<Entry> entries = ListFolder(dir);
  // Read only where one is listed: trying to open one in every folder was a failed system
  // call per folder.
  for (const Entry& entry : entries)
    if (entry.name == ".gitignore") ignores = ReadGitignore(dir, folder, std::move(ignores));
  for (const Entry& entry : entries) {
    const std::string& name = entry.name;
    if (StartsWith(name, ".") || name == "node_modules" || name == "__pycache__") continue;
    std::string relative = folder.empty() ? name : folder + "/" + name;
    if (ignores && ignores->Ignores(relative, entry.is_dir)) continue;
    std::string display = JoinPath(root, relative);
    if (MatchesAnyGlob(display, exclude)) continue;
    if (entry.is_dir) {
      subfolders->emplace_back(relative, ignores);
    } else if (entry.is_file &&
               (IsScript(JoinPath(dir, name), name) || MatchesAnyGlob(display, include))) {
      found->push_back(display);
    }
  }
}

}  // namespace

bool MatchesAnyGlob(const std::string& path, const std::vector<std::string>& globs) {
  std::string normalized = path;
  while (StartsWith(normalized, "./")) normalized = normalized.substr(2);
  for (std::string pattern : globs) {
    // As in .gitignore: "old/" is a folder named old at any depth, "/old/" only at the top.
    bool anchored = StartsWith(pattern, "/");
    if (anchored) pattern = pattern.substr(1);
    bool any_depth = !anchored && pattern.find('/') >= pattern.size() - 1;
    if (EndsWith(pattern, "/")) pattern += "**";
    // "**" matches across folders: GlobMatch's '*' already does, so drop the doubling.
    std::string simple;
    for (size_t i = 0; i < pattern.size(); ++i)
      if (!(pattern[i] == '*' && i + 1 < pattern.size() && pattern[i + 1] == '*'))
        simple += pattern[i];
    if (GlobMatch(simple, normalized) ||
        GlobMatch(simple, fs::path(normalized).filename().string()) ||
        (any_depth && GlobMatch("*/" + simple, normalized)))
      return true;
  }
  return false;
}

bool CollectFiles(const std::string& path, const std::vector<std::string>& exclude,
                  const std::vector<std::string>& include, std::vector<std::string>* files,
                  std::string* error) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    *error = fmt::format("no such file or folder: {}", path);
    return false;
  }
  if (!fs::is_directory(status)) {
    files->push_back(path);
    return true;
  }
  // An explicit walk over a shared stack of folders, on every core: listing a folder is
  // several system calls, a large tree has tens of thousands of folders, and the folders are
  // independent. No recursion over the user's folder depth. Each folder carries its path below
  // the root ("" for the root) and the .gitignore patterns of the folders above it.
  std::vector<std::pair<std::string, Ignores>> stack;
  std::vector<std::string> found;
  ListInto(path, "", nullptr, exclude, include, &stack, &found);  // a flat folder needs no threads
  std::mutex mutex;
  std::condition_variable changed;
  int listing = 0;  // folders being listed: their subfolders may still come
  auto walk = [&] {
    std::vector<std::string> mine;
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      changed.wait(lock, [&] { return !stack.empty() || listing == 0; });
      if (stack.empty()) break;  // and nothing is being listed: the walk is over
      auto [folder, ignores] = std::move(stack.back());
      stack.pop_back();
      ++listing;
      lock.unlock();
      std::vector<std::pair<std::string, Ignores>> subfolders;
      ListInto(path, folder, std::move(ignores), exclude, include, &subfolders, &mine);
      lock.lock();
      for (auto& subfolder : subfolders) stack.push_back(std::move(subfolder));
      --listing;
      changed.notify_all();
    }
    found.insert(found.end(), mine.begin(), mine.end());
  };
  std::vector<std::thread> helpers;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 1; i < cores && stack.size() > 1; ++i) helpers.emplace_back(walk);
  walk();
  for (std::thread& helper : helpers) helper.join();
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return true;
}

}  // namespace gpulint
