// What a model folder's safetensors files hold, read from their headers without touching the
// weights: a check on the architecture gpulint reads from config.json (a checkpoint with an
// extra multi-token-prediction layer, a vision tower, or a config that does not belong to the
// weights), and an exact parameter count for `gpulint models add`.
//
// A safetensors file starts with an 8-byte little-endian header length N and N bytes of JSON
// mapping each tensor to {dtype, shape, data_offsets}. Sharded checkpoints list their files in
// model.safetensors.index.json (weight_map), whose metadata.total_size is the bytes of all.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "estimator/model_arch.h"

namespace gpulint {

struct CheckpointSize {
  double bytes = 0;     ///< tensor data of every file
  double elements = 0;  ///< values stored; 0 when only the index's total_size was read
  std::map<std::string, double> bytes_by_dtype;  ///< "BF16" -> bytes (from headers)
  int files = 0;        ///< headers read
  std::string source;   ///< what was read, for messages ("4 safetensors headers in DIR")

  /// Whether every stored value is a float of 16 or 32 bits: then `elements` is the parameter
  /// count (packed 4-bit or 8-bit formats store several weights, or scales, per element).
  bool Unquantized() const;
};

/// Reads DIR/model.safetensors.index.json and the headers of the files it names, or the header
/// of DIR/model.safetensors. nullopt when the folder has neither (or `problem` says why one
/// could not be read: a note, since gpulint lints scripts, not weights). Bounded: at most 4,096
/// files, plain file names inside DIR only, 8 MiB per header.
std::optional<CheckpointSize> ReadCheckpointSize(const std::string& dir, std::string* problem);

/// Parses one file's header (the bytes after the length). False with `problem` when malformed.
bool AddSafetensorsHeader(const std::string& json_text, const std::string& where,
                          CheckpointSize* size, std::string* problem);

/// A sentence when the files hold more than 2% more or less than `arch` (stored as its
/// checkpoint format says) implies; empty when they agree.
std::string CompareCheckpoint(const CheckpointSize& size, const est::ModelArch& arch);

}  // namespace gpulint
