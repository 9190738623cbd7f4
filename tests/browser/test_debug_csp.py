"""The desk under DEBUG (``make run``'s default): a deal the server refuses outside the form
(404, 500...) leaves the desk on screen with a notice, and the console free of CSP violations.

django-htmx's ``{% htmx_script %}`` adds its debug script under DEBUG, which wrote such an
answer (Django's debug page: inline styles and handlers) over the whole document, and the
strict CSP (``style-src 'self'``, ``script-src 'self'``) refused each of them in the console.
"""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_deal_under_debug_keeps_the_desk_and_a_clean_console(
    login_page: Any, director: Any, live_server: Any, settings: Any
) -> None:
    from cardroom.tables.models import Table
    from cardroom.tables.removal import delete_table
    from tests.factories import make_table

    settings.DEBUG = True  # the live server renders with it, as under ``make run``
    table = make_table(number=8)
    page = login_page("td")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.expose_function("reportViolation", lambda text: errors.append(f"CSP: {text}"))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e =>"
        " window.reportViolation(e.violatedDirective + ' ' + e.sample));"
    )
    page.goto(f"{live_server.url}/tables/8/desk/")
    for seat in (1, 2):
        page.get_by_label(f"Seat {seat}", exact=True).fill("200")
    # Another manager removes the table set up by mistake while the desk is open: the deal
    # answers 404 (Django's debug page under DEBUG).
    delete_table(table=Table.objects.get(pk=table.pk))
    with page.expect_response(lambda r: r.url.endswith("/tables/8/desk/deal/")) as answer:
        page.get_by_role("button", name="Deal").click()
    assert answer.value.status == 404
    expect(page.locator("#notice")).to_have_text("The server answered 404. Try again.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 8")
    page.wait_for_timeout(300)  # violations are reported asynchronously
    # Chromium logs the failed request, and htmx its error code; nothing else may be there.
    expected = ("status of 404", "Response Status Error Code 404")
    unexpected = [e for e in errors if not any(text in e for text in expected)]
    assert unexpected == []
    assert "django-htmx.js" not in page.content()
