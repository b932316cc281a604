"""bench/gpu/runner.py: whatever a run does (return, raise, die, hang), the parent gets a result
and goes on to the next run."""
import os
import signal
import time
import unittest

import harness
import runner


def returns(value):
    return {"outcome": "fit", "value": value, "pid": os.getpid()}


def raises(_):
    raise RuntimeError("boom in the child")


def exits(_):
    os._exit(3)


def segfaults(_):
    os.kill(os.getpid(), signal.SIGSEGV)


def hangs(_):
    time.sleep(60)


def not_a_dict(_):
    return [1, 2]


def large(_):
    return {"outcome": "fit", "blob": "x" * (1 << 20)}


def spans(_):
    started = time.monotonic()  # CLOCK_MONOTONIC: one clock for every process of the machine
    time.sleep(0.4)
    return {"outcome": "fit", "start": started, "end": time.monotonic()}


class RunManyTest(unittest.TestCase):
    def run_all(self, admit, stop_starting=lambda: False, jobs=(1, 2, 3)):
        return list(runner.run_many(spans, list(jobs), 30, admit, stop_starting))

    def test_admitted_jobs_run_at_the_same_time(self):
        done = self.run_all(lambda job, running: True)
        self.assertEqual(sorted(job for job, _ in done), [1, 2, 3])
        results = [result for _, result in done]
        self.assertLess(max(r["start"] for r in results), min(r["end"] for r in results))

    def test_jobs_not_admitted_beside_others_run_one_after_another(self):
        done = self.run_all(lambda job, running: False)
        results = sorted((result for _, result in done), key=lambda r: r["start"])
        self.assertEqual(len(results), 3)
        for before, after in zip(results, results[1:]):
            self.assertGreaterEqual(after["start"], before["end"])

    def test_admission_sees_the_running_jobs(self):
        seen = []

        def at_most_two(job, running):
            seen.append(len(running))
            return len(running) < 2
        done = self.run_all(at_most_two, jobs=(1, 2, 3, 4))
        self.assertEqual(len(done), 4)
        self.assertEqual(max(seen), 2)

    def test_nothing_starts_after_stop(self):
        done = self.run_all(lambda job, running: False, stop_starting=lambda: True)
        self.assertEqual(done, [])


class RunInChildTest(unittest.TestCase):
    def test_result_comes_from_another_process(self):
        result = runner.run_in_child(returns, 42, timeout_s=30)
        self.assertEqual(result["value"], 42)
        self.assertNotEqual(result["pid"], os.getpid())
        self.assertIn("seconds", result)

    def test_exception_is_recorded_with_its_traceback(self):
        result = runner.run_in_child(raises, None, timeout_s=30)
        self.assertEqual(result["outcome"], "error")
        self.assertIn("boom in the child", result["error"])

    def test_exit_without_result(self):
        result = runner.run_in_child(exits, None, timeout_s=30)
        self.assertEqual(result["outcome"], "error")
        self.assertIn("status 3", result["error"])

    def test_crash_by_signal(self):
        result = runner.run_in_child(segfaults, None, timeout_s=30)
        self.assertEqual(result["outcome"], "error")
        self.assertIn(f"signal {int(signal.SIGSEGV)}", result["error"])

    def test_hang_is_killed_at_the_timeout(self):
        started = time.monotonic()
        result = runner.run_in_child(hangs, None, timeout_s=0.5)
        self.assertLess(time.monotonic() - started, 10)
        self.assertEqual(result["outcome"], "error")
        self.assertIn("timed out", result["error"])

    def test_result_must_be_an_object(self):
        self.assertEqual(runner.run_in_child(not_a_dict, None, timeout_s=30)["outcome"], "error")

    def test_result_larger_than_a_pipe_buffer(self):
        self.assertEqual(len(runner.run_in_child(large, None, timeout_s=30)["blob"]), 1 << 20)


if __name__ == "__main__":
    unittest.main()
