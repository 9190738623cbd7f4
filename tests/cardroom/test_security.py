"""Security headers on every kind of response, HSTS under the production settings, and
templates that keep to the Content Security Policy (no inline script, no inline handlers)."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cardroom.test_settings import STRONG_KEY, run_django

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "persona"),
    [
        ("/login/", "anonymous"),
        ("/floor/", "staff"),
        ("/rulebook/", "anonymous"),
        ("/api/v1/tables/", "staff"),
        ("/tables/new/", "staff"),
    ],
)
def test_responses_carry_the_security_headers(url: str, persona: str, persona_client: Any) -> None:
    response = persona_client(persona).get(url)
    assert response.status_code in (200, 403)
    csp = directives(response["Content-Security-Policy"])
    assert csp["script-src"] == ["'self'"]
    assert "'unsafe-inline'" not in csp.get("script-src", []) + csp["default-src"]
    assert "'unsafe-eval'" not in csp["script-src"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    # Development settings: no HSTS (it would pin localhost to HTTPS in the browser).
    assert "Strict-Transport-Security" not in response


def test_production_settings_send_hsts_and_secure_cookies(tmp_path: Path) -> None:
    script = (
        "import json; from django.test import Client; c = Client(); "
        "s = c.get('/healthz', secure=True); p = c.get('/healthz'); "
        "print(json.dumps({'hsts': s.get('Strict-Transport-Security'), "
        "'csp': s.get('Content-Security-Policy'), 'xfo': s.get('X-Frame-Options'), "
        "'plain': p.status_code, 'to': p.get('Location')}))"
    )
    result = run_django(
        {
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": STRONG_KEY,
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "CARDROOM_AUDIT_KEY": "room-1:" + "r" * 40,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        },
        "shell",
        "-c",
        script,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert "frame-ancestors 'none'" in seen["csp"]
    assert seen["xfo"] == "DENY"
    assert (seen["plain"], seen["to"]) == (301, "https://testserver/healthz")


def test_the_templates_were_found() -> None:
    names = {path.relative_to(ROOT / "templates").as_posix() for path in TEMPLATES}
    assert {"base.html", "cardroom/login.html", "cardroom/ruling_print.html"} <= names


def inline_scripts(text: str) -> list[str]:
    """``<script>`` tags without ``src``, or with code inside."""
    found = re.findall(r"(<script\b([^>]*)>(.*?)</script\s*>)", text, re.S | re.I)
    bad = [tag for tag, attributes, body in found if not re.search(r"\bsrc\s*=", attributes)]
    bad += [tag for tag, _, body in found if body.strip()]
    if len(found) != len(re.findall(r"<script\b", text, re.I)):
        bad.append("<script> without its </script>")
    return bad


def inline_handlers(text: str) -> list[str]:
    """Tags with ``on…=`` or htmx's ``hx-on…=`` attributes, and ``javascript:`` URLs."""
    tags = re.findall(r"<[a-zA-Z][^<>]*>", text)
    bad = [tag for tag in tags if re.search(r"\s(on[a-z]+|hx-on[:-][^\s=]*)\s*=", tag, re.I)]
    return bad + (["javascript: URL"] if "javascript:" in text.lower() else [])


def test_the_scans_catch_inline_code() -> None:
    assert inline_scripts("<script>alert(1)</script>")
    assert inline_scripts('<script src="/a.js">alert(1)</script>')
    assert inline_scripts("<script defer>")
    assert not inline_scripts("<script src=\"{% static 'js/app.js' %}\" defer></script>")
    assert inline_handlers('<button class="x" onclick="go()">Go</button>')
    assert inline_handlers('<img src=x\n     onerror="alert(1)">')
    assert inline_handlers('<div hx-on:click="go()">')
    assert inline_handlers('<a href="javascript:go()">')
    assert not inline_handlers('<button hx-post="/x" data-once="1">Once more</button>')


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_template_has_inline_script_or_event_handlers(path: Path) -> None:
    """CSP allows scripts from our own files only: inline code would not run anyway."""
    text = path.read_text()
    assert not inline_scripts(text), f"{path.name}: {inline_scripts(text)}"
    assert not inline_handlers(text), f"{path.name}: {inline_handlers(text)}"


@pytest.mark.django_db
def test_htmx_is_django_htmxs_copy_loaded_as_a_deferred_same_origin_script(client: Any) -> None:
    """base.html loads htmx 2 from django-htmx's static files (no copy of
    our own), before app.js, and every script an external file the CSP's 'self' allows."""
    page = client.get("/login/").content.decode()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page, re.DOTALL)
    assert scripts and all("defer" in attrs and not body.strip() for attrs, body in scripts)
    urls = [re.findall(r'src="([^"]+)"', attrs)[0] for attrs, _ in scripts]
    assert urls[:2] == ["/static/django_htmx/htmx-2.min.js", "/static/js/app.js"]
