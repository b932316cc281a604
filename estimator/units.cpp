#include "estimator/units.h"

#include <cmath>

namespace gpulint::est {

double RoundUpBytes(double bytes, double granule) {
  if (granule <= 0) return bytes;
  return std::ceil(bytes / granule) * granule;
}

}  // namespace gpulint::est
