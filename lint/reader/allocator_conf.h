// PyTorch's caching-allocator options as a script sets them in PYTORCH_CUDA_ALLOC_CONF (named
// PYTORCH_ALLOC_CONF from torch 2.9, which still reads the old name): comma-separated
// `key:value` pairs such as `expandable_segments:True,max_split_size_mb:128`.
#pragma once

#include <optional>
#include <string_view>

namespace gpulint {

/// The `expandable_segments` option of an allocator config: true for "True", false for
/// "False" and where the config leaves the option out (PyTorch's default: a process whose
/// launcher would have turned the segments on only for an unset variable, as axolotl's does,
/// runs without them), nullopt when its value is neither (PyTorch accepts exactly these two
/// spellings and stops at start-up on any other: "Expected a single True/False argument for
/// expandable_segments" in c10/cuda/CUDAAllocatorConfig.cpp `parseArgs`, later
/// c10/core/AllocatorConfig.cpp `parseExpandableSegments`). The last occurrence wins, as in
/// PyTorch's parser.
std::optional<bool> ExpandableSegmentsOption(std::string_view conf);

}  // namespace gpulint
