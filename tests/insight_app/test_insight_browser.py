"""End to end in headless Chromium: every page on tensorboardX logs and on the real MindSpore summary.

Skipped when /usr/bin/chromium or /usr/bin/chromedriver is missing (install them with .ci/browser_deps.sh).
Each page is saved as a PNG in tests/insight_app/screenshots/.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screenshots")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
                       reason="needs /usr/bin/chromium and /usr/bin/chromedriver (run .ci/browser_deps.sh)"),
]


class Server:
    """The dashboard on 127.0.0.1, a free port, in a thread."""

    def __init__(self, logdir: str, reload_interval: float = 5.0) -> None:
        from werkzeug.serving import make_server

        from insight_app import create_app

        self.app = create_app(logdir, reload_interval=reload_interval)
        self.srv = make_server("127.0.0.1", 0, self.app.server, threaded=True)
        self.url = f"http://127.0.0.1:{self.srv.server_port}"
        self.thread = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.srv.shutdown()
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
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
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


def _image_state(driver):
    return driver.execute_script(
        "var i = document.querySelector('#im-image'); return i && i.complete && i.naturalWidth ? "
        "[i.naturalWidth, i.naturalHeight, document.querySelector('#im-caption').textContent] : null")


def test_images_page(driver, server, tbx_logs):
    from selenium.webdriver.common.keys import Keys

    open_page(driver, server.url + "/images")
    w, h, caption = wait_for(driver, "var i = document.querySelector('#im-image'); return i && i.complete && "
                                     "i.naturalWidth ? [i.naturalWidth, i.naturalHeight, "
                                     "document.querySelector('#im-caption').textContent] : null")
    assert (w, h) == (256, 32) and "input_data/auto · step 4" in caption and "image 5 of 5" in caption
    shot(driver, "images_mindspore")
    pick_option(driver, "im-run", "lr_0.1")
    wait_for(driver, "return document.querySelector('#im-caption').textContent.includes('step 80')")
    press(driver, "#im-step [role=slider]", Keys.HOME)
    wait_for(driver, "return document.querySelector('#im-caption').textContent.startsWith('input · step 0 ')")
    w, h, _ = wait_for(driver, "var i = document.querySelector('#im-image'); return i.complete && i.naturalWidth "
                               "&& document.querySelector('#im-caption').textContent.includes('step 0 ') ? "
                               "[i.naturalWidth, i.naturalHeight, ''] : null")
    assert (w, h) == (32, 24)
    shot(driver, "images_tensorboardx")


def _graph_labels(driver):
    fig = next(p for p in plots(driver) if p["id"] == "net-graph" or any(
        t.get("meta") and t["meta"].get("kind") in ("op", "scope") for t in p["data"]))
    return {t["meta"]["kind"]: t["text"] for t in fig["data"] if t.get("meta")}


def test_network_page_mindspore_graph(driver, server):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    open_page(driver, server.url + "/network")
    wait_for(driver, "return document.querySelector('#net-summary').textContent.includes('MindSpore anf_ir graph')")
    summary = driver.find_element("css selector", "#net-summary").text
    assert "97 nodes" in summary  # 76 ops of the train step + 21 parameters
    cells = driver.find_element("css selector", "#net-cells").text
    assert "fc1 — 48,120 parameters" in cells and "conv1 — 150 parameters" in cells
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => "
             "g._fullData && g._fullData.some(t => t.meta && t.meta.kind === 'scope'))")
    labels = _graph_labels(driver)
    assert "Conv2D" in labels["op"] and any(s.startswith("optimizer-Momentum") for s in labels["scope"])
    shot(driver, "network_mindspore")
    # Open the optimizer scope by clicking its square (scrolled to the middle of the window first).
    locate = """
        var g = document.querySelector('#net-graph .js-plotly-plot');
        var t = g._fullData.find(t => t.meta && t.meta.kind === 'scope');
        var i = t.text.findIndex(s => s.startsWith('optimizer-Momentum'));
        var xa = g._fullLayout.xaxis, ya = g._fullLayout.yaxis, r = g.getBoundingClientRect();
        return [r.left + xa._offset + xa.l2p(t.x[i]), r.top + ya._offset + ya.l2p(t.y[i])];"""
    x, y = driver.execute_script(locate)
    driver.execute_script("window.scrollBy(0, arguments[0] - window.innerHeight / 2)", y)
    x, y = driver.execute_script(locate)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(int(x), int(y)).pause(0.3).click()
    actions.perform()
    wait_for(driver, "return document.querySelector('#net-summary').textContent.match(/(\\d+) shown/)[1] > 30")
    labels = _graph_labels(driver)
    # One ApplyMomentum per trainable parameter (conv1/conv2 weights, fc1-fc3 weights and biases), now visible.
    assert labels["op"].count("ApplyMomentum") == 8
    driver.find_element("css selector", "#net-collapse").click()
    wait_for(driver, "return document.querySelector('#net-summary').textContent.endsWith('; 2 shown')")
    assert sorted(_graph_labels(driver)["scope"]) == ["Default (76)", "Gradients (21)"]


def test_network_page_tensorboardx_graph_and_cell_tree(driver, server):
    open_page(driver, server.url + "/network")
    pick_option(driver, "net-run", "lr_0.1")
    wait_for(driver, "return document.querySelector('#net-summary').textContent.includes('TensorBoard GraphDef')")
    cells = driver.find_element("css selector", "#net-cells").text
    assert "LeNet5 (LeNet5) — 48,270 parameters" in cells and "fc1 (Dense) — 48,120 parameters" in cells
    wait_for(driver, "return Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g._fullData && "
                     "g._fullData.some(t => t.meta && t.meta.kind === 'op' && t.text.includes('Conv2D')))")
    labels = _graph_labels(driver)
    assert sorted(labels["op"]) == sorted(["Placeholder", "VariableV2", "Conv2D", "Relu", "MatMul", "BiasAdd",
                                           "Mean"])
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


def test_text_page_shows_text_verbatim(driver, server):
    open_page(driver, server.url + "/text")
    wait_for(driver, "return document.querySelectorAll('.insight-text').length >= 2")
    texts = [e.text for e in driver.find_elements("css selector", ".insight-text")]
    assert "lr <b>not bold</b> & co" in texts
    assert not driver.execute_script("return document.querySelector('#tx-list b b, .insight-text b')")
    shot(driver, "text")


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
