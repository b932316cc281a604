"""bench/gpu/results.py: a finished run becomes a calibration case that tomllib reads back
exactly, that bench/accuracy can pose, and that survives being appended one at a time."""
import os
import tempfile
import tomllib
import unittest

import harness
import grid
import results

MODELS = {"Qwen/Qwen3-0.6B": {}}
GIB = 1 << 30


def config(**axes):
    text = '[[sweep]]\nname = "s"\nmodels = "Qwen/Qwen3-0.6B"\n' + "".join(
        f"{key} = {value}\n" for key, value in axes.items())
    (only,) = grid.parse_grid(text, "g.toml", MODELS)
    return only


FIT = {"outcome": "fit", "nvml_process_peak_bytes": 12 * GIB + GIB // 2,
       "max_allocated_bytes": 10 * GIB, "max_reserved_bytes": 11 * GIB,
       "device_name": "NVIDIA H100 80GB HBM3", "device_total_bytes": 85520809984,
       "nvml_baseline_bytes": 0, "seconds": 7.5,
       "versions": {"torch": "2.5.1", "transformers": "4.46.0"}}


class CaseTest(unittest.TestCase):
    def test_fit_case_has_the_calibration_fields(self):
        case = results.case_record(config(micro_batch=4, grad_ckpt="true"), FIT, "H100-80GB", "cmd")
        self.assertEqual(case["kind"], "measured")
        self.assertEqual(case["workload"], "train")
        self.assertEqual(case["outcome"], "fit")
        self.assertEqual(case["gpu"], "H100-80GB")
        self.assertEqual(case["measured"]["peak_gib"], 12.5)
        self.assertEqual(case["measured"]["metric"], "nvidia-smi")
        self.assertEqual(case["measured"]["scope"], "per_gpu")
        self.assertEqual(case["measured"]["allocated_gib"], 10.0)
        self.assertEqual(case["measured"]["reserved_gib"], 11.0)
        self.assertEqual(case["settings"]["micro_batch"], 4)
        self.assertIs(case["settings"]["grad_ckpt"], True)
        self.assertEqual(case["versions"]["torch"], "2.5.1")
        self.assertEqual(case["command"], "cmd")
        self.assertNotIn("skip_reason", case)

    def test_oom_case_has_no_peak(self):
        result = {"outcome": "oom", "max_reserved_bytes": 79 * GIB, "error": "CUDA out of memory"}
        case = results.case_record(config(), result, "H100-80GB", "cmd")
        self.assertEqual(case["outcome"], "oom")
        self.assertNotIn("peak_gib", case["measured"])
        self.assertEqual(case["measured"]["reserved_at_oom_gib"], 79.0)
        self.assertNotIn("skip_reason", case)  # an OOM is a verdict to score

    def test_failed_run_is_kept_but_not_scored(self):
        case = results.case_record(config(), {"outcome": "error", "error": "Traceback..."},
                                   "H100-80GB", "cmd")
        self.assertEqual(case["outcome"], "error")
        self.assertIn("Traceback", case["skip_reason"])

    def test_args_pose_the_same_question(self):
        args = results.gpulint_args(config(method='"lora"', lora_rank=8, dtype='"bf16"',
                                           micro_batch=2, max_seq_len=1024), "A100-80GB")
        self.assertEqual(args[:6], ["--role", "train", "--model", "Qwen/Qwen3-0.6B",
                                    "--gpu", "A100-80GB"])
        sets = [args[i + 1] for i in range(6, len(args), 2)]
        self.assertTrue(all(args[i] == "--set" for i in range(6, len(args), 2)))
        for expected in ("dtype=bf16", "optimizer=adamw", "micro_batch=2", "max_seq_len=1024",
                         "grad_ckpt=false", "attn_impl=sdpa", "lora_rank=8",
                         "lora_targets=all-linear", "lora_dropout=0.05"):
            self.assertIn(expected, sets)

    def test_forward_runs_are_posed_as_a_reference_model(self):
        args = results.gpulint_args(config(mode='"forward"', dtype='"bf16"'), "H100-80GB")
        self.assertEqual(args[1], "reference")
        self.assertFalse(any(a.startswith("optimizer=") for a in args))


class CapVerdictTest(unittest.TestCase):
    # 2 GiB of context: total 30 over 28 reserved; the high end less the context is 33.
    PER_GPU = {"torch_allocated": 25.0, "torch_reserved": 28.0, "total": 30.0,
               "total_high": 35.0}

    def test_the_cap_bounds_reservations_not_the_context(self):
        self.assertEqual(results.cap_verdict(self.PER_GPU, 33.0), "fits")
        self.assertEqual(results.cap_verdict(self.PER_GPU, 32.9), "may not fit")

    def test_live_tensors_past_the_cap_do_not_fit(self):
        self.assertEqual(results.cap_verdict(self.PER_GPU, 24.9), "does not fit")


class TomlTest(unittest.TestCase):
    def test_round_trip(self):
        case = {"id": "x", "text": 'quote " backslash \\ newline \n tab \t del \x7f emoji \U0001F600',
                "n": 3, "f": 1.23456789, "b": False, "inf": float("inf"),
                "list": ["a", 1, True], "table": {"k": "v", "n": 2}, "empty": {}}
        parsed = tomllib.loads(results.case_toml(case))["case"][0]
        expected = dict(case, f=1.2346)
        self.assertEqual(parsed, expected)

    def test_appended_cases_read_back_in_order(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "new", "H100-80GB.toml")
            self.assertEqual(results.measured_ids(path), set())
            first = results.case_record(config(micro_batch=1), FIT, "H100-80GB", "c1")
            second = results.case_record(config(micro_batch=2), FIT, "H100-80GB", "c2")
            results.append_case(path, first)
            results.append_case(path, second)
            with open(path, "rb") as handle:
                cases = tomllib.load(handle)["case"]
            self.assertEqual([c["id"] for c in cases], [first["id"], second["id"]])
            self.assertEqual(cases[1]["args"], second["args"])
            self.assertEqual(results.measured_ids(path), {first["id"], second["id"]})
            with open(path, encoding="utf-8") as handle:
                self.assertTrue(handle.read().startswith("# bench/gpu/results"))


if __name__ == "__main__":
    unittest.main()
