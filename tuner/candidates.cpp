#include "tuner/candidates.h"

#include <algorithm>

namespace gpulint {

std::vector<long> Divisors(long n, long limit) {
  std::vector<long> small, large;
  if (n / limit > limit) {  // sqrt(n) past the limit: test each value up to it
    for (long d = 1; d <= limit; ++d)
      if (n % d == 0) small.push_back(d);
    return small;
  }
  for (long d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    if (d <= limit) small.push_back(d);
    if (d != n / d && n / d <= limit) large.push_back(n / d);
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
