"""The API shell: one error shape, 401 for anonymous, the OpenAPI schema and offline docs."""

import pytest
from django.core.management import call_command
from django.test import Client


@pytest.mark.django_db
def test_unknown_api_route_is_a_json_404(client: Client) -> None:
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_unknown_page_is_an_html_404_not_a_500(client: Client) -> None:
    response = client.get("/definitely/not/here/")
    # Anonymous visitors are sent to log in first; signed-in ones get the 404 page.
    assert response.status_code in {302, 404}


@pytest.mark.django_db
def test_unknown_page_for_a_signed_in_user_is_the_404_page(persona_client) -> None:  # type: ignore[no-untyped-def]
    response = persona_client("staff").get("/definitely/not/here/")
    assert response.status_code == 404
    assert b"Not found" in response.content
    assert b"Traceback" not in response.content


@pytest.mark.django_db
def test_schema_is_served_and_valid(tmp_path, api_client_for) -> None:  # type: ignore[no-untyped-def]
    response = api_client_for("staff").get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )


@pytest.mark.django_db
def test_api_docs_work_offline(persona_client) -> None:  # type: ignore[no-untyped-def]
    response = persona_client("staff").get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn" not in html.lower()


@pytest.mark.django_db
@pytest.mark.urls("tests.cardroom.boom_urls")
def test_a_crash_is_the_500_page_and_no_traceback(persona_client) -> None:  # type: ignore[no-untyped-def]
    client = persona_client("staff")
    client.raise_request_exception = False
    page = client.get("/boom/")
    assert page.status_code == 500
    assert b"<html" in page.content and b"secret detail" not in page.content
    assert b"Traceback" not in page.content
    api = client.get("/api/v1/boom/")
    assert api.status_code == 500
    assert api.json() == {"error": {"code": "server_error", "message": "Server error."}}
