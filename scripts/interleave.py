#!/usr/bin/env python3
"""Times commands in turn, A B C A B C ... (the order reversed every other round), so that a
ratio holds when the machine's speed drifts between runs, as it does on a shared VM.

Usage: interleave.py --runs N --warmup W --json OUT -- 'CMD A' 'CMD B' ...
Each command is one string split as a shell splits words (shlex), run without a shell, its
output thrown away. For each command OUT gets: wall seconds of each counted run, its median, the
median CPU seconds (user + system of the command and its children: os.wait4's rusage), the
median peak RSS in KiB (ru_maxrss of the command and what it waited for) and its exit codes.
Run k of each command is of the same round: a ratio pair by pair is median(a[k] / b[k]).
"""
import argparse, json, os, shlex, statistics, subprocess, time


def run(argv):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    # wait4's rusage covers the command and the children it waited for (xz-utils under diagnose).
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--json", required=True)
    ap.add_argument("commands", nargs="+")
    a = ap.parse_args()
    cmds = [shlex.split(c) for c in a.commands]
    res = [{"command": c, "wall": [], "cpu": [], "rss_kib": [], "exit": []} for c in a.commands]
    for r in range(a.warmup + a.runs):
        order = list(range(len(cmds)))
        if r % 2:
            order.reverse()
        for i in order:
            wall, cpu, rss, code = run(cmds[i])
            if r >= a.warmup:
                for k, v in (("wall", wall), ("cpu", cpu), ("rss_kib", rss), ("exit", code)):
                    res[i][k].append(v)
    for x in res:
        x["median"] = statistics.median(x["wall"])
        x["cpu_median"] = statistics.median(x["cpu"])
        x["rss_kib_median"] = statistics.median(x["rss_kib"])
    with open(a.json, "w") as f:
        json.dump({"results": res}, f, indent=1)


if __name__ == "__main__":
    main()
