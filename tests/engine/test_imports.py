"""Imports run one way: no import cycle in mindspore_hl outside dataset/'s fluent API, and every module
imports alone in a fresh interpreter.

The static graph is built with ``ast`` from every ``import`` / ``from ... import`` of a module, at any depth
(a function-level import is an edge too: deferring an import does not remove the dependency), except imports
under ``if TYPE_CHECKING:``, which only the type checker runs. ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, else to ``pkg``.
"""
import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PKG = ROOT / "mindspore_hl"
# dataset/'s fluent API (Dataset.map() returns a MapDataset that is a Dataset) is allowed its own circle.
ALLOWED_PREFIX = "mindspore_hl.dataset."
KNOWN: set = set()  # cycles accepted for now (none)


def _modules():
    mods = {}
    for path in PKG.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return mods


def _targets(module, is_pkg, node, mods):
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.startswith("mindspore_hl")]
    if node.level:
        base = module.split(".") if is_pkg else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
        if not target.startswith("mindspore_hl"):
            return []
    return [f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target for a in node.names]


def _type_checking_only(tree):
    """The import nodes inside ``if TYPE_CHECKING:`` blocks."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def import_graph():
    """``{module: {imported mindspore_hl modules}}`` of the package's source."""
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        edges = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges.update(t for t in _targets(name, path.name == "__init__.py", node, mods) if t in mods)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph):
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def test_cycle_finder_finds_a_planted_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_outside_dataset():
    found = [sorted(c) for c in cycles(import_graph())
             if not all(m.startswith(ALLOWED_PREFIX) for m in c) and frozenset(c) not in KNOWN]
    assert not found, f"import cycles: {found}"


def test_every_module_imports_alone_in_a_fresh_interpreter():
    """Importing ``mindspore_hl.x.y`` in a fresh interpreter runs ``mindspore_hl/__init__`` first (always the same
    code), then the packages on the way and the module. So one fresh process imports the package once, and
    imports each module the package did not already load from that same state (the package's modules those
    imports loaded are dropped again before the next one; third-party ones stay, as C extensions cannot be
    loaded twice): what a fresh interpreter per module would do."""
    names = sorted(n for n in _modules() if not n.endswith("__main__"))
    script = (
        "import importlib, sys\n"
        "import mindspore_hl\n"
        "base = set(sys.modules)\n"
        "failed = []\n"
        f"for name in {names!r}:\n"
        "    for m in [m for m in sys.modules if m.startswith('mindspore_hl.') and m not in base]:\n"
        "        del sys.modules[m]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as e:\n"
        "        failed.append(f'{name}: {type(e).__name__}: {e}')\n"
        "print('\\n'.join(failed))\n"
        "sys.exit(1 if failed else 0)\n")
    res = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-4000:]


def test_import_starts_no_jax_backend():
    """``communication.init()`` and ``set_device`` must run before JAX's backend starts, so ``import mindspore_hl``
    may not start it (no arrays, devices or computations at import time)."""
    script = ("import sys\n"
              "from jax._src import xla_bridge\n"
              "import mindspore_hl\n"
              "print(len(xla_bridge._backends), 'scipy.signal' in sys.modules, 'torch' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    backends, scipy_signal, torch = out.stdout.split()[-3:]
    assert backends == "0", "importing mindspore_hl started a JAX backend"
    # Imports that cost most of a second load on first use (dataset.audio, SummaryRecord), not with the package.
    assert (scipy_signal, torch) == ("False", "False")
