"""Makes bench/gpu importable from the tests of tests/bench/gpu (they mirror its files)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
