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
