"""Loading one event file of 1,000,000 scalar points: insight_app vs TensorBoard's Rust data server and its
Python loaders vs a plain protobuf decode loop, timed in the same run.

    python -m benchmarks.insight_loader [--points N] [--repeat R] [--tb both|accumulator|file_loader|none]
                                        [--render] [--no-rust]

Prints one JSON line (times in seconds and the speed-up ratios) and a short table. TensorBoard's two
Python paths are timed: ``EventAccumulator`` (the library path, legacy loader) and ``EventFileLoader``
(what TensorBoard's own server uses without TensorFlow; it migrates every value to a tensor);
``speedup_vs_tensorboard`` is against the faster of the two. TensorBoard's Rust data server (what a plain
``tensorboard --logdir`` uses) is timed from process start until its HTTP API serves the last step, keeping
1,000 samples per tag (its default) and keeping every point; ``insight_cold_s`` is one insight_app load for
comparison with those single runs. The TensorBoard columns are skipped when
the ``tensorboard`` package is not installed (it is not a dependency of this project:
``pip install tensorboard`` to include them). ``--render`` also times the scalars page in headless
Chromium (skipped without /usr/bin/chromium and /usr/bin/chromedriver).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import struct
import sys
import tempfile
import time

import google_crc32c
import numpy as np

TAG = b"loss"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _masked(data: bytes) -> int:
    c = google_crc32c.value(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _frame(payload: bytes) -> bytes:
    header = struct.pack("<Q", len(payload))
    return header + struct.pack("<I", _masked(header)) + payload + struct.pack("<I", _masked(payload))


def scalar_event(tag: bytes, value: float, step: int, wall: float) -> bytes:
    """The bytes tensorboardX's ``add_scalar`` produces (Event{wall_time, step, summary{value{tag, simple_value}}})."""
    v = b"\x0a" + _varint(len(tag)) + tag + b"\x15" + struct.pack("<f", value)
    s = b"\x0a" + _varint(len(v)) + v
    return (b"\x09" + struct.pack("<d", wall) + (b"\x10" + _varint(step) if step else b"")
            + b"\x2a" + _varint(len(s)) + s)


def write_scalar_file(path: str, n: int, spike_at: int | None = None, seed: int = 0) -> np.ndarray:
    """Write an event file with ``n`` scalar points under tag "loss" (tensorboardX's exact encoding).

    Writing through tensorboardX itself takes about 2 minutes per million points, so the records are
    built here; the first one is checked against tensorboardX's protobuf classes.

    Returns:
        The float32 values written.
    """
    from tensorboardX.proto import event_pb2

    rng = np.random.default_rng(seed)
    values = (2.0 * np.exp(-np.arange(n) / (n / 5)) + 0.05 * rng.standard_normal(n)).astype(np.float32)
    if spike_at is not None:
        values[spike_at] = 25.0
    first = scalar_event(TAG, float(values[0]), 0, 1.7e9)
    ev = event_pb2.Event.FromString(first)
    assert ev.summary.value[0].tag == "loss" and ev.summary.value[0].simple_value == values[0]
    version = event_pb2.Event(wall_time=1.7e9, file_version="brain.Event:2").SerializeToString()
    parts = [_frame(version)]
    vals = values.tolist()
    for i in range(n):
        parts.append(_frame(scalar_event(TAG, vals[i], i, 1.7e9 + 0.01 * i)))
    with open(path, "wb") as f:
        f.write(b"".join(parts))
    return values


def load_insight(path: str):
    """insight_app's reader: framing, both CRCs, decode; returns (steps, values)."""
    from insight_app import FileTail, RunData

    run = RunData("r0", "bench", os.path.dirname(path))
    FileTail(path, "tb").poll(run)
    step, _, value = run.scalars["loss"].arrays()
    return step, value


def load_protobuf_loop(path: str):
    """The floor: a plain loop over frames, CRC-32C checks with google_crc32c, event_pb2 decode."""
    from tensorboardX.proto import event_pb2

    data = open(path, "rb").read()
    unpack_q, unpack_i = struct.Struct("<Q").unpack_from, struct.Struct("<I").unpack_from
    steps, values = [], []
    pos, size = 0, len(data)
    while pos + 12 <= size:
        (n,) = unpack_q(data, pos)
        if pos + 16 + n > size:
            break
        if _masked(data[pos:pos + 8]) != unpack_i(data, pos + 8)[0]:
            raise ValueError(f"bad length CRC at {pos}")
        payload = data[pos + 12:pos + 12 + n]
        if _masked(payload) != unpack_i(data, pos + 12 + n)[0]:
            raise ValueError(f"bad data CRC at {pos}")
        ev = event_pb2.Event.FromString(payload)
        for v in ev.summary.value:
            if v.WhichOneof("value") == "simple_value":
                steps.append(ev.step)
                values.append(v.simple_value)
        pos += 16 + n
    return np.asarray(steps, np.int64), np.asarray(values, np.float64)


def load_tensorboard(path: str):
    """TensorBoard's Python loader (EventFileLoader, as its multiplexer uses without TensorFlow).

    It migrates ``simple_value`` to a scalar tensor (data_compat); the value is read back with
    TensorBoard's own ``tensor_util.make_ndarray``, as its data provider does.
    """
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    from tensorboard.util import tensor_util

    steps, values = [], []
    for ev in EventFileLoader(path).Load():
        for v in ev.summary.value:
            if v.metadata.plugin_data.plugin_name == "scalars":
                steps.append(ev.step)
                values.append(tensor_util.make_ndarray(v.tensor).item())
    return np.asarray(steps, np.int64), np.asarray(values, np.float64)


def load_tensorboard_accumulator(path: str):
    """TensorBoard's EventAccumulator with every scalar kept (size_guidance 0)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    ea = EventAccumulator(path, size_guidance={"scalars": 0})
    ea.Reload()
    ev = ea.Scalars("loss")
    return np.array([e.step for e in ev], np.int64), np.array([e.value for e in ev], np.float64)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def time_tensorboard_rust(logdir: str, n: int, samples: str = "1000", timeout_s: float = 120.0):
    """Seconds from starting ``tensorboard --load_fast=true`` (its Rust data server) until its HTTP API
    serves the last point (step ``n - 1``) of tag "loss", process start included; (seconds, points served).

    ``samples`` is ``--samples_per_plugin scalars=...``: "1000" (TensorBoard's default reservoir) or the
    number of points (keep them all; 0 would keep none in the Rust loader).
    The scalars route downsamples its answer to 1000 points either way, so "served" means the loader has
    read the whole file. Returns None when the data server is not installed.
    """
    import subprocess
    import urllib.error
    import urllib.request

    if importlib.util.find_spec("tensorboard_data_server") is None:
        return None
    port = _free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "tensorboard.main", "--logdir", logdir, "--port", str(port),
                             "--host", "127.0.0.1", "--load_fast=true", "--reload_interval", "1",
                             f"--samples_per_plugin=scalars={samples}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # a few lines only
    url = f"http://127.0.0.1:{port}/data/plugin/scalars/scalars?run=.&tag=loss&format=json"
    try:
        while time.perf_counter() - t0 < timeout_s:
            try:
                with urllib.request.urlopen(url, timeout=60) as resp:  # keeping all, one answer is 1M points
                    pts = json.loads(resp.read())
                if pts and pts[-1][1] == n - 1:
                    return time.perf_counter() - t0, len(pts)
            except (urllib.error.URLError, OSError, ValueError):
                if proc.poll() is not None:
                    err = proc.stderr.read()[-2000:].decode(errors="replace") if proc.stderr else ""
                    raise RuntimeError(f"tensorboard exited: {err}") from None
            time.sleep(0.25)  # polled four times a second: the figures are good to about 0.25 s
        raise RuntimeError(f"TensorBoard's data server did not serve step {n - 1} within {timeout_s} s")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _time(fn, path, repeat: int):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(path)
        best = min(best, time.perf_counter() - t0)
    return best, out


def measure_render(logdir: str, repeat: int = 3):
    """Seconds from opening /scalars to the loss chart being drawn: (first load, best of ``repeat``), or None.

    The first load has a fresh browser profile (nothing cached); later loads reuse the browser cache.
    """
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        return None
    import logging
    import threading

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from werkzeug.serving import make_server

    from insight_app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no request log in the benchmark output
    app = create_app(logdir)
    srv = make_server("127.0.0.1", 0, app.server, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="insight-bench-chrome-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    check = ("return Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g._fullData && "
             "g._fullData.some(t => t.meta && t.meta.points === arguments[0]))")
    n = len(app.insight_store.sorted_runs()[0].scalars["loss"])
    times = []
    try:
        for _ in range(repeat):
            driver.get("about:blank")
            t0 = time.perf_counter()
            driver.get(f"http://127.0.0.1:{srv.server_port}/scalars")
            while not driver.execute_script(check, n):
                if time.perf_counter() - t0 > 60:
                    raise RuntimeError("the scalars page did not draw within 60 s")
                time.sleep(0.02)
            times.append(time.perf_counter() - t0)
    finally:
        driver.quit()
        srv.shutdown()
    return times[0], min(times)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--points", type=int, default=1_000_000)
    p.add_argument("--repeat", type=int, default=5, help="best of R for insight_app (the others run once)")
    p.add_argument("--tb", choices=["both", "accumulator", "file_loader", "none"], default="both",
                   help="which TensorBoard Python loaders to time (default both)")
    p.add_argument("--render", action="store_true", help="also time the scalars page in headless Chromium")
    p.add_argument("--no-rust", dest="rust", action="store_false",
                   help="skip TensorBoard's Rust data server (tensorboard --load_fast=true), timed by default")
    args = p.parse_args(argv)
    import insight_app  # noqa: F401 -- imported before timing: the loaders are timed, not the imports

    with tempfile.TemporaryDirectory(prefix="insight-bench-") as tmp:
        run_dir = os.path.join(tmp, "run")
        os.makedirs(run_dir)
        path = os.path.join(run_dir, "events.out.tfevents.1700000000.bench")
        t0 = time.perf_counter()
        truth = write_scalar_file(path, args.points)
        write_s = time.perf_counter() - t0
        res = {"benchmark": "insight_loader", "points": args.points,
               "file_mb": round(os.path.getsize(path) / 1e6, 1), "write_s": round(write_s, 2)}
        rows = []

        ours, (steps, vals) = _time(load_insight, path, args.repeat)
        assert np.array_equal(vals, truth.astype(np.float64)) and np.array_equal(steps, np.arange(args.points))
        rows.append(("insight_app (numpy framing, CRC-32C, vectorised scalar decode)", ours))
        floor, (steps2, vals2) = _time(load_protobuf_loop, path, 1)
        assert np.array_equal(vals2, vals) and np.array_equal(steps2, steps)
        rows.append(("plain loop: google_crc32c + event_pb2 (floor)", floor))
        res.update(insight_s=round(ours, 3), protobuf_loop_s=round(floor, 3),
                   speedup_vs_protobuf_loop=round(floor / ours, 1))

        tb_times = {}
        if args.tb != "none" and importlib.util.find_spec("tensorboard") is None:
            res["tensorboard_skipped"] = "tensorboard is not installed"
        elif args.tb != "none":
            loaders = {"accumulator": ("TensorBoard EventAccumulator", load_tensorboard_accumulator),
                       "file_loader": ("TensorBoard EventFileLoader (its server's path)", load_tensorboard)}
            for key in (["accumulator", "file_loader"] if args.tb == "both" else [args.tb]):
                label, fn = loaders[key]
                sec, (steps3, vals3) = _time(fn, path, 1)
                assert np.array_equal(vals3, vals) and np.array_equal(steps3, steps)
                tb_times[key] = sec
                rows.append((label, sec))
                res[f"tensorboard_{key}_s"] = round(sec, 2)
        if args.rust and importlib.util.find_spec("tensorboard") is not None:
            for samples in ("1000", str(args.points)):
                got = time_tensorboard_rust(run_dir, args.points, samples)
                if got is None:
                    res["tensorboard_rust_skipped"] = "tensorboard-data-server is not installed"
                    break
                key = "1000" if samples == "1000" else "all"
                res[f"tensorboard_rust_{key}_s"] = round(got[0], 2)
                res[f"tensorboard_rust_{key}_points_served"] = got[1]
                rows.append((f"TensorBoard Rust data server, samples={samples} (incl. process start)", got[0]))
            t0 = time.perf_counter()
            load_insight(path)
            res["insight_cold_s"] = round(time.perf_counter() - t0, 3)
        fastest = min(tb_times.values()) if tb_times else None
        res["tensorboard_s"] = None if fastest is None else round(fastest, 2)
        res["speedup_vs_tensorboard"] = None if fastest is None else round(fastest / ours, 1)
        if args.render:
            render = measure_render(tmp)
            res["render_first_s"] = None if render is None else round(render[0], 2)
            res["render_best_s"] = None if render is None else round(render[1], 2)

    print(json.dumps(res))
    print(f"{'loader (' + format(args.points, ',') + ' scalars)':<66}{'seconds':>10}{'x slower':>10}")
    for name, sec in rows:
        print(f"{name:<66}{sec:>10.3f}{sec / ours:>10.1f}")
    if "render_best_s" in res:
        print(f"scalars page with every point loaded, drawn in headless Chromium: first load "
              f"{res['render_first_s']} s, best of 3 {res['render_best_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
