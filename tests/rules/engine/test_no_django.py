"""The engine, the draws and the prize arithmetic are pure Python: every module under
``rules/engine/``, every ``tournaments/draws*`` module and ``tournaments/prizes/`` import only the
standard library and each other, never Django;
the draws use the engine's cards and seat order only, and the engine never uses the draws.

The modules are discovered from the tree (a new module is checked without editing this file),
and every import is read from the source, function-local ones included: a ``from django...``
inside a function would not show when the module is merely imported."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
#: The pure modules (by name prefix): what they may import besides the standard library.
PURE_PREFIXES = ("rules.engine.", "tournaments.draws", "tournaments.prizes.")


def pure_sources() -> list[Path]:
    engine = sorted((ROOT / "rules" / "engine").rglob("*.py"))
    draws: list[Path] = []
    for path in [*sorted((ROOT / "tournaments").glob("draws*")), ROOT / "tournaments" / "prizes"]:
        draws.extend([path] if path.suffix == ".py" else sorted(path.rglob("*.py")))
    return [p for p in engine + draws if "__pycache__" not in p.parts]


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Every module the source imports, anywhere in it; relative imports made absolute."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package.pop()
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            if node.module:
                names.add(".".join([*base, node.module]))
            else:  # from . import state
                names.update(".".join([*base, alias.name]) for alias in node.names)
    return names


def allowed(name: str) -> bool:
    pure = any(f"{name}.".startswith(prefix) for prefix in PURE_PREFIXES)
    return name.split(".")[0] in sys.stdlib_module_names or pure


def test_every_engine_and_draws_module_is_discovered() -> None:
    names = {module_name(p) for p in pure_sources()}
    assert {"rules.engine.state", "rules.engine.chips", "rules.engine.pots"} <= names
    assert any(name.startswith("tournaments.draws") for name in names)
    assert "tournaments.prizes.deals" in names


def test_the_pure_modules_import_only_the_standard_library_and_each_other() -> None:
    offenders = {
        module_name(path): sorted(name for name in imported_modules(path) if not allowed(name))
        for path in pure_sources()
    }
    assert {module: names for module, names in offenders.items() if names} == {}


#: What the seat draws take from the engine: its cards, its seat order, the input check (and
#: the ``BadInput`` a bad card raises) they share, and the citation ids of the rules the chip
#: race applies (CR-CU, one list of the rules the rulebook must hold).
DRAWS_USE_OF_THE_ENGINE = {
    "rules.engine.cards",
    "rules.engine.seat_order",
    "rules.engine.errors",
    "rules.engine.citations",
}


def test_the_draws_use_the_engines_cards_and_seat_order_and_the_engine_never_the_draws() -> None:
    used: set[str] = set()
    for path in pure_sources():
        names = imported_modules(path)
        if module_name(path).startswith("rules.engine"):
            assert not [n for n in names if n.startswith("tournaments")], path
        else:
            used |= {n for n in names if n.startswith("rules.")}
    assert used <= DRAWS_USE_OF_THE_ENGINE
    assert {"rules.engine.cards", "rules.engine.seat_order"} <= used


def test_a_django_import_anywhere_in_a_module_is_seen(tmp_path: Path) -> None:
    """The check itself: a function-local or relative import is read, not just the top."""
    engine = tmp_path / "rules" / "engine"
    engine.mkdir(parents=True)
    source = engine / "sneaky.py"
    source.write_text(
        "from . import state\n\ndef f():\n    from django.conf import settings\n    return settings\n"
    )
    assert imported_modules(source, tmp_path) == {"rules.engine.state", "django.conf"}
    assert not allowed("django.conf") and allowed("rules.engine.state") and allowed("heapq")


def test_importing_every_pure_module_loads_no_django() -> None:
    modules = sorted({module_name(p) for p in pure_sources()})
    code = (
        f"import sys, {', '.join(modules)}; "
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "assert not loaded, loaded"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_the_engine_package_init_stays_empty() -> None:
    assert (ROOT / "rules" / "engine" / "__init__.py").read_text() == ""
