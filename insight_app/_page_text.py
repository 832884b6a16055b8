"""Text page: text summaries (tensorboardX ``add_text``), shown verbatim as plain text, never as HTML."""

from __future__ import annotations

from dash import Input, Output, dcc, html

from . import _ui

PATH = "/text"
TITLE = "Text"
MAX_ENTRIES = 50       # newest entries shown per (run, tag)
MAX_CHARS = 20_000     # characters shown per entry


def layout(store) -> html.Div:
    controls = _ui.sidebar(
        _ui.labelled("Runs (regex filter)", dcc.Input(id="tx-run-regex", type="text", debounce=True, value="")),
        _ui.labelled("Tags (regex filter)", dcc.Input(id="tx-tag-regex", type="text", debounce=True, value="")),
        _ui.note("", id="tx-status"),
    )
    return html.Div([controls, html.Div(id="tx-list", className="insight-main")], className="insight-page")


def entries(store, run_regex: str, tag_regex: str):
    """Components for every (run, tag) text series, newest first; the text is a child string (escaped)."""
    rrx, err1 = _ui.compile_filter(run_regex)
    trx, err2 = _ui.compile_filter(tag_regex)
    blocks = []
    for run in store.sorted_runs():
        if rrx is not None and not rrx.search(run.name):
            continue
        for tag in sorted(run.texts):
            if trx is not None and not trx.search(tag):
                continue
            items = run.texts[tag][-MAX_ENTRIES:][::-1]
            body = [html.Div([html.Div(f"step {t.step}", className="insight-note"),
                              html.Pre(t.text[:MAX_CHARS] + ("…" if len(t.text) > MAX_CHARS else ""),
                                       className="insight-text")]) for t in items]
            blocks.append(html.Details([html.Summary([html.B(tag), f" — {run.name} ({len(run.texts[tag])})"])]
                                       + body, open=True, className="insight-textblock"))
    return blocks, " ".join(e for e in (err1, err2) if e)


def register(app, store) -> None:
    @app.callback(Output("tx-list", "children"), Output("tx-status", "children"), Input("tx-run-regex", "value"),
                  Input("tx-tag-regex", "value"), Input("insight-gen", "data"))
    def _list(run_regex, tag_regex, _gen):
        with store.lock:
            blocks, err = entries(store, run_regex, tag_regex)
        status = f"{len(blocks)} text series" + (f"; {err}" if err else "")
        return blocks or [_ui.note("No text summaries.")], status
