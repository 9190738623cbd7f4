"""The engine is pure Python: importing it never loads Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_engine_imports_without_django() -> None:
    code = (
        "import rules.engine.state, rules.engine.pots, rules.engine.config,"
        " rules.engine.errors, rules.engine.citations, sys;"
        " assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_the_engine_package_init_stays_empty() -> None:
    assert (ROOT / "rules" / "engine" / "__init__.py").read_text() == ""
