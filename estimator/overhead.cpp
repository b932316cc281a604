#include "estimator/overhead.h"

#include "estimator/units.h"

namespace gpulint::est {

double DeviceTotal(double reserved_bytes, bool uses_nccl) {
  return reserved_bytes + GibToBytes(kCudaContextGib) + (uses_nccl ? GibToBytes(kNcclGib) : 0);
}

}  // namespace gpulint::est
