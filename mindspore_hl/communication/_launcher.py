"""``mindspore-hl-run -n N script.py [args]``: start N processes of a data/auto-parallel job on this host.

Each process gets the environment that ``communication.init()`` reads (msrun's names: ``MS_SCHED_HOST``,
``MS_SCHED_PORT``, ``MS_WORKER_NUM``, ``MS_NODE_ID``; also ``RANK_ID``, ``RANK_SIZE``, ``LOCAL_RANK``) and
``--devices_per_process`` CPU devices. Output lines are prefixed with ``[rank i]`` (and copied to
``--log_dir/worker_i.log``). When a process fails, the others get ``--grace_s`` seconds to stop on their own
(their next collective fails), then they are terminated; the launcher exits with the failed process's code.
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from types import FrameType

__all__ = ["main"]


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mindspore-hl-run", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", "--nproc", "--local_worker_num", dest="nproc", type=int, required=True,
                   help="processes to start on this host")
    p.add_argument("--nnodes", type=int, default=1, help="hosts in the job (each runs this launcher)")
    p.add_argument("--node_rank", type=int, default=0, help="this host's index in [0, nnodes)")
    p.add_argument("--master_addr", default="127.0.0.1", help="coordinator host (node 0)")
    p.add_argument("--master_port", type=int, default=None, help="coordinator port (default: a free port; "
                   "required when nnodes > 1)")
    p.add_argument("--devices_per_process", type=int, default=1, help="CPU devices each process drives")
    p.add_argument("--log_dir", default=None, help="also write each process's output to LOG_DIR/worker_<rank>.log")
    p.add_argument("--grace_s", type=float, default=30.0,
                   help="after a process fails, seconds the others get to stop by themselves")
    p.add_argument("script", help="the Python training script")
    p.add_argument("script_args", nargs=argparse.REMAINDER, help="arguments for the script")
    return p


def _child_env(args: argparse.Namespace, port: int, local_rank: int) -> tuple[int, dict[str, str]]:
    rank = args.node_rank * args.nproc + local_rank
    total = args.nnodes * args.nproc
    env = dict(os.environ)
    flags = re.sub(r"--xla_force_host_platform_device_count=\S+", "", env.get("XLA_FLAGS", "")).strip()
    env["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={args.devices_per_process}".strip()
    env.update({"MS_SCHED_HOST": args.master_addr, "MS_SCHED_PORT": str(port), "MS_WORKER_NUM": str(total),
                "MS_NODE_ID": str(rank), "MS_ROLE": "MS_WORKER", "RANK_ID": str(rank), "RANK_SIZE": str(total),
                "LOCAL_RANK": str(local_rank), "LOCAL_WORLD_SIZE": str(args.nproc),
                "MS_LOCAL_WORKER": str(args.nproc), "PYTHONUNBUFFERED": "1"})
    return rank, env


def _pump(proc: subprocess.Popen[str], rank: int, log_path: str | None) -> None:
    log = open(log_path, "w", encoding="utf-8") if log_path else None
    assert proc.stdout is not None  # started with stdout=PIPE
    try:
        for line in iter(proc.stdout.readline, ""):
            sys.stdout.write(f"[rank {rank}] {line}")
            sys.stdout.flush()
            if log:
                log.write(line)
                log.flush()
    finally:
        if log:
            log.close()


def _describe(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _stop(procs: list[subprocess.Popen[str]], grace: float) -> None:
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(p.poll() is None for p in procs):
        time.sleep(0.1)
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        alive = [p for p in procs if p.poll() is None]
        for p in alive:
            p.send_signal(sig)
        end = time.monotonic() + wait
        while time.monotonic() < end and any(p.poll() is None for p in alive):
            time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``mindspore-hl-run``; returns the exit code (0 when every process succeeded)."""
    args = _parser().parse_args(argv)
    if args.nproc < 1 or args.nnodes < 1 or not 0 <= args.node_rank < args.nnodes or args.devices_per_process < 1:
        raise SystemExit("mindspore-hl-run: need -n >= 1, --nnodes >= 1, 0 <= --node_rank < --nnodes and "
                         "--devices_per_process >= 1.")
    if not os.path.isfile(args.script):
        raise SystemExit(f"mindspore-hl-run: script not found: {args.script}")
    if args.master_port is None:
        if args.nnodes > 1:
            raise SystemExit("mindspore-hl-run: --master_port is required when --nnodes > 1.")
        args.master_port = _free_port(args.master_addr)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    procs, pumps, ranks = [], [], []
    for i in range(args.nproc):
        rank, env = _child_env(args, args.master_port, i)
        proc = subprocess.Popen([sys.executable, "-u", args.script] + list(args.script_args), env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        log = os.path.join(args.log_dir, f"worker_{rank}.log") if args.log_dir else None
        t = threading.Thread(target=_pump, args=(proc, rank, log), daemon=True)
        t.start()
        procs.append(proc)
        pumps.append(t)
        ranks.append(rank)

    def forward(signum: int, _frame: FrameType | None) -> None:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signum)

    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    failed = None
    try:
        while any(p.poll() is None for p in procs):
            for p, rank in zip(procs, ranks):
                code = p.poll()
                if code not in (None, 0) and failed is None:
                    failed = (rank, code)
                    sys.stdout.write(f"mindspore-hl-run: rank {rank} {_describe(code)}; waiting up to "
                                     f"{args.grace_s:g} s for the other ranks to stop.\n")
                    sys.stdout.flush()
                    _stop(procs, args.grace_s)
            time.sleep(0.05)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    for t in pumps:
        t.join(timeout=5)
    if failed is None:
        failed = next(((r, p.returncode) for p, r in zip(procs, ranks) if p.returncode != 0), None)
    if failed is None:
        return 0
    summary = ", ".join(f"rank {r} {_describe(p.returncode)}" for p, r in zip(procs, ranks))
    sys.stdout.write(f"mindspore-hl-run: the job failed (first failure: rank {failed[0]} {_describe(failed[1])}). "
                     f"{summary}.\n")
    sys.stdout.flush()
    code = failed[1]
    return code if 0 < code < 256 else 1


if __name__ == "__main__":
    sys.exit(main())
