"""Command line: ``mindspore-hl-insight --logdir DIR [--host 127.0.0.1] [--port 8080]``."""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from collections.abc import Sequence

import waitress

from ._app import create_app


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
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
    p.add_argument("--allowed-hosts", default=None,
                   help="comma-separated names the Host header may carry (default: localhost names, plus --host "
                        "and, when --host is a wildcard address, this machine's name and addresses); '*' allows any")
    p.add_argument("--threads", type=int, default=16, help="server threads (default 16)")
    p.add_argument("--dev-server", action="store_true",
                   help="use Flask's development server instead of waitress (for debugging only)")
    return p.parse_args(argv)


def allowed_hosts(host: str, option: str | None) -> list[str]:
    """The Host-header allow-list for a bind address and the --allowed-hosts option."""
    if option:
        return [h.strip() for h in option.split(",") if h.strip()]
    names = ["localhost", "127.0.0.1", "::1"]
    if host in ("0.0.0.0", "::", ""):
        name = socket.gethostname()
        names += [name, socket.getfqdn()]
        try:
            names += socket.gethostbyname_ex(name)[2]
        except OSError:
            pass
    else:
        names.append(host)
    return sorted(set(names))


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the dashboard server until interrupted."""
    args = parse_args(argv)
    hosts = allowed_hosts(args.host, args.allowed_hosts)
    try:
        app = create_app(args.logdir, reload_interval=max(args.reload_interval, 0.5), allowed_hosts=hosts)
    except FileNotFoundError as exc:
        print(f"mindspore-hl-insight: {exc}", file=sys.stderr)
        return 2
    if not _is_loopback(args.host):
        print(f"WARNING: binding {args.host}: anyone who can reach this address can read the logs "
              "(there is no authentication).", file=sys.stderr)
    store = app.insight_store
    print(f"mindspore-hl-insight: {len(store.runs)} runs under {store.root}; "
          f"open http://{args.host}:{args.port}/", flush=True)
    if not _is_loopback(args.host):
        print(f"Host names accepted: {', '.join(hosts)}", file=sys.stderr)
    if args.dev_server:
        app.run(host=args.host, port=args.port, debug=False)
    else:
        # waitress: a production WSGI server (a thread pool; requests are not serialised).
        waitress.serve(app.server, host=args.host, port=args.port, threads=max(args.threads, 1),
                       ident="mindspore-hl-insight", channel_timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
