"""Load: concurrent browser-like clients against the real command line server (waitress) over one run of
1,000,000 scalar points, on loopback.

Each client is one open dashboard tab: it polls for new data, re-renders the scalars page with another
smoothing value, and zooms to a random range (re-decimated on the server), with ``THINK_S`` between
requests -- far busier than a person (a tab polls every 5 s). Latency is measured per request.

    python tests/insight_app/test_insight_load.py [--clients 20] [--seconds 30] [--points 1000000]

prints one JSON line. The slow test runs it with the figures of the issue (20 clients, 30 s).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
THINK_S = 0.2


def _payload(output, outputs, inputs, state=(), changed=None):
    return json.dumps({"output": output, "outputs": outputs,
                       "inputs": [{"id": i, "property": p, "value": v} for i, p, v in inputs],
                       "state": [{"id": i, "property": p, "value": v} for i, p, v in state],
                       "changedPropIds": changed or [f"{inputs[0][0]}.{inputs[0][1]}"]}).encode()


def requests_for(rid: str, n_points: int, rng: random.Random):
    """The three kinds of request a dashboard tab sends: (kind, body)."""
    poll = _payload("insight-gen.data", {"id": "insight-gen", "property": "data"},
                    [("insight-poll", "n_intervals", rng.randrange(1000))], [("insight-gen", "data", 1)])
    w = rng.choice([0.0, 0.6, 0.9, 0.95])
    charts = _payload("..sc-charts.children...sc-status.children..",
                      [{"id": "sc-charts", "property": "children"}, {"id": "sc-status", "property": "children"}],
                      [("sc-runs", "value", [rid]), ("sc-run-regex", "value", ""), ("sc-tag-regex", "value", ""),
                       ("sc-smoothing", "value", w), ("sc-xaxis", "value", "step"), ("sc-logy", "value", []),
                       ("sc-pinned", "value", []), ("insight-gen", "data", 1), ("insight-tz", "data", None)],
                      [("sc-zoom", "data", {})], changed=["sc-smoothing.value"])
    lo = rng.randrange(n_points - 10)
    hi = lo + rng.choice([100, 10_000, 200_000])
    gid = {"tag": "loss", "type": "sc-graph"}
    zoom = _payload('{"tag":["MATCH"],"type":"sc-graph"}.figure', {"id": gid, "property": "figure"},
                    [(gid, "relayoutData", {"xaxis.range[0]": lo, "xaxis.range[1]": hi})],
                    [(gid, "id", gid), ("sc-runs", "value", [rid]), ("sc-run-regex", "value", ""),
                     ("sc-smoothing", "value", w), ("sc-xaxis", "value", "step"), ("sc-logy", "value", []),
                     ("insight-tz", "data", None)], changed=['{"tag":"loss","type":"sc-graph"}.relayoutData'])
    return [("poll", poll), ("charts", charts), ("zoom", zoom)]


def _client(port, rid, n_points, deadline, seed, out, errors):
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    k = 0
    while time.monotonic() < deadline:
        kind, body = requests_for(rid, n_points, rng)[[0, 1, 0, 2][k % 4]]
        k += 1
        t0 = time.perf_counter()
        try:
            conn.request("POST", "/_dash-update-component", body, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            if resp.status not in (200, 204):
                errors.append(f"{kind}: HTTP {resp.status}")
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{kind}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        out.append((kind, time.perf_counter() - t0))
        time.sleep(THINK_S)
    conn.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_load(points: int = 1_000_000, clients: int = 20, seconds: float = 30.0) -> dict:
    """Start ``mindspore-hl-insight`` on a fresh log, drive it with ``clients`` tabs; latency figures."""
    sys.path.insert(0, ROOT)
    from benchmarks.insight_loader import write_scalar_file

    with tempfile.TemporaryDirectory(prefix="insight-load-") as tmp:
        os.makedirs(os.path.join(tmp, "run"))
        write_scalar_file(os.path.join(tmp, "run", "events.out.tfevents.1700000000.load"), points)
        port = _free_port()
        proc = subprocess.Popen([sys.executable, "-m", "insight_app", "--logdir", tmp, "--port", str(port)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            t0 = time.monotonic()
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() - t0 > 120:
                        raise RuntimeError(f"server did not start: {proc.stdout.read()[-2000:]!r}") from None
                    time.sleep(0.1)
            start_s = time.monotonic() - t0
            out, errors = [], []
            deadline = time.monotonic() + seconds
            threads = [threading.Thread(target=_client, args=(port, "r0", points, deadline, i, out, errors))
                       for i in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(seconds + 60)
        finally:
            proc.terminate()
            proc.wait(10)
    lat = np.array([s for _, s in out]) * 1000
    res = {"points": points, "clients": clients, "seconds": seconds, "think_s": THINK_S,
           "server_start_s": round(start_s, 2), "requests": len(out), "errors": len(errors),
           "first_errors": errors[:3], "p50_ms": round(float(np.percentile(lat, 50)), 1),
           "p99_ms": round(float(np.percentile(lat, 99)), 1), "max_ms": round(float(lat.max()), 1)}
    for kind in ("poll", "charts", "zoom"):
        k = np.array([s for c, s in out if c == kind]) * 1000
        if k.size:
            res[f"{kind}_p50_ms"] = round(float(np.percentile(k, 50)), 1)
            res[f"{kind}_p99_ms"] = round(float(np.percentile(k, 99)), 1)
    return res


@pytest.mark.slow
def test_twenty_clients_over_a_million_points():
    res = run_load()
    print(json.dumps(res))
    assert res["errors"] == 0, res["first_errors"]
    assert res["requests"] > 20 * 30  # every client kept going for the whole run
    # The latency goal (p50 < 300 ms, p99 < 1 s) is reported from the printed figures, not asserted:
    # the suite runs on shared machines, where a timing assertion would fail for reasons of its own.


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=1_000_000)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30.0)
    a = ap.parse_args()
    print(json.dumps(run_load(a.points, a.clients, a.seconds)))
