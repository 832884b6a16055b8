"""Record real MindSpore for ``mindspore_hl/_engine/_saved_tensors.py`` and ``mindspore_hl/_device_ctx.py``:
``saved_tensors_hooks`` (gradients with hooks that move or change the saved tensors, how often the hooks ran,
nesting, errors), ``register_saved_tensors_hooks`` (PYNATIVE and ``jit``) and ``DeviceCtx`` (run with the
MindSpore 2.10 interpreter; the scenarios live in ``tests/toplevel_hooks_cases.py``, shared with the test).

    python tools/oracle/record_toplevel_hooks.py   ->  tests/fixtures/oracle/toplevel_hooks.npz
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
from oracle import FixtureWriter  # noqa: E402
from toplevel_hooks_cases import SCENARIOS  # noqa: E402


def main() -> None:
    with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "toplevel_hooks.npz") as w:
        for name, scenario in SCENARIOS.items():
            outputs, meta = scenario(ms)
            w.add(f"toplevel_hooks/{name}", outputs=outputs, name=name, facts=meta)
            print(name, meta, [o.tolist() for o in outputs])


if __name__ == "__main__":
    main()
