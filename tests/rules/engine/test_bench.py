"""The engine benchmark runs and reports its figures (a few hands: a smoke test, no timing)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_engine.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engine", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_engine", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_returns_its_figures_for_the_collector() -> None:
    bench = load_bench()
    result = bench.run(hands=12, seed=1, repeats=1)
    assert result["hands_generated"] == 12 and result["actions"] > 0
    assert result["engine_us_per_action"] > 0 and result["engine_us_per_options"] > 0
    assert result["engine_us_per_evaluate_median"] > 0 and result["engine_us_per_award_mean"] > 0
    assert result["award_requests"] == result["hands"]
    if result["pokerkit_version"] is not None:
        assert result["speedup_per_action"] > 0 and result["speedup_per_evaluate"] > 0
        assert result["pokerkit_us_per_action_median"] > 0
    table = bench.table(result)
    assert "us per action applied, median" in table and "us per evaluate, mean" in table
    assert "Inside the clock:" in table and "award" in table


def test_pokerkit_is_timed_with_betting_only_automation() -> None:
    bench = load_bench()
    pk = bench.pokerkit_module()
    if pk is None:
        return
    automations = set(bench.pokerkit_automations(pk, betting_only=True))
    dealing_or_showdown = {
        pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING,
        pk.Automation.BOARD_DEALING,
        pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING,
        pk.Automation.CHIPS_PUSHING,
    }
    assert automations and not automations & dealing_or_showdown
