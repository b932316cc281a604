"""bench/gpu/snapshot.py: the tensors alive at the peak are found by replaying the allocator's
history, and each is named by the line outside torch that made it."""
import unittest

import harness  # noqa: F401  (puts bench/gpu on the path)
import snapshot

TORCH = "/usr/lib/python3/dist-packages/torch/nn/functional.py"
MODEL = "/usr/lib/python3/dist-packages/transformers/models/llama/modeling_llama.py"


def alloc(addr, size, frames=()):
    return {"action": "alloc", "addr": addr, "size": size, "frames": list(frames)}


def free(addr, size):
    return {"action": "free_requested", "addr": addr, "size": size}


class LiveAtPeakTest(unittest.TestCase):
    def test_the_peak_is_the_largest_sum_and_its_live_set(self):
        trace = [alloc(1, 100), alloc(2, 50), free(1, 100), alloc(3, 120), alloc(4, 10),
                 free(3, 120), free(2, 50)]
        peak, live = snapshot.live_at_peak(trace)
        self.assertEqual(peak, 180)  # 2, 3 and 4 together
        self.assertEqual(sorted(live), [2, 3, 4])

    def test_an_empty_trace_has_nothing_alive(self):
        self.assertEqual(snapshot.live_at_peak([]), (0, {}))


class FrameLabelTest(unittest.TestCase):
    def test_names_the_model_line_and_the_torch_function_it_called(self):
        frames = [{"filename": TORCH, "line": 10, "name": "softmax"},
                  {"filename": MODEL, "line": 200, "name": "eager_attention_forward"}]
        self.assertEqual(snapshot.frame_label(frames),
                         "llama/modeling_llama.py:200 eager_attention_forward [softmax]")

    def test_falls_back_to_the_torch_function_or_a_question_mark(self):
        self.assertEqual(snapshot.frame_label([{"filename": TORCH, "line": 1, "name": "pad"}]),
                         "pad")
        self.assertEqual(snapshot.frame_label([]), "?")


if __name__ == "__main__":
    unittest.main()
