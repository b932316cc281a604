"""Runs one measurement in a child process of its own.

Why a child per configuration: after an out-of-memory error the CUDA caching allocator, the
autograd graph and NCCL/cuBLAS workspaces of a run can stay behind, and a crash (a CUDA assert, a
segfault in an extension) ends the process. A fresh process per run measures each configuration
from an empty device and turns any failure into a recorded outcome.

Why fork: importing torch and transformers takes seconds; the parent imports them once, without
touching CUDA, and each forked child initialises CUDA for itself. A child must never inherit an
initialised CUDA context, so the parent must not call into torch.cuda.

Several children can run at once (run_many), when their runs cap their memory and the caps fit
the device together: the per-run peaks are read per process (torch's counters and NVML's
process list), so runs sharing a device measure what each would alone; only their speed differs.
"""
import json
import os
import select
import signal
import time
import traceback


class Child:
    """`function(argument)` running in a forked child, which reports one JSON document on a
    pipe and exits. `fileno` lets a parent wait on several children with select."""

    def __init__(self, function, argument):
        read_fd, write_fd = os.pipe()
        self.started = time.monotonic()
        self.chunks = []
        self.pid = os.fork()
        if self.pid == 0:  # the child: report one JSON document on the pipe, then leave at once
            os.close(read_fd)
            code = 0
            try:
                result = function(argument)
            except BaseException:  # the parent records it; nothing may escape the child
                result = {"outcome": "error", "error": traceback.format_exc()}
                code = 1
            try:
                payload = json.dumps(result).encode()
                with os.fdopen(write_fd, "wb") as pipe:
                    pipe.write(payload)
            finally:
                os._exit(code)  # no atexit handlers, no flushing of the parent's buffers
        os.close(write_fd)
        self.pipe = os.fdopen(read_fd, "rb")

    def fileno(self):
        return self.pipe.fileno()

    def elapsed_s(self):
        return time.monotonic() - self.started

    def read_some(self):
        """Reads what the pipe holds; True once the child has closed it."""
        chunk = os.read(self.fileno(), 1 << 16)
        if chunk:
            self.chunks.append(chunk)
        return not chunk

    def finish(self, timed_out=False, timeout_s=None):
        """Reaps the child (killing it first if it timed out) and returns its result."""
        self.pipe.close()
        if timed_out:
            os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        seconds = round(self.elapsed_s(), 1)
        if timed_out:
            return {"outcome": "error", "error": f"timed out after {timeout_s} s",
                    "seconds": seconds}
        try:
            result = json.loads(b"".join(self.chunks).decode())
        except (ValueError, UnicodeDecodeError):
            if os.WIFSIGNALED(status):
                reason = f"killed by signal {os.WTERMSIG(status)}"
            else:
                reason = f"exited with status {os.WEXITSTATUS(status)} without a result"
            return {"outcome": "error", "error": reason, "seconds": seconds}
        if not isinstance(result, dict):
            return {"outcome": "error", "error": "the child's result is not a JSON object",
                    "seconds": seconds}
        result.setdefault("seconds", seconds)
        return result


def run_in_child(function, argument, timeout_s):
    """`function(argument)` in a forked child; returns its dict result, or a dict with
    outcome "error" and the reason when the child raised, died or ran past `timeout_s`."""
    return next(run_many(function, [argument], timeout_s, admit=lambda job, running: True))[1]


def run_many(function, jobs, timeout_s, admit, stop_starting=lambda: False):
    """Runs `function(job)` for each job in its own child, several at once: a pending job starts
    when `admit(job, running_jobs)` says it may (the first pending job that is admitted, so a
    large job waiting for room does not hold back small ones behind it) and `stop_starting()`
    is false. Yields (job, result) as each child ends. A job admitted with nothing running
    always starts, so the loop cannot stall."""
    pending = list(jobs)
    running = {}  # Child -> job
    while pending or running:
        if not stop_starting():
            for job in list(pending):
                if not running or admit(job, list(running.values())):
                    running[Child(function, job)] = job
                    pending.remove(job)
        else:
            pending.clear()
        if not running:
            continue
        waits = [timeout_s - child.elapsed_s() for child in running]
        ready, _, _ = select.select(list(running), [], [], max(0.0, min(waits)))
        for child in list(running):
            if child in ready and child.read_some():
                yield running.pop(child), child.finish()
            elif child.elapsed_s() >= timeout_s:
                yield running.pop(child), child.finish(timed_out=True, timeout_s=timeout_s)
