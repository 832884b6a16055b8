"""How much of MindSpore 2.10's user-facing API mindspore_hl provides, per namespace.

Reads ``names.json`` (every public name of real MindSpore 2.10, enumerated from the real install) and checks
which of them resolve on ``mindspore_hl``. "User-facing" leaves out sparse names (``coo_``, ``csr_``,
``sparse_``, ``COO``/``CSR``/``Sparse`` classes), the ``scalar_``/``tuple_``/``list_``/``sequence_`` helpers
and in-place ``name_`` variants (except the common in-place Tensor methods in ``INPLACE_KEPT``).

    python -m benchmarks.api_coverage [--names PATH] [--missing NAMESPACE] [--dump-names OUT.json]
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pathlib
from typing import Any, Iterable

#: Where names.json is looked for, first match wins (``--names`` or ``MS_API_NAMES`` override). The copy under
#: tests/fixtures lets a clone anywhere run the coverage test.
NAMES_CANDIDATES = ("../shared/reference/mindspore_api_2.10/names.json",
                    "reference/mindspore_api_2.10/names.json",
                    "tests/fixtures/mindspore/api_names_2.10.json")

#: In-place Tensor methods that scripts use often enough to count (and to be provided).
INPLACE_KEPT = frozenset({"masked_fill_", "zero_", "fill_", "copy_", "add_", "sub_", "mul_", "div_", "clamp_",
                          "uniform_", "normal_", "fill_diagonal_", "index_fill_", "scatter_", "index_add_",
                          "exp_", "floor_", "sqrt_", "abs_", "neg_", "clip_", "tanh_", "sigmoid_", "relu_"})

_SKIP_PREFIXES = ("coo_", "csr_", "sparse_", "scalar_", "tuple_", "list_", "sequence_")
_SKIP_CLASS_PREFIXES = ("COO", "CSR", "Sparse", "Scalar", "Tuple", "List", "Sequence")

#: namespace in names.json -> (module path on mindspore_hl, attribute holding the names or None, kind filter)
NAMESPACES: dict[str, tuple[str, str | None, str | None]] = {
    "mindspore": ("mindspore_hl", None, None),
    "mindspore.ops functions": ("mindspore_hl.ops", None, "function"),
    "mindspore.ops primitives": ("mindspore_hl.ops", None, "class"),
    "mindspore.Tensor methods": ("mindspore_hl", "Tensor", None),
    "mindspore.Parameter methods": ("mindspore_hl", "Parameter", None),
    "mindspore.numpy": ("mindspore_hl.numpy", None, None),
    "mindspore.mint": ("mindspore_hl.mint", None, None),
    "mindspore.mint.nn.functional": ("mindspore_hl.mint.nn.functional", None, None),
    "mindspore.mint.nn": ("mindspore_hl.mint.nn", None, None),
    "mindspore.mint.optim": ("mindspore_hl.mint.optim", None, None),
    "mindspore.nn (all)": ("mindspore_hl.nn", None, None),
    "mindspore.nn.Cell methods": ("mindspore_hl.nn", "Cell", None),
    "mindspore.nn.probability": ("mindspore_hl.nn.probability", None, None),
    "mindspore.amp": ("mindspore_hl.amp", None, None),
    "mindspore.communication": ("mindspore_hl.communication", None, None),
    "mindspore.train (all)": ("mindspore_hl.train", None, None),
    "mindspore.train.Model methods": ("mindspore_hl", "Model", None),
    "mindspore.experimental.optim": ("mindspore_hl.experimental.optim", None, None),
    "mindspore.dataset": ("mindspore_hl.dataset", None, None),
    "mindspore.dataset.Dataset methods": ("mindspore_hl.dataset", "Dataset", None),
    "mindspore.dataset.transforms": ("mindspore_hl.dataset.transforms", None, None),
    "mindspore.dataset.vision": ("mindspore_hl.dataset.vision", None, None),
    "mindspore.dataset.text": ("mindspore_hl.dataset.text", None, None),
    "mindspore.dataset.audio": ("mindspore_hl.dataset.audio", None, None),
    "mindspore.profiler": ("mindspore_hl.profiler", None, None),
    "mindspore.scipy": ("mindspore_hl.scipy", None, None),
}


def find_names_json(explicit: str | None = None) -> pathlib.Path:
    """The names.json to read: ``explicit``, ``$MS_API_NAMES``, or the reference copy beside the repository."""
    root = pathlib.Path(__file__).resolve().parent.parent
    for cand in [explicit, os.environ.get("MS_API_NAMES")] + [str(root / c) for c in NAMES_CANDIDATES]:
        if cand and pathlib.Path(cand).is_file():
            return pathlib.Path(cand)
    raise FileNotFoundError(f"api_coverage: names.json not found (tried --names, $MS_API_NAMES, {NAMES_CANDIDATES})")


def user_facing(namespace: str, names: Iterable[str]) -> list[str]:
    """The names of ``namespace`` that count: no sparse/scalar/sequence helpers, no in-place ``name_``."""
    out = []
    for raw in names:
        name = raw.split("@", 1)[0]
        leaf = name.rsplit(".", 1)[-1]
        if leaf.startswith("_") or leaf.startswith(_SKIP_PREFIXES) or leaf.startswith(_SKIP_CLASS_PREFIXES):
            continue
        if leaf.endswith("_") and not (namespace == "mindspore.Tensor methods" and leaf in INPLACE_KEPT):
            continue
        out.append(name)
    return sorted(set(out))


def _resolve(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _subclasses(cls: type) -> list[type]:
    out: list[type] = []
    sub: type
    for sub in cls.__subclasses__():
        out += [sub] + _subclasses(sub)
    return out


# Namespaces listing the union of a class family's methods (names.json enumerates MindSpore's Dataset methods over
# its subclasses: MappableDataset.add_sampler, GeneratorDataset.collate_fn, ...): a name counts when the class or
# one of its subclasses has it.
CLASS_FAMILIES = {"mindspore.dataset.Dataset methods"}


def present(namespace: str, name: str) -> bool:
    """Whether ``name`` of ``namespace`` exists on mindspore_hl (and is of the right kind for ops)."""
    module, attr, kind = NAMESPACES[namespace]
    try:
        obj = importlib.import_module(module)
        if attr:
            obj = getattr(obj, attr)
    except (ImportError, AttributeError):
        return False
    owners: list[Any] = [obj]
    if namespace in CLASS_FAMILIES and isinstance(obj, type):
        owners += _subclasses(obj)
    for owner in owners:
        try:
            value = _resolve(owner, name)
            break
        except AttributeError:
            continue
    else:
        return False
    if kind == "class":
        return inspect.isclass(value)
    if kind == "function":
        return callable(value) and not inspect.isclass(value)
    return True


def coverage(names_json: pathlib.Path | None = None) -> dict[str, dict[str, list[str]]]:
    """``{namespace: {"present": [...], "missing": [...]}}`` over the user-facing names of each namespace."""
    with open(names_json or find_names_json()) as f:
        all_names = json.load(f)
    report = {}
    for namespace in NAMESPACES:
        names = user_facing(namespace, all_names.get(namespace, []))
        have = [n for n in names if present(namespace, n)]
        report[namespace] = {"present": have, "missing": [n for n in names if n not in set(have)]}
    return report


def format_report(report: dict[str, dict[str, list[str]]]) -> str:
    lines = [f"{'namespace':36s} {'present':>8s} {'total':>6s} {'pct':>6s}"]
    for ns, r in report.items():
        n, total = len(r["present"]), len(r["present"]) + len(r["missing"])
        pct = 100.0 * n / total if total else 100.0
        lines.append(f"{ns:36s} {n:8d} {total:6d} {pct:5.1f}%")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", help="path of names.json")
    parser.add_argument("--missing", help="also list the missing names of this namespace")
    parser.add_argument("--dump-names", help="write {'user': {namespace: [user-facing names]}} to this JSON file")
    args = parser.parse_args(argv)
    report = coverage(find_names_json(args.names))
    if args.dump_names:
        with open(args.dump_names, "w") as f:
            json.dump({"user": {ns: r["present"] + r["missing"] for ns, r in report.items()}}, f)
    print(format_report(report))
    if args.missing:
        print("\nmissing in", args.missing + ":", " ".join(report[args.missing]["missing"]))


if __name__ == "__main__":
    main()
