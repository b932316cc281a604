// Helpers for reader tests: read a fixture (or inline text) and print workloads compactly.
#pragma once

#include <string>

#include "lint/core/run_config.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/script_reader.h"
#include "lint/reader/source_map.h"

namespace gpulint::testing {

/// Built-in flag maps, loaded once.
const FrameworkMaps& TestMaps();

/// Reads a fixture under the source tree (files it names are read from disk).
ReadResult ReadFixture(const std::string& relative, SourceMap* sources,
                       const ReadOptions& base = {});

/// Reads inline script text with no file system.
ReadResult ReadText(const std::string& text, SourceMap* sources, const ReadOptions& base = {});

/// "name=value@line:col(origin)" for the named settings, space separated, in the order given;
/// "name=?" when absent. Paths are left out; `origin` is l (literal), v (variable), c (config),
/// d (default), x (directive).
std::string Dump(const Workload& workload, const std::vector<std::string>& names);

/// The first workload of that role ("train", "rollout", "reference"); nullptr when none.
const Workload* Role(const RunConfig& config, const std::string& role);

}  // namespace gpulint::testing
