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


def layers() -> list[set[str]]:
    """The project's layers, top first: the layers contract over the whole project (the other
    one orders the modules inside each floor package)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [
        c for c in config["contracts"] if c["type"] == "layers" and "containers" not in c
    ]
    return [
        {name.strip().strip("()") for name in re.split(r"[|:]", layer) if name.strip()}
        for layer in contract["layers"]
    ]


def layered_modules() -> set[str]:
    return set().union(*layers())


def layer_of(module: str) -> int:
    """The layer a module is in, counted from the bottom (1: pure Python)."""
    all_layers = layers()
    for number, layer in enumerate(all_layers):
        if any(module == name or module.startswith(name + ".") for name in layer):
            return len(all_layers) - number
    raise LookupError(f"{module} is in no layer")


def project_modules() -> set[str]:
    modules = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                if not path.read_text().strip():
                    continue  # a package that only holds modules: each has its own layer
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


def test_no_import_circle() -> None:
    """No module imports itself through others (functions' imports counted like any other):
    the import graph has no strongly connected part of more than one module."""
    import grimp

    graph = grimp.build_graph(*PACKAGES)
    imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for imported in imports[module]:
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            part = []
            while (top := stack.pop()) != module:
                on_stack.discard(top)
                part.append(top)
            on_stack.discard(module)
            if part:
                circles.append(sorted([module, *part]))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    assert not circles, f"Import circles: {circles}"


def test_no_foreign_key_points_up_the_layers() -> None:
    """A model's relation (a foreign key, one-to-one or many-to-many, written as a string or a
    class) points at a model in its own layer or below: the layers hold for the database too,
    and an app's migrations never depend on an app above it."""
    from django.apps import apps

    upward = []
    for model in apps.get_models():
        if not model.__module__.startswith(PACKAGES):
            continue
        for field in model._meta.get_fields(include_hidden=True):
            if not field.is_relation or field.auto_created or field.related_model is None:
                continue
            target = field.related_model.__module__
            if target.startswith(PACKAGES) and layer_of(target) > layer_of(model.__module__):
                upward.append(
                    f"{model._meta.label}.{field.name} -> {field.related_model._meta.label}"
                )
    assert not upward, f"Relations pointing up the layers: {upward}"


#: Migrations written while a ruling pointed at its tournament: they describe that history and
#: keep their dependency; the link is now the tournaments' own (``tournaments.RulingTournament``).
HISTORICAL_UPWARD = {
    ("cardroom", "0008_ruling_tournament"),
    ("cardroom", "0010_audit_fields_and_choice_checks"),
}


def test_the_migrations_of_a_lower_app_never_depend_on_a_higher_one() -> None:
    from django.db.migrations.loader import MigrationLoader

    rank = {"rules": 3, "cardroom": 4, "tournaments": 5}
    loader = MigrationLoader(None, ignore_no_migrations=True)
    upward = [
        f"{app}.{name} -> {dep_app}.{dep_name}"
        for (app, name), migration in loader.disk_migrations.items()
        if app in rank and (app, name) not in HISTORICAL_UPWARD
        for dep_app, dep_name in migration.dependencies
        if dep_app in rank and rank[dep_app] > rank[app]
    ]
    assert not upward, f"Migrations depending on an app above: {upward}"


def test_every_task_is_named_once_in_its_own_package_and_every_name_sent_is_registered() -> None:
    """Services queue tasks and the beat sends them by name, never importing them: each name
    is a constant its own package declares (``tournaments.scheduling``,
    ``cardroom.waitlists.schedule``, ``cardroom.celery``), so no name points up the layers, and
    every name sent is a task the worker has."""
    from cardroom.celery import app
    from cardroom.waitlists import schedule
    from tournaments import scheduling

    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    sent = [entry["task"] for entry in app.conf.beat_schedule.values()]
    sent += [scheduling.CHECK_BALANCE, scheduling.ADVANCE_CLOCK, scheduling.ADVANCE_CLOCKS]
    sent += [schedule.OFFERS.task, schedule.OFFERS.sweep]  # a deadline's task and its sweep
    assert set(sent) <= set(ours), f"Sent but not registered: {set(sent) - set(ours)}"
    texts = {m: p.read_text() for m, p in module_files().items() if not m.startswith("tests")}
    for name, task in ours.items():
        package = task.__module__.rpartition(".")[0]
        written = sorted(m for m, text in texts.items() if f'"{name}"' in text)
        assert len(written) == 1, f"{name} is written in {written}: declare it once"
        assert written[0].rpartition(".")[0] == package, (
            f"{name} ({task.__module__}) is declared in {written[0]}, outside its package"
        )
