#!/usr/bin/env python3
"""Measures peak GPU memory for the configurations of a grid, one child process per run, and
appends each result to bench/gpu/results/<GPU>.toml as soon as it is known.

    bench/gpu/measure.py check                 # the grid is valid; counts per sweep (no GPU)
    bench/gpu/measure.py list [--shard 2/4]    # the configuration ids
    bench/gpu/measure.py run [--budget-s 540]  # measure what is not measured yet
    bench/gpu/measure.py run --parallel 4      # capped runs share the device, 4 at a time

`run` skips ids already in the results file, so a sweep longer than one device command is done by
running the same command again until it reports nothing left. `--budget-s` stops starting runs
before the device's per-command limit, so no result is lost to the limit.

Needs (for `run` only) torch, transformers, peft and nvidia-ml-py; nothing is downloaded.
"""
import argparse
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import catalog  # noqa: E402
import grid  # noqa: E402
import results  # noqa: E402
import runner  # noqa: E402


# What a process holds outside its torch cap: the CUDA context and kernels (0.68-0.75 GiB on the
# H100 runs; estimator/overhead.h) with room to spare, so that capped runs sharing a device
# never meet the device's own limit before their caps.
CONTEXT_ROOM_GIB = 1.5


def admits(device_gib, parallel):
    """The admission rule of run_grid: at most `parallel` runs at once, each capped, whose caps
    and contexts fit the device together. A run without a cap runs alone."""
    def admit(job, running):
        config = job[0]
        if len(running) >= parallel or not config.memory_cap_gib:
            return False
        if any(not other.memory_cap_gib for other, _ in running):
            return False
        used = sum(other.memory_cap_gib + CONTEXT_ROOM_GIB for other, _ in running)
        return used + config.memory_cap_gib + CONTEXT_ROOM_GIB <= device_gib
    return admit


def run_grid(configs, models, results_path, gpu, measure, timeout_s, budget_s, log=print,
             parallel=1, device_gib=None):
    """Measures every configuration not yet in `results_path`, each in its own child, up to
    `parallel` at once where their memory caps fit `device_gib` together. Returns (measured now,
    left for a later call)."""
    done = results.measured_ids(results_path)
    pending = [config for config in configs if config.id not in done]
    started = time.monotonic()
    longest_s = [0.0]
    measured = 0

    def stop_starting():
        # Start a run only if the slowest run so far would still end inside the budget.
        return budget_s is not None and time.monotonic() - started + longest_s[0] > budget_s

    admit = admits(device_gib if device_gib else float("inf"), parallel)
    jobs = [(config, models[config.model]) for config in pending]
    for (config, _), result in runner.run_many(measure, jobs, timeout_s, admit, stop_starting):
        longest_s[0] = max(longest_s[0], float(result.get("seconds", 0)))
        command = f"python3 bench/gpu/measure.py run --only {config.id}"
        case = results.case_record(config, result, gpu, command, shared_device=parallel > 1)
        results.append_case(results_path, case)
        measured += 1
        peak = case.get("measured", {}).get("peak_gib")
        shown = f"{peak:.2f} GiB" if peak is not None else case.get("skip_reason", "")[:80]
        log(f"measure: [{len(done) + measured}/{len(configs)}] {config.id}: "
            f"{case['outcome']} {shown} ({result.get('seconds', 0)} s)")
    left = len(pending) - measured
    if left:
        log(f"measure: budget of {budget_s} s reached; {left} left for the next call")
    return measured, left


def select(configs, wanted, key, complaint):
    """The configurations whose `key` is in `wanted` (all when nothing is wanted), and an error
    naming what was wanted and is not there."""
    if not wanted:
        return configs, None
    unknown = set(wanted) - {key(config) for config in configs}
    if unknown:
        return configs, f"{complaint}: {', '.join(sorted(unknown))}"
    return [config for config in configs if key(config) in wanted], None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("check", "list", "run"))
    parser.add_argument("--grid", default=os.path.join(HERE, "grid.toml"))
    parser.add_argument("--results", default=os.path.join(HERE, "results"),
                        help="folder of <GPU>.toml result files")
    parser.add_argument("--shard", help="i/n: only every n-th configuration, from the i-th")
    parser.add_argument("--only", nargs="+", help="only these configuration ids")
    parser.add_argument("--sweep", nargs="+", help="only the configurations of these sweeps")
    parser.add_argument("--timeout-s", type=float, default=300, help="per configuration")
    parser.add_argument("--budget-s", type=float, help="stop starting runs after this many seconds")
    parser.add_argument("--parallel", type=int, default=1,
                        help="runs at once, where their memory caps fit the device together")
    args = parser.parse_args(argv)

    models = catalog.load_models()
    try:
        configs = grid.load_grid(args.grid, models)
        for config in configs:
            catalog.hf_config_kwargs(models[config.model], config.max_seq_len)
        if args.shard:
            configs = grid.shard(configs, args.shard)
    except (grid.GridError, ValueError, OSError) as error:
        print(f"measure: error: {error}", file=sys.stderr)
        return 2
    configs, error = select(configs, args.sweep, lambda config: config.sweep, "no such sweep")
    if not error:
        configs, error = select(configs, args.only, lambda config: config.id, "not in the grid")
    if error:
        print(f"measure: error: {error}", file=sys.stderr)
        return 2

    if args.action == "check":
        counts = {}
        for config in configs:
            counts[config.sweep] = counts.get(config.sweep, 0) + 1
        for sweep, count in counts.items():
            print(f"{sweep:<28} {count:>4}")
        print(f"{'total':<28} {len(configs):>4}")
        return 0
    if args.action == "list":
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `list | head` is not an error
        for config in configs:
            print(config.id)
        return 0

    import worker  # torch and friends: only for `run`
    worker.preload()
    device_name, device_bytes = worker.device_name(), worker.device_total_bytes()
    gpu = catalog.canonical_gpu(device_name, catalog.load_gpus())
    if gpu is None:
        print(f"measure: error: GPU '{device_name}' is not in catalog/gpus.toml", file=sys.stderr)
        return 2
    results_path = os.path.join(args.results, f"{gpu}.toml")
    print(f"measure: {device_name} -> {gpu}; results in {results_path}")
    _, left = run_grid(configs, models, results_path, gpu, worker.measure, args.timeout_s,
                       args.budget_s, parallel=args.parallel, device_gib=device_bytes / 2**30)
    print("measure: nothing left to measure" if left == 0 else f"measure: {left} left")
    return 0


if __name__ == "__main__":
    sys.exit(main())
