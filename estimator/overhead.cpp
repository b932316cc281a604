#include "estimator/overhead.h"

#include "estimator/units.h"

namespace gpulint::est {

double DeviceTotal(double reserved_bytes, bool uses_nccl, double context_gib) {
  return reserved_bytes + GibToBytes(context_gib) + (uses_nccl ? GibToBytes(kNcclGib) : 0);
}

}  // namespace gpulint::est
