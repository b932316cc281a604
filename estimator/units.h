// Byte units used across the estimator. Memory is counted in bytes (double: estimates of
// 10^12-byte models need no exactness below a byte) and reported in GiB = 2^30 bytes.
#pragma once

namespace gpulint::est {

inline constexpr double kKiB = 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

inline constexpr double BytesToGib(double bytes) { return bytes / kGiB; }
inline constexpr double GibToBytes(double gib) { return gib * kGiB; }
inline constexpr double MibToBytes(double mib) { return mib * kMiB; }

/// Rounds `bytes` up to a multiple of `granule` (allocator block sizes).
double RoundUpBytes(double bytes, double granule);

}  // namespace gpulint::est
