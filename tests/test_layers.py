"""Every module has its layer: the import-linter contract (pyproject.toml, README "What is
where") checks only the modules it names, so a module missing from it could import anything.
CI runs the contract itself (``lint-imports`` in ``.ci/run``). And no module, test modules
included, reaches for another module's private names: STYLE.md has them made public where they
belong."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardroom", "rules", "tournaments")


def layered_modules() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return {
        name.strip().strip("()")
        for layer in contract["layers"]
        for name in re.split(r"[|:]", layer)
        if name.strip()
    }


def project_modules() -> set[str]:
    modules = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if len(parts) > 1:
                modules.add(".".join(parts))
    return modules


def test_every_module_is_in_a_layer() -> None:
    layered = layered_modules()
    unplaced = sorted(
        module
        for module in project_modules()
        if not any(module == name or module.startswith(name + ".") for name in layered)
    )
    assert not unplaced, f"Give these modules a layer in pyproject.toml: {', '.join(unplaced)}"


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def module_files() -> dict[str, Path]:
    """Every project module and test module by dotted name."""
    files = {}
    for package in (*PACKAGES, "tests"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def private_names_used_from_elsewhere(
    module: str, tree: ast.Module, modules: set[str]
) -> list[str]:
    """``from a.b import _c``, ``b._c`` on an imported module ``a.b``, and a patch of ``a.b._c``
    (``mock.patch("a.b._c")``, ``mock.patch.object(b, "_c")``) in a module other than ``a.b``."""
    found: list[str] = []
    bound: dict[str, str] = {}  # a local name -> the project module it is
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if node.module in modules and node.module != module and private(alias.name):
                    found.append(f"{module}:{node.lineno} from {node.module} import {alias.name}")
                if f"{node.module}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in modules:
                    bound[alias.asname] = alias.name
                elif not alias.asname:
                    top = alias.name.split(".")[0]
                    if top in modules:
                        bound[top] = top

    def dotted(node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return bound.get(node.id)
        if isinstance(node, ast.Attribute) and (base := dotted(node.value)):
            return f"{base}.{node.attr}"
        return None

    for node in ast.walk(tree):
        target: tuple[str | None, str] | None = None
        if isinstance(node, ast.Attribute) and private(node.attr):
            target = (dotted(node.value), node.attr)
        elif isinstance(node, ast.Call) and node.args:
            first = node.args[0]
            if (
                len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and private(node.args[1].value)
            ):
                target = (dotted(first), node.args[1].value)  # patch.object / getattr / setattr
            elif isinstance(first, ast.Constant) and isinstance(first.value, str):
                owner, _, name = first.value.rpartition(".")
                if owner in modules and private(name):
                    target = (owner, name)  # mock.patch("a.b._c")
        if target and target[0] in modules and target[0] != module:
            found.append(f"{module}:{node.lineno} {target[0]}.{target[1]}")
    return found


def test_no_module_uses_another_modules_private_names() -> None:
    """STYLE.md: a private name is never imported from another module; it is made public in
    the one module where it belongs."""
    files = module_files()
    found = [
        use
        for module, path in sorted(files.items())
        for use in private_names_used_from_elsewhere(
            module, ast.parse(path.read_text()), set(files)
        )
    ]
    assert not found, "Make these names public where they are defined:\n" + "\n".join(found)
