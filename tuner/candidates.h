// The values a search may propose for a setting, before memory is asked: the divisibility the
// frameworks require and the user's --pow2.
#pragma once

#include <cstddef>
#include <vector>

namespace gpulint {

/// The largest value a search proposes for a count (a micro-batch): a bound on the work, far
/// above any batch that fits a GPU.
inline constexpr long kLargestCandidate = 65536;

/// Divisors of `n` up to `limit`, in increasing order (n >= 1). At most `limit` steps whatever
/// `n` is: a batch of 2^62 written in a script costs no more than one of 64.
std::vector<long> Divisors(long n, long limit = kLargestCandidate);
/// Keeps the powers of two.
std::vector<long> PowersOfTwo(const std::vector<long>& values);
/// `step`, 2*step, ... up to `limit`.
std::vector<long> Multiples(long step, long limit);

/// The index of the largest value in `sorted` (increasing) for which `fits` holds, given that
/// `fits` holds for a prefix of it (memory grows with every candidate); -1 when none does.
/// Asks `fits` O(log n) times.
template <typename Fits>
long LargestFitting(const std::vector<long>& sorted, Fits fits) {
  long low = 0, high = static_cast<long>(sorted.size()) - 1, best = -1;
  while (low <= high) {
    long mid = low + (high - low) / 2;
    if (fits(sorted[static_cast<size_t>(mid)])) {
      best = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

}  // namespace gpulint
