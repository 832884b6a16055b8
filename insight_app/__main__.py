"""Command line: ``mindspore-hl-insight --logdir DIR [--host 127.0.0.1] [--port 8080]``."""

from __future__ import annotations

import argparse
import ipaddress
import sys


def parse_args(argv=None) -> argparse.Namespace:
    """Parse the command line."""
    p = argparse.ArgumentParser(prog="mindspore-hl-insight",
                                description="Training dashboard for TensorBoard event files and MindSpore "
                                            "summaries (scalars, histograms, images, network, run comparison).")
    p.add_argument("--logdir", required=True, help="log root; every directory under it holding event files is a run")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; other hosts expose the logs without authentication)")
    p.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    p.add_argument("--reload-interval", type=float, default=5.0,
                   help="seconds between checks for new data while training (default 5)")
    return p.parse_args(argv)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv=None) -> int:
    """Run the dashboard server until interrupted."""
    args = parse_args(argv)
    from ._app import create_app

    try:
        app = create_app(args.logdir, reload_interval=max(args.reload_interval, 0.5))
    except FileNotFoundError as exc:
        print(f"mindspore-hl-insight: {exc}", file=sys.stderr)
        return 2
    if not _is_loopback(args.host):
        print(f"WARNING: binding {args.host}: anyone who can reach this address can read the logs "
              "(there is no authentication).", file=sys.stderr)
    store = app.insight_store
    print(f"mindspore-hl-insight: {len(store.runs)} runs under {store.root}; "
          f"open http://{args.host}:{args.port}/", flush=True)
    app.run(host=args.host, port=args.port, debug=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
