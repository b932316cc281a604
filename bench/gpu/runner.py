"""Runs one measurement in a child process of its own.

Why a child per configuration: after an out-of-memory error the CUDA caching allocator, the
autograd graph and NCCL/cuBLAS workspaces of a run can stay behind, and a crash (a CUDA assert, a
segfault in an extension) ends the process. A fresh process per run measures each configuration
from an empty device and turns any failure into a recorded outcome.

Why fork: importing torch and transformers takes seconds; the parent imports them once, without
touching CUDA, and each forked child initialises CUDA for itself. A child must never inherit an
initialised CUDA context, so the parent must not call into torch.cuda.
"""
import json
import os
import select
import signal
import time
import traceback


def run_in_child(function, argument, timeout_s):
    """`function(argument)` in a forked child; returns its dict result, or a dict with
    outcome "error" and the reason when the child raised, died or ran past `timeout_s`."""
    read_fd, write_fd = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: report one JSON document on the pipe, then leave at once
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
    chunks = []
    timed_out = False
    with os.fdopen(read_fd, "rb") as pipe:
        while True:
            left = timeout_s - (time.monotonic() - started)
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([pipe], [], [], left)
            if not ready:
                continue
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    seconds = round(time.monotonic() - started, 1)
    if timed_out:
        return {"outcome": "error", "error": f"timed out after {timeout_s} s", "seconds": seconds}
    try:
        result = json.loads(b"".join(chunks).decode())
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
