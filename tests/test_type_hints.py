"""Public functions and methods of ``mindspore_hl`` carry type hints: every parameter (but ``self``/``cls``) and
the return (``__init__`` excepted).

"Public" is what users can reach: module-level functions and methods of classes whose names do not start with an
underscore (private modules included: the packages re-export from them).
"""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mindspore_hl"


def _annotated(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    args = fn.args
    params = [p for p in args.posonlyargs + args.args + args.kwonlyargs if p.arg not in ("self", "cls")]
    params += [p for p in (args.vararg, args.kwarg) if p is not None]
    return all(p.annotation is not None for p in params) and (fn.returns is not None or fn.name == "__init__")


def unannotated() -> set[str]:
    """``path::Class.function`` of every public function lacking hints."""
    found = set()

    def visit(path: str, body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                public = not node.name.startswith("_") or node.name == "__init__"
                if public and not _annotated(node):
                    found.add(f"{path}::{prefix}{node.name}")
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                visit(path, node.body, f"{prefix}{node.name}.")

    for file in sorted(PACKAGE.rglob("*.py")):
        visit(file.relative_to(ROOT).as_posix(), ast.parse(file.read_text(encoding="utf-8")).body, "")
    return found


def test_public_functions_have_type_hints():
    missing = sorted(unannotated())
    assert not missing, f"{len(missing)} public functions lack type hints (parameters and return):\n" + \
        "\n".join(missing[:40])
