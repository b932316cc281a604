"""bench/gpu/measure.py: a sweep records every outcome as it comes, resumes where it stopped, and
stops starting runs at its time budget; `check` and `list` need no GPU."""
import contextlib
import io
import os
import tempfile
import time
import tomllib
import unittest

import harness
import grid
import measure

MODELS = {"Qwen/Qwen3-0.6B": {"hf_id": "Qwen/Qwen3-0.6B"}}
GIB = 1 << 30


def configs(count):
    text = ('[[sweep]]\nname = "s"\nmodels = "Qwen/Qwen3-0.6B"\nmicro_batch = ['
            + ", ".join(str(i + 1) for i in range(count)) + "]\n")
    return grid.parse_grid(text, "g.toml", MODELS)


def fake_measure(job):
    """Fits up to micro-batch 2, runs out of memory at 3, crashes at 4."""
    config, entry = job
    assert entry["hf_id"] == config.model
    if config.micro_batch == 4:
        raise RuntimeError("an unexpected failure")
    if config.micro_batch == 3:
        return {"outcome": "oom", "max_reserved_bytes": 79 * GIB, "error": "CUDA out of memory"}
    return {"outcome": "fit", "nvml_process_peak_bytes": config.micro_batch * GIB,
            "max_allocated_bytes": GIB, "max_reserved_bytes": GIB}


def slow_measure(job):
    time.sleep(0.3)
    return fake_measure(job)


def read_cases(path):
    with open(path, "rb") as handle:
        return tomllib.load(handle)["case"]


class ResultsFolder:
    """A results file in a folder of its own, removed after each test."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.folder.name, "H100-80GB.toml")
        self.log = []

    def tearDown(self):
        self.folder.cleanup()


class RunGridTest(ResultsFolder, unittest.TestCase):
    def run_grid(self, grid_configs, measure_fn=fake_measure, budget_s=None):
        return measure.run_grid(grid_configs, MODELS, self.path, "H100-80GB", measure_fn,
                                timeout_s=30, budget_s=budget_s, log=self.log.append)

    def test_every_outcome_is_recorded(self):
        self.assertEqual(self.run_grid(configs(4)), (4, 0))
        cases = read_cases(self.path)
        self.assertEqual([c["outcome"] for c in cases], ["fit", "fit", "oom", "error"])
        self.assertEqual(cases[1]["measured"]["peak_gib"], 2.0)
        self.assertIn("an unexpected failure", cases[3]["skip_reason"])
        self.assertIn(f"--only {cases[0]['id']}", cases[0]["command"])
        self.assertEqual(len(self.log), 4)

    def test_a_second_call_resumes_and_measures_nothing_twice(self):
        self.run_grid(configs(2))
        self.assertEqual(self.run_grid(configs(4)), (2, 0))
        ids = [c["id"] for c in read_cases(self.path)]
        self.assertEqual(len(ids), 4)
        self.assertEqual(len(set(ids)), 4)
        self.assertEqual(self.run_grid(configs(4)), (0, 0))

    def test_budget_stops_before_the_limit_and_says_what_is_left(self):
        measured, left = self.run_grid(configs(4), slow_measure, budget_s=0.5)
        self.assertEqual(measured + left, 4)
        self.assertGreaterEqual(measured, 1)
        self.assertGreater(left, 0)
        self.assertIn("left for the next call", self.log[-1])


def capped(caps):
    text = ('[[sweep]]\nname = "s"\nmodels = "Qwen/Qwen3-0.6B"\nmicro_batch = 1\n'
            'memory_cap_gib = [' + ", ".join(str(c) for c in caps) + "]\n")
    return grid.parse_grid(text, "g.toml", MODELS)


class AdmitTest(unittest.TestCase):
    def test_capped_runs_share_the_device_while_their_caps_fit(self):
        small, large = capped([30, 110])
        admit = measure.admits(device_gib=139, parallel=4)
        job = (small, {})
        self.assertTrue(admit(job, [job, job, job][:3]))      # 4 x 31.5 <= 139
        self.assertFalse(admit((large, {}), [job]))           # 31.5 + 111.5 > 139
        self.assertFalse(admit(job, [job, job, job, job]))    # at most `parallel`

    def test_a_run_without_a_cap_runs_alone(self):
        (uncapped,) = capped([0])
        (small,) = capped([8])
        admit = measure.admits(device_gib=139, parallel=4)
        self.assertFalse(admit((uncapped, {}), [(small, {})]))
        self.assertFalse(admit((small, {}), [(uncapped, {})]))


def pid_measure(job):
    config, _ = job
    return {"outcome": "fit", "nvml_process_peak_bytes": 99 * GIB,
            "nvml_pid_peak_bytes": config.memory_cap_gib * GIB if config.memory_cap_gib > 9
            else None, "max_allocated_bytes": GIB, "max_reserved_bytes": GIB}


class SharedDeviceTest(ResultsFolder, unittest.TestCase):
    def test_a_shared_device_records_only_each_process_own_peak(self):
        configs = capped([8, 10])
        self.assertEqual(measure.run_grid(configs, MODELS, self.path, "H100-80GB", pid_measure,
                                          timeout_s=30, budget_s=None, log=self.log.append,
                                          parallel=2, device_gib=80), (2, 0))
        by_cap = {c["memory_cap_gib"]: c for c in read_cases(self.path)}
        self.assertNotIn("peak_gib", by_cap[8]["measured"])  # the device's figure is not its own
        self.assertEqual(by_cap[10]["measured"]["peak_gib"], 10.0)
        self.assertNotIn("nvml_process_peak_bytes", by_cap[8])


class CommandLineTest(unittest.TestCase):
    def call(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = measure.main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def test_check_counts_the_shipped_grid(self):
        code, out, _ = self.call("check")
        self.assertEqual(code, 0)
        total = int(out.strip().splitlines()[-1].split()[-1])
        self.assertGreaterEqual(total, 150)

    def test_list_with_shard_and_only(self):
        _, every, _ = self.call("list")
        _, first, _ = self.call("list", "--shard", "1/2")
        _, second, _ = self.call("list", "--shard", "2/2")
        self.assertEqual(sorted(every.split()), sorted(first.split() + second.split()))
        one = every.split()[5]
        self.assertEqual(self.call("list", "--only", one)[1].split(), [one])

    def test_sweep_selects_whole_sweeps(self):
        _, out, _ = self.call("list", "--sweep", "edge-qwen3-0.6b", "longtail-forward")
        self.assertEqual(len(out.split()), 12)
        code, _, err = self.call("list", "--sweep", "no-such-sweep")
        self.assertEqual(code, 2)
        self.assertIn("no-such-sweep", err)

    def test_bad_grid_and_unknown_id_exit_2(self):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as handle:
            handle.write('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\ndtype = "fp4"\n')
        try:
            code, _, err = self.call("check", "--grid", handle.name)
            self.assertEqual(code, 2)
            self.assertIn("measure: error: " + handle.name, err)
            self.assertIn("dtype = 'fp4'", err)
        finally:
            os.unlink(handle.name)
        code, _, err = self.call("list", "--only", "no-such-run")
        self.assertEqual(code, 2)
        self.assertIn("no-such-run", err)


if __name__ == "__main__":
    unittest.main()
