"""Every module has its layer: the import-linter contract (pyproject.toml, README "What is
where") checks only the modules it names, so a module missing from it could import anything.
CI runs the contract itself (``lint-imports`` in ``.ci/run``)."""

from __future__ import annotations

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
