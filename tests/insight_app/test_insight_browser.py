"""End to end in headless Chromium: every page on tensorboardX logs and on the real MindSpore summary.

Skipped when /usr/bin/chromium or /usr/bin/chromedriver is missing (install them with .ci/browser_deps.sh).
Each page is saved as a PNG in a temporary directory; set ``INSIGHT_SCREENSHOTS=tests/insight_app/screenshots`` to
refresh the committed ones (a test run leaves the working tree as it was).
"""

from __future__ import annotations

import os
import tempfile
import threading
import time

import numpy as np
import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
BROWSER_TZ = "Asia/Kolkata"  # UTC+05:30 all year
SHOTS = os.environ.get("INSIGHT_SCREENSHOTS") or os.path.join(tempfile.gettempdir(), "insight_screenshots")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
                       reason="needs /usr/bin/chromium and /usr/bin/chromedriver (run .ci/browser_deps.sh)"),
]


class Server:
    """The dashboard on 127.0.0.1, a free port, in a thread, behind waitress (the command line's server)."""

    def __init__(self, logdir: str, reload_interval: float = 5.0) -> None:
        import waitress

        from insight_app import create_app

        self.app = create_app(logdir, reload_interval=reload_interval)
        self.srv = waitress.create_server(self.app.server, host="127.0.0.1", port=0, threads=8)
        self.url = f"http://127.0.0.1:{self.srv.effective_port}"
        self.thread = threading.Thread(target=self.srv.run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        # The loop runs while any socket is open, and the browser keeps idle keep-alive connections open until it
        # quits: closing only the listening socket (self.srv.close()) left the join below waiting out its 10 s.
        # The listener, the connections and the wake-up pipe are closed in the server's own thread, between two
        # polls, as waitress's MultiSocketServer.close does for its map.
        from waitress import wasyncore

        self.srv.trigger.pull_trigger(lambda: wasyncore.close_all(self.srv._map))
        self.thread.join(10)


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900", f"--user-data-dir={tmp_path_factory.mktemp('chrome-profile')}"):
        opts.add_argument(flag)
    # The browser runs in another zone than the server (UTC): wall-time axes must follow the browser's.
    d = webdriver.Chrome(service=Service(CHROMEDRIVER, env={**os.environ, "TZ": BROWSER_TZ}), options=opts)
    d.set_page_load_timeout(30)
    yield d
    d.quit()


@pytest.fixture(scope="module")
def server(tbx_logs):
    s = Server(tbx_logs[0])
    yield s
    s.close()


def wait_for(driver, script, timeout=20.0, *args):
    """Poll a JS expression until it returns something truthy; returns it."""
    end = time.monotonic() + timeout
    while True:
        val = driver.execute_script(script, *args)
        if val:
            return val
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for: {script}")
        time.sleep(0.1)


PLOTS_JS = """
return Array.from(document.querySelectorAll('.js-plotly-plot')).filter(g => g._fullData).map(g => ({
  id: g.parentElement && g.parentElement.id || g.id,
  title: g.layout && g.layout.title ? (g.layout.title.text || g.layout.title) : '',
  yaxis: g._fullLayout.yaxis ? g._fullLayout.yaxis.type : null,
  data: g._fullData.map(t => ({name: t.name, type: t.type, meta: t.meta || null,
                               x: t.x ? Array.from(t.x) : null, y: t.y ? Array.from(t.y) : null,
                               text: t.text ? Array.from(t.text) : null,
                               dims: t.dimensions ? t.dimensions.map(d => d.label) : null}))}));
"""


def plots(driver):
    return driver.execute_script(PLOTS_JS)


def plot_titled(driver, title, timeout=20.0):
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).some("
                     "g => g._fullData && g.layout && g.layout.title && g.layout.title.text === arguments[0])",
             timeout, title)
    return next(p for p in plots(driver) if p["title"] == title)


def shot(driver, name):
    os.makedirs(SHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def open_page(driver, url):
    driver.get(url)
    wait_for(driver, "return document.querySelector('#insight-page') && "
                     "document.querySelector('#insight-page').children.length > 0")


def tb_smooth(ys, w):
    """TensorBoard's smoothing, one point at a time (independent of insight_app's vectorised version)."""
    last, n, out = 0.0, 0, []
    for y in ys:
        last = last * w + (1 - w) * y
        n += 1
        out.append(last / (1 - w ** n))
    return np.array(out)


def press(driver, css, *keys):
    el = driver.find_element("css selector", css)
    el.click()
    el.send_keys(*keys)


def pick_option(driver, dropdown_id, label):
    """Open a Dash dropdown and click the option with this label."""
    driver.find_element("css selector", f"#{dropdown_id}").click()
    opt = wait_for(driver, "return Array.from(document.querySelectorAll('[role=option]')).find("
                           "o => o.textContent.trim() === arguments[0])", 10, label)
    opt.click()
    driver.find_element("css selector", "body").send_keys("\ue00c")  # Escape closes the popover


def test_scalars_page_tensorboardx(driver, server, tbx_logs):
    from selenium.webdriver.common.keys import Keys

    truth = tbx_logs[1]["loss"]
    open_page(driver, server.url + "/scalars")
    fig = plot_titled(driver, "train/loss")
    raw = {t["name"]: t for t in fig["data"] if t["meta"]["kind"] == "raw"}
    assert sorted(raw) == ["lr_0.01", "lr_0.1"]
    for name, t in raw.items():  # every point, with the values written
        assert t["x"] == list(range(120))
        np.testing.assert_array_equal(np.array(t["y"]), truth[name].astype(np.float64))
    smooth = {t["name"]: t for t in fig["data"] if t["meta"]["kind"] == "smoothed"}
    np.testing.assert_allclose(smooth["lr_0.1"]["y"], tb_smooth(truth["lr_0.1"].astype(float), 0.6), rtol=1e-9)
    # The smoothed curve is visibly smoother: its step-to-step changes are much smaller.
    assert np.abs(np.diff(smooth["lr_0.1"]["y"])).mean() < 0.5 * np.abs(np.diff(raw["lr_0.1"]["y"])).mean()
    shot(driver, "scalars_tensorboardx")

    press(driver, "#sc-smoothing [role=slider]", Keys.END)  # the slider's maximum: 0.999
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g._fullData && "
                     "g.layout.title.text === 'train/loss' && g._fullData.some(t => t.meta.kind === 'smoothed' && "
                     "Math.abs(t.y[119] - arguments[0]) < 1e-9))", 20,
             float(tb_smooth(truth["lr_0.1"].astype(float), 0.999)[-1]))
    press(driver, "#sc-smoothing [role=slider]", Keys.HOME)  # smoothing off: raw lines only
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).every(g => !g._fullData || "
                     "g._fullData.every(t => t.meta.kind === 'raw'))")

    box = driver.find_element("css selector", "#sc-run-regex")
    box.send_keys("^lr_0\\.01$", Keys.ENTER)
    wait_for(driver, "return document.querySelector('#sc-status').textContent.startsWith('1 runs')")
    fig = plot_titled(driver, "train/loss")
    assert [t["name"] for t in fig["data"]] == ["lr_0.01"]
    assert [e.text for e in driver.find_elements("css selector", "#sc-runs label")] == ["lr_0.01"]
    driver.find_element("css selector", "#sc-logy input").click()
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).some("
                     "g => g._fullLayout && g._fullLayout.yaxis.type === 'log')")
    shot(driver, "scalars_filtered_log")


def test_scalars_page_mindspore_summary(driver, server):
    open_page(driver, server.url + "/scalars")
    fig = plot_titled(driver, "loss/auto")
    (raw,) = [t for t in fig["data"] if t["meta"]["kind"] == "raw"]
    assert raw["name"] == "lenet5_ms" and raw["x"] == [1, 2, 3, 4, 4]
    assert raw["y"][0] == pytest.approx(2.2558029, rel=1e-6) and raw["y"][-1] == pytest.approx(2.289257, rel=1e-6)


def test_histograms_page(driver, server, tbx_logs):
    open_page(driver, server.url + "/histograms")
    fig = plot_titled(driver, "fc1.weight/auto — lenet5_ms")
    assert [t["meta"]["step"] for t in fig["data"]] == [1, 2, 3, 4, 4]
    assert all(t["meta"]["total"] == 48000 for t in fig["data"])  # fc1.weight is 120 x 400
    shot(driver, "histograms_mindspore")
    pick_option(driver, "hi-runs", "lr_0.1")
    fig = plot_titled(driver, "fc1.weight — lr_0.1")
    assert [t["meta"]["step"] for t in fig["data"]] == tbx_logs[1]["hist_steps"]
    # Offset view: each step's ridge sits on its own baseline, later steps lower.
    bases = [min(t["y"]) for t in fig["data"]]
    assert bases == sorted(bases, reverse=True)
    driver.find_element("css selector", "#hi-mode label:nth-child(2) input").click()  # overlay
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g._fullData && "
                     "g.layout.title.text === 'fc1.weight — lr_0.1' && g._fullData.every(t => t.fill !== 'toself'))")
    shot(driver, "histograms_overlay")


GRID_JS = """
return Array.from(document.querySelectorAll('#im-grid img')).filter(i => i.complete && i.naturalWidth).map(i => [
  i.alt, i.naturalWidth, i.naturalHeight, i.closest('tr').firstChild.textContent,
  document.querySelector('#im-grid tr').children[i.closest('td').cellIndex].textContent]);
"""


def test_images_page_grid_across_runs_and_tags(driver, server, tbx_logs):
    from selenium.webdriver.common.keys import Keys

    open_page(driver, server.url + "/images")
    # Default: the first runs and tags, at the newest step; each cell is the latest image at or before it.
    cells = wait_for(driver, "var c = " + GRID_JS.strip()[7:-1] + "; return c.length === 2 ? c : null")
    got = {(row, col): (alt, w, h) for alt, w, h, row, col in cells}
    assert got == {("input", "lr_0.1"): ("input step 80", 32, 24),
                   ("input_data/auto", "lenet5_ms"): ("input_data/auto step 4", 256, 32)}
    assert driver.find_element("css selector", "#im-caption").text == "step 80: 2 images"
    shot(driver, "images_grid")
    press(driver, "#im-step [role=slider]", Keys.HOME)  # step 0: only lr_0.1 has an image that early
    wait_for(driver, "return document.querySelector('#im-caption').textContent.startsWith('step 0:')")
    cells = wait_for(driver, "var c = " + GRID_JS.strip()[7:-1] + "; return c.length ? c : null")
    assert ("input step 0", 32, 24, "input", "lr_0.1") in [tuple(c) for c in cells]


def cy_nodes(driver):
    return driver.execute_script(
        "var e = document.querySelector('#net-graph'); var cy = e && e._cyreg && e._cyreg.cy;"
        "return cy ? cy.nodes().map(n => ({id: n.id(), label: n.data('label'), kind: n.data('kind'),"
        " y: n.position('y'), match: n.hasClass('match')})) : null")


def cy_tap(driver, node_id):
    driver.execute_script("document.querySelector('#net-graph')._cyreg.cy.getElementById(arguments[0]).emit('tap')",
                          node_id)


def test_network_page_mindspore_graph(driver, server):
    open_page(driver, server.url + "/network")
    wait_for(driver, "return document.querySelector('#net-summary').textContent.includes('MindSpore anf_ir graph')")
    summary = driver.find_element("css selector", "#net-summary").text
    assert summary.startswith("MindSpore anf_ir graph: 97 operations")  # 76 ops + 21 parameters
    cells = driver.find_element("css selector", "#net-cells").text
    assert "fc1 — 48,120 parameters" in cells and "conv1 — 150 parameters" in cells
    nodes = wait_for(driver, "var e = document.querySelector('#net-graph'); return e && e._cyreg && "
                             "e._cyreg.cy.nodes().length > 3")
    nodes = cy_nodes(driver)
    labels = {n["label"] for n in nodes}
    # Operations folded under their Cells, named by the Cell path users know.
    assert any(lb.startswith("conv1-Conv2d (") for lb in labels), labels
    assert len(nodes) < 40
    shot(driver, "network_mindspore")
    opt = next(n for n in nodes if n["label"].startswith("optimizer-Momentum"))
    cy_tap(driver, opt["id"])  # open the optimizer: its ApplyMomentum operations appear
    wait_for(driver, "return document.querySelector('#net-graph')._cyreg.cy.nodes().filter("
                     "n => n.data('label') === 'ApplyMomentum').length === 8")
    search = driver.find_element("css selector", "#net-search")
    search.send_keys("fc2", "\n")
    wait_for(driver, "return document.querySelector('#net-summary').textContent.includes(\"match 'fc2'\")")
    matched = [n["label"] for n in cy_nodes(driver) if n["match"]]
    # The fc2 Cell, its parameters' moments, and the Cell whose operations read fc2's parameters; nothing else.
    assert "fc2-Dense (4 ops)" in matched and not any(m.startswith(("conv", "fc1", "fc3")) for m in matched)
    shot(driver, "network_search")
    driver.find_element("css selector", "#net-collapse").click()
    wait_for(driver, "return document.querySelector('#net-graph')._cyreg.cy.nodes().filter("
                     "n => n.data('label') === 'ApplyMomentum').length === 0")


def test_network_page_tensorboardx_graph_is_a_layered_dag(driver, server):
    open_page(driver, server.url + "/network")
    pick_option(driver, "net-run", "lr_0.1")
    wait_for(driver, "return document.querySelector('#net-summary').textContent.includes('TensorBoard GraphDef')")
    cells = driver.find_element("css selector", "#net-cells").text
    assert "LeNet5 (LeNet5) — 48,270 parameters" in cells and "fc1 (Dense) — 48,120 parameters" in cells
    wait_for(driver, "var e = document.querySelector('#net-graph'); return e && e._cyreg && "
                     "e._cyreg.cy.nodes().some(n => n.data('label') === 'fc1 (2 ops)')")
    y = {n["label"]: n["y"] for n in cy_nodes(driver)}
    # dagre ranks top to bottom along the data flow: input, conv1, fc1, loss.
    assert y["input"] < y["conv1 (3 ops)"] < y["fc1 (2 ops)"] < y["loss (1 op)"]
    cy_tap(driver, "conv1")
    wait_for(driver, "return document.querySelector('#net-graph')._cyreg.cy.nodes().some("
                     "n => n.data('label') === 'Conv2D')")
    shot(driver, "network_tensorboardx")


def test_compare_page(driver, server):
    open_page(driver, server.url + "/compare")
    wait_for(driver, "return document.querySelectorAll('#cmp-table td[data-dash-column=run]').length >= 5")
    runs = [e.text for e in driver.find_elements("css selector", "#cmp-table td[data-dash-column=run]")]
    assert runs == ["lenet5_ms", "lr_0.01", "lr_0.1", "sweep/trial_lr0.01", "sweep/trial_lr0.1"]
    headers = driver.find_element("css selector", "#cmp-table").text
    for name in ("optimizer", "learning_rate", "batch_size", "lr", "loss", "hparam/accuracy"):
        assert name in headers
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).find(g => "
                           "g._fullData && g._fullData[0] && g._fullData[0].type === 'parcoords') ? true : null")
    dims = next(p for p in plots(driver) if p["data"] and p["data"][0]["type"] == "parcoords")["data"][0]["dims"]
    assert dims[0] == "run" and "optimizer" in dims and "hparam/accuracy" in dims
    shot(driver, "compare")
    # Sort by the run column, descending (click the sort arrow twice).
    arrow = driver.find_element("css selector", "#cmp-table th[data-dash-column=run] .column-header--sort")
    arrow.click()
    arrow = driver.find_element("css selector", "#cmp-table th[data-dash-column=run] .column-header--sort")
    arrow.click()
    wait_for(driver, "var c = document.querySelectorAll('#cmp-table td[data-dash-column=run]'); "
                     "return c.length && c[0].textContent === 'sweep/trial_lr0.1'")


def test_text_page_renders_markdown_and_never_html(driver, server):
    open_page(driver, server.url + "/text")
    wait_for(driver, "return document.querySelectorAll('.insight-markdown').length >= 2")
    assert driver.execute_script("return Array.from(document.querySelectorAll('.insight-markdown h1')).map("
                                 "h => h.textContent)") == ["Run notes"]
    assert driver.execute_script("return document.querySelector('.insight-markdown strong').textContent") == "bold"
    texts = [e.text for e in driver.find_elements("css selector", ".insight-markdown")]
    assert any("lr <b>not bold</b> & co" in t for t in texts)  # the tag is text, not markup
    assert not driver.execute_script("return document.querySelector('.insight-markdown b')")
    shot(driver, "text_markdown")
    driver.find_element("css selector", "#tx-mode label:nth-child(2) input").click()  # plain text
    wait_for(driver, "return document.querySelectorAll('.insight-text').length >= 2")
    assert "lr <b>not bold</b> & co" in [e.text for e in driver.find_elements("css selector", ".insight-text")]


def test_live_refresh_and_escaping(driver, tmp_path):
    from tensorboardX import SummaryWriter

    hostile = '<img src=x onerror="window.__pwned=1">'
    root = tmp_path / "live"
    with SummaryWriter(str(root / hostile), flush_secs=1) as w:
        w.add_scalar("loss", 1.0, 0)
    live = SummaryWriter(str(root / "training"), flush_secs=1)
    for s in range(5):
        live.add_scalar("loss", 1.0 / (s + 1), s)
    live.flush()
    srv = Server(str(root), reload_interval=1.0)
    try:
        open_page(driver, srv.url + "/scalars")
        plot_titled(driver, "loss")
        labels = [e.text for e in driver.find_elements("css selector", "#sc-runs label")]
        assert hostile in labels  # shown as text
        assert driver.execute_script("return window.__pwned === undefined && !document.querySelector('img[src=x]')")
        legend = driver.execute_script("return Array.from(document.querySelectorAll('.legendtext')).map(e => "
                                       "e.textContent)")
        assert hostile in legend
        for s in range(5, 40):  # training goes on while the page is open
            live.add_scalar("loss", 1.0 / (s + 1), s)
        live.flush()
        wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g._fullData && "
                         "g._fullData.some(t => t.name === 'training' && t.meta.kind === 'raw' && "
                         "t.x.length === 40))", 30)
        fig = plot_titled(driver, "loss")
        (t,) = [t for t in fig["data"] if t["name"] == "training" and t["meta"]["kind"] == "raw"]
        np.testing.assert_allclose(t["y"], [np.float32(1.0 / (s + 1)) for s in range(40)])
        shot(driver, "scalars_live")
    finally:
        live.close()
        srv.close()


@pytest.mark.slow
def test_million_points(driver, tmp_path):
    """1,000,000 points: drawn as about 2,000 per series, spikes kept. Prints the render time."""
    from benchmarks.insight_loader import write_scalar_file

    run = tmp_path / "big" / "run"
    run.mkdir(parents=True)
    values = write_scalar_file(str(run / "events.out.tfevents.1.big"), 1_000_000, spike_at=654_321)
    srv = Server(str(tmp_path / "big"))
    try:
        t0 = time.perf_counter()
        open_page(driver, srv.url + "/scalars")
        fig = plot_titled(driver, "loss", timeout=60)
        elapsed = time.perf_counter() - t0
        raw = next(t for t in fig["data"] if t["meta"]["kind"] == "raw")
        assert raw["meta"]["points"] == 1_000_000 and len(raw["x"]) <= 2000
        assert max(raw["y"]) == float(values.max()) and 654_321 in raw["x"]
        print(f"\n1,000,000-point scalars page rendered in {elapsed:.2f} s")
    finally:
        srv.close()


def _chart_js(title):
    return ("var g = Array.from(document.querySelectorAll('.js-plotly-plot')).find(g => g._fullData && g.layout && "
            f"g.layout.title && g.layout.title.text === '{title}');")


def zoom_to(driver, title, lo, hi, max_points):
    """Zoom a chart the way a mouse drag does (Plotly.relayout fires the same event) and wait for the
    server's answer: the points of the visible range. Repeated if a redraw that was already on its way
    (the page's first refresh) replaced the answer."""
    for _ in range(3):
        driver.execute_script(_chart_js(title) + f"Plotly.relayout(g, {{'xaxis.range': [{lo}, {hi}]}});")
        try:
            wait_for(driver, _chart_js(title) + f"return g._fullData.every(t => t.x.length <= {max_points})", 8)
            time.sleep(0.5)  # the zoom is stored for later redraws by a second callback
            return
        except AssertionError:
            continue
    raise AssertionError(f"{title}: the zoom to [{lo}, {hi}] was not answered")


def test_scalars_typed_smoothing_zoom_kept_local_time_groups_and_pins(driver, server, tbx_logs):
    from selenium.webdriver.common.keys import Keys

    truth = tbx_logs[1]["loss"]["lr_0.1"].astype(float)
    open_page(driver, server.url + "/scalars")
    plot_titled(driver, "train/loss")
    groups = [e.text for e in driver.find_elements("css selector", "#sc-charts summary")]
    assert "eval (1)" in groups and "train (1)" in groups and groups == sorted(groups)  # by tag prefix
    # Zoom with the mouse's API (Plotly.relayout fires the same event as a drag), then change the smoothing
    # by typing a value: the chart is redrawn with the new smoothing and the same x range.
    zoom_to(driver, "train/loss", 20, 60, 43)
    box = driver.find_element("css selector", "#sc-smoothing-num")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("0.95", Keys.ENTER)
    want = float(tb_smooth(truth, 0.95)[60])
    got = wait_for(driver, _chart_js("train/loss") + "if (!g) return null; var t = g._fullData.find(t => "
                   "t.meta.kind === 'smoothed' && t.name === 'lr_0.1'); var i = t ? t.x.indexOf(60) : -1; "
                   "return i >= 0 && Math.abs(t.y[i] - arguments[0]) < 1e-9 ? g._fullLayout.xaxis.range : null",
                   20, want)
    assert got == [20, 60]
    assert driver.execute_script("return document.querySelector('#sc-smoothing [role=slider]')"
                                 ".getAttribute('aria-valuenow')") == "0.95"
    # Pin a tag: it moves to a "pinned" group at the top.
    pick_option(driver, "sc-pinned", "eval/acc")
    wait_for(driver, "return document.querySelector('#sc-charts summary').textContent === 'pinned (1)'")
    # Wall time is the browser's local time, its zone named on the axis.
    driver.find_element("css selector", "#sc-xaxis label:nth-child(3) input").click()
    title = wait_for(driver, _chart_js("train/loss") + "return g && g._fullLayout.xaxis.type === 'date' ? "
                     "g._fullLayout.xaxis.title.text : null")
    assert title in (f"local time ({BROWSER_TZ}, UTC+05:30)", "local time (Asia/Calcutta, UTC+05:30)")  # alias
    fig = plot_titled(driver, "train/loss")
    raw = next(t for t in fig["data"] if t["meta"]["kind"] == "raw" and t["name"] == "lr_0.1")
    assert raw["x"][0].startswith("2023-11-15T03:43:20")  # 1.7e9 s = 2023-11-14 22:13:20 UTC
    shot(driver, "scalars_local_time_pinned")


def test_zoom_survives_a_live_refresh(driver, tmp_path):
    from tensorboardX import SummaryWriter

    live = SummaryWriter(str(tmp_path / "live" / "training"), flush_secs=1)
    for s in range(50):
        live.add_scalar("loss", 1.0 / (s + 1), s)
    live.flush()
    srv = Server(str(tmp_path / "live"), reload_interval=1.0)
    try:
        open_page(driver, srv.url + "/scalars")
        plot_titled(driver, "loss")
        zoom_to(driver, "loss", 5, 15, 13)
        for s in range(50, 80):
            live.add_scalar("loss", 1.0 / (s + 1), s)
        live.flush()
        wait_for(driver, _chart_js("loss") + "return g._fullData.some(t => t.meta.points === 80)", 30)
        assert driver.execute_script(_chart_js("loss") + "return g._fullLayout.xaxis.range") == [5, 15]
    finally:
        live.close()
        srv.close()


def test_distributions_page(driver, server, tbx_logs):
    open_page(driver, server.url + "/distributions")
    pick_option(driver, "di-runs", "lr_0.1")
    fig = plot_titled(driver, "fc1.weight — lr_0.1")
    median = next(t for t in fig["data"] if t["name"] == "median")
    assert median["x"] == tbx_logs[1]["hist_steps"] and median["meta"] == {"bands": 4, "steps": 6}
    want = [np.median(tbx_logs[1]["hist_values"][s]) for s in tbx_logs[1]["hist_steps"]]
    np.testing.assert_allclose(median["y"], want, atol=0.25)  # within a histogram bucket
    assert sum(1 for t in fig["data"] if t.get("name", "").endswith("%")) == 4
    shot(driver, "distributions")


def test_pr_curves_page(driver, server):
    open_page(driver, server.url + "/pr_curves")
    fig = plot_titled(driver, "pr/class0")
    (t,) = fig["data"]
    assert t["meta"]["step"] == 100 and t["x"][0] == 1.0 and len(t["x"]) == 11
    pick_option(driver, "pr-step", "0")
    wait_for(driver, _chart_js("pr/class0") + "return g && g._fullData[0].meta.step === 0")
    shot(driver, "pr_curves")


def test_custom_scalars_page(driver, server):
    open_page(driver, server.url + "/custom_scalars")
    fig = plot_titled(driver, "loss and acc")
    assert sorted(t["name"] for t in fig["data"]) == ["lr_0.01/eval/acc", "lr_0.01/train/loss",
                                                     "lr_0.1/eval/acc", "lr_0.1/train/loss"]
    assert driver.find_element("css selector", "#cs-charts summary").text == "Training"
    shot(driver, "custom_scalars")


def test_bad_files_are_listed_and_the_rest_is_shown(driver, tmp_path):
    from tensorboardX.proto import event_pb2
    from test_insight_bad_files import framed_scalars, lying_header, tb_file

    from insight_app import _msproto, frame

    bad_graph = frame(event_pb2.Event(wall_time=1.7e9, graph_def=b"\x0a\xff\xff\xff\xff\x0f x").SerializeToString())
    tb_file(str(tmp_path / "bad" / "job" / "events.out.tfevents.1.h"),
            [bad_graph, framed_scalars("loss", 30), lying_header(1 << 30), framed_scalars("loss", 30, start=30)])
    lin = _msproto.LineageEvent(wall_time=1.7e9)
    lin.evaluation_lineage.metric = "[" * 5000 + "]" * 5000
    (tmp_path / "bad" / "job" / "events.out.events.summary.1.0.h_lineage").write_bytes(frame(lin.SerializeToString()))
    srv = Server(str(tmp_path / "bad"))
    try:
        driver.get_log("browser")  # drop earlier entries
        open_page(driver, srv.url + "/scalars")
        fig = plot_titled(driver, "loss")
        assert fig["data"][0]["meta"]["points"] == 60 and fig["data"][0]["x"][-1] == 59
        wait_for(driver, "return document.querySelector('#insight-problem-count').textContent === "
                         "'3 problem(s) while reading the logs'")
        driver.find_element("css selector", "#insight-problem-box summary").click()
        items = [e.text for e in driver.find_elements("css selector", "#insight-problems li")]
        assert any("graph_def is not a TensorFlow GraphDef" in i for i in items)
        assert any("declares 1073741824 bytes" in i for i in items)
        assert any("undecodable lineage event" in i for i in items)
        shot(driver, "bad_files_problems")
        open_page(driver, srv.url + "/network")
        wait_for(driver, "return document.querySelector('#net-cells') && "
                         "document.querySelector('#net-cells').textContent.length > 0")
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []
    finally:
        srv.close()
