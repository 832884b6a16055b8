"""The Dash application: page shell, navigation, live refresh and problem reporting."""

from __future__ import annotations

from collections.abc import Collection, Iterable

import dash
from dash import Input, Output, State, dcc, html, no_update
from flask import Response, request

from . import (
    _page_compare,
    _page_custom,
    _page_distributions,
    _page_histograms,
    _page_images,
    _page_landscape,
    _page_network,
    _page_pr,
    _page_profiler,
    _page_scalars,
    _page_text,
)
from ._export import register_routes
from ._store import LogStore

# The page registry: a page is a module with PATH, TITLE, layout(store) and register(app, store).
# Adding a page is one line here.
PAGES = [
    _page_scalars,
    _page_custom,
    _page_histograms,
    _page_distributions,
    _page_images,
    _page_pr,
    _page_network,
    _page_compare,
    _page_text,
    _page_landscape,
    _page_profiler,
]
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")

_CSS = """
html, body { overflow-x: hidden; }
body { font-family: -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #222; background: #fafafa; }
.insight-header { display: flex; align-items: center; gap: 18px; padding: 8px 16px; background: #24344d;
  color: #fff; }
.insight-header a { color: #cfe0ff; text-decoration: none; font-size: 14px; }
.insight-header a.active { color: #fff; font-weight: bold; border-bottom: 2px solid #f2a541; }
.insight-brand { font-weight: bold; font-size: 15px; }
.insight-logdir { margin-left: auto; font-size: 11px; color: #aab8cf; }
.insight-page { display: flex; gap: 12px; padding: 10px 12px; }
.insight-sidebar { width: 250px; flex: none; font-size: 13px; display: flex; flex-direction: column; gap: 10px; }
.insight-main { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 8px; }
.insight-chart { background: #fff; border: 1px solid #e3e3e3; border-radius: 4px; }
.insight-label { font-weight: 600; display: block; margin-bottom: 2px; }
.insight-note { color: #666; font-size: 12px; }
.insight-runlist { max-height: 320px; overflow-y: auto; overflow-wrap: anywhere; }
.insight-buttons { display: flex; gap: 6px; flex-wrap: wrap; }
.insight-button { border: 1px solid #999; border-radius: 3px; padding: 2px 8px; background: #fff; color: #222;
  text-decoration: none; font-size: 13px; }
.insight-group { font-weight: 600; font-size: 14px; margin: 4px 0; cursor: pointer; }
.insight-grid { border-collapse: collapse; }
.insight-grid td, .insight-grid th { border: 1px solid #e3e3e3; padding: 4px; vertical-align: top; font-size: 12px; }
.insight-markdown { background: #fff; border: 1px solid #e3e3e3; padding: 2px 10px; margin: 2px 0 8px 0; }
.insight-image { max-width: 100%; image-rendering: pixelated; border: 1px solid #ddd; align-self: flex-start;
  min-width: 256px; }
.insight-caption { font-size: 13px; }
.insight-params { border-collapse: collapse; font-size: 12px; margin: 4px 0 6px 18px; }
.insight-params td, .insight-params th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; }
.insight-cell { margin-left: 14px; font-size: 13px; }
.insight-problems { margin: 4px 16px; font-size: 12px; color: #8a4b00; }
.insight-node { font-size: 12px; overflow-wrap: anywhere; }
.insight-text { white-space: pre-wrap; font-size: 12px; background: #fff; border: 1px solid #e3e3e3;
  padding: 6px; margin: 2px 0 8px 0; }
.insight-textblock { font-size: 13px; }
h3 { margin: 6px 0 2px 0; font-size: 15px; }
"""


def _shell(store: LogStore, reload_ms: int) -> html.Div:
    nav = [dcc.Link(p.TITLE, href=p.PATH, id=f"nav-{p.PATH.strip('/')}") for p in PAGES]
    return html.Div([
        dcc.Location(id="url"),
        dcc.Interval(id="insight-poll", interval=reload_ms),
        dcc.Store(id="insight-gen", data=store.generation),
        dcc.Store(id="insight-tz"),
        html.Div([html.Span("mindspore_hl insight", className="insight-brand"), *nav,
                  html.Span(f"logdir: {store.root}", className="insight-logdir")], className="insight-header"),
        html.Details([html.Summary(id="insight-problem-count"), html.Ul(id="insight-problems")],
                     className="insight-problems", id="insight-problem-box"),
        html.Div(id="insight-page"),
    ])


def host_allowed(host_header: str, allowed: Collection[str] | None) -> bool:
    """Whether a request's Host header (name or address, with or without a port) is on the allow-list.

    >>> host_allowed("localhost:8080", LOCAL_HOSTS), host_allowed("[::1]:80", LOCAL_HOSTS)
    (True, True)
    >>> host_allowed("evil.example:8080", LOCAL_HOSTS)
    False
    """
    if allowed is None or "*" in allowed:
        return True
    h = (host_header or "").strip().lower()
    if h.startswith("["):
        name = h[1:h.find("]")] if "]" in h else h[1:]
    else:
        name = h.rsplit(":", 1)[0] if h.count(":") == 1 else h
    return name.rstrip(".") in allowed


def create_app(logdir: str, reload_interval: float = 5.0, store: LogStore | None = None,
               allowed_hosts: Iterable[str] | None = LOCAL_HOSTS) -> dash.Dash:
    """Build the dashboard for the runs under ``logdir``.

    Args:
        logdir: the log root, searched recursively for event files.
        reload_interval: seconds between live-refresh polls from the browser.
        store: an existing LogStore to serve (tests); built from ``logdir`` otherwise.
        allowed_hosts: names a request's Host header may carry (against DNS rebinding); requests
            naming another host get 403. ``None`` or a list holding ``"*"`` turns the check off.
    Returns:
        The Dash app; ``app.insight_store`` is its LogStore.
    """
    store = store or LogStore(logdir, min_refresh_s=min(1.0, reload_interval / 2))
    app = dash.Dash(__name__, suppress_callback_exceptions=True, title="mindspore_hl insight",
                    update_title=None,  # type: ignore[arg-type]  # None (documented) turns the title off
                    serve_locally=True, eager_loading=True)
    app.index_string = app.index_string.replace("{%css%}", "{%css%}<style>" + _CSS + "</style>")
    app.layout = _shell(store, int(reload_interval * 1000))
    app.insight_store = store  # type: ignore[attr-defined]  # the documented handle on the app's LogStore
    allowed = None if allowed_hosts is None else frozenset(h.lower().strip("[]") for h in allowed_hosts)

    @app.server.before_request
    def _check_host():
        if not host_allowed(request.host, allowed):
            return Response(f"Host {request.host[:100]!r} is not allowed (start the dashboard with "
                            "--allowed-hosts to serve it under this name)", status=403, mimetype="text/plain")
        return None

    @app.server.after_request
    def _headers(resp):
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        return resp

    register_routes(app.server, store)
    by_path = {p.PATH: p for p in PAGES}
    # The browser's time zone, for wall-time axes (the server's own zone may differ).
    app.clientside_callback(
        """function(_p) { const o = Intl.DateTimeFormat().resolvedOptions();
                          return {name: o.timeZone || "", offset: -new Date().getTimezoneOffset()}; }""",
        Output("insight-tz", "data"), Input("url", "pathname"))

    @app.callback(Output("insight-page", "children"), *[Output(f"nav-{p.PATH.strip('/')}", "className")
                                                        for p in PAGES],
                  Input("url", "pathname"))
    def _route(pathname):
        page = by_path.get(pathname or "/", _page_scalars)
        content = page.layout(store)
        return (content, *["active" if p is page else "" for p in PAGES])

    @app.callback(Output("insight-gen", "data"), Input("insight-poll", "n_intervals"), State("insight-gen", "data"),
                  prevent_initial_call=True)
    def _poll(_n, gen):
        new = store.refresh()
        return no_update if new == gen else new

    @app.callback(Output("insight-problem-count", "children"), Output("insight-problems", "children"),
                  Output("insight-problem-box", "style"), Input("insight-gen", "data"))
    def _problems(_gen):
        probs = store.problems()
        if not probs:
            return "", [], {"display": "none"}
        items = [html.Li(p) for p in probs[:200]]
        return f"{len(probs)} problem(s) while reading the logs", items, {}

    for page in PAGES:
        page.register(app, store)
    return app
