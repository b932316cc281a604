#include "tuner/candidates.h"

#include <algorithm>

namespace gpulint {

std::vector<long> Divisors(long n) {
  std::vector<long> small, large;
  for (long d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    small.push_back(d);
    if (d != n / d) large.push_back(n / d);
  }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

std::vector<long> PowersOfTwo(const std::vector<long>& values) {
  std::vector<long> out;
  for (long v : values)
    if (v > 0 && (v & (v - 1)) == 0) out.push_back(v);
  return out;
}

std::vector<long> Multiples(long step, long limit) {
  std::vector<long> out;
  for (long v = step; v <= limit; v += step) out.push_back(v);
  return out;
}

}  // namespace gpulint
