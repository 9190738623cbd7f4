"""A browser step the tournament tests share: putting out, from the director's table map, a
player who still holds chips. The Out is refused with the count and the two ways out; the
chips are moved (out of play, or to a player) with a reason, and the Out is pressed again."""

from typing import Any

from playwright.sync_api import expect


def put_out_holding_chips(
    page: Any, name: str, *, reason: str = "Lost the last hand away from the desk"
) -> None:
    page.get_by_role("button", name=f"Eliminate {name}", exact=True).click()
    box = page.locator("#chips-out")
    expect(box).to_contain_text(f"{name} still has")
    expect(box).to_contain_text("give them to a player or take them out of play")
    box.get_by_label("Why").fill(reason)
    box.get_by_role("button", name="Move the chips").click()
    expect(page.locator("#table-map")).to_contain_text(f"chips of {name} out of play.")
    # No chips left: the Out asks "Eliminate <name>?" (hx-confirm), the caller's dialog says yes.
    page.get_by_role("button", name=f"Eliminate {name}", exact=True).click()
