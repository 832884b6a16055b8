"""Text page: text summaries (tensorboardX ``add_text``) rendered as Markdown, like TensorBoard (raw HTML in
them is shown as text, never run), or verbatim as plain text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dash import Input, Output, dcc, html

from . import _ui

if TYPE_CHECKING:
    import dash
    from dash.development.base_component import Component

    from ._store import LogStore, Snapshot

PATH = "/text"
TITLE = "Text"
MAX_ENTRIES = 50       # newest entries shown per (run, tag)
MAX_CHARS = 20_000     # characters shown per entry


def layout(store: LogStore) -> html.Div:
    controls = _ui.sidebar(
        _ui.labelled("Runs (RE2 regex filter)", dcc.Input(id="tx-run-regex", type="text", debounce=True, value="")),
        _ui.labelled("Tags (RE2 regex filter)", dcc.Input(id="tx-tag-regex", type="text", debounce=True, value="")),
        dcc.RadioItems(id="tx-mode", options=[{"label": "Markdown", "value": "markdown"},
                                              {"label": "plain text", "value": "raw"}], value="markdown",
                       persistence=True, persistence_type="local"),
        _ui.note("", id="tx-status"),
    )
    return html.Div([controls, html.Div(id="tx-list", className="insight-main")], className="insight-page")


def entries(snap: Snapshot, run_regex: str | None, tag_regex: str | None, mode: str = "markdown"
            ) -> tuple[list[Component], str]:
    """Components for every (run, tag) text series, newest first; the text is a child string (escaped)."""
    rrx, err1 = _ui.compile_filter(run_regex)
    trx, err2 = _ui.compile_filter(tag_regex)
    blocks: list[Component] = []
    for run in snap.sorted_runs():
        if rrx is not None and not rrx.search(run.name):
            continue
        for tag in sorted(run.texts):
            if trx is not None and not trx.search(tag):
                continue
            items = run.texts[tag][-MAX_ENTRIES:][::-1]
            body: list[Component] = [
                html.Div([html.Div(f"step {t.step}", className="insight-note"), _body(t.text, mode)]) for t in items]
            blocks.append(html.Details([html.Summary([html.B(tag), f" — {run.name} ({len(run.texts[tag])})"]),
                                        *body], open=True, className="insight-textblock"))
    return blocks, " ".join(e for e in (err1, err2) if e)


def _body(text: str, mode: str):
    text = text[:MAX_CHARS] + ("…" if len(text) > MAX_CHARS else "")
    if mode == "raw":
        return html.Pre(text, className="insight-text")
    # dcc.Markdown shows raw HTML in the text as text (dangerously_allow_html stays False).
    return dcc.Markdown(text, className="insight-markdown", dangerously_allow_html=False, link_target="_blank")


def register(app: dash.Dash, store: LogStore) -> None:
    @app.callback(Output("tx-list", "children"), Output("tx-status", "children"), Input("tx-run-regex", "value"),
                  Input("tx-tag-regex", "value"), Input("tx-mode", "value"), Input("insight-gen", "data"))
    def _list(run_regex, tag_regex, mode, _gen):
        blocks, err = entries(store.snapshot(), run_regex, tag_regex, mode)
        status = f"{len(blocks)} text series" + (f"; {err}" if err else "")
        return blocks or [_ui.note("No text summaries.")], status
