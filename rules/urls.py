"""The rulebook's pages, under /rules/."""

from django.urls import path

from rules import import_views, views

app_name = "rules"

urlpatterns = [
    path("", views.search, name="search"),
    path("house/new/", views.house_rule_create, name="house_rule_create"),
    path("import/", import_views.import_upload, name="import"),
    path("import/<str:token>/", import_views.import_preview, name="import_preview"),
    path("editions/<str:code>/<int:number>/", import_views.edition_detail, name="edition"),
    path("<str:citation_id>/", views.rule_detail, name="rule_detail"),
    path("<str:citation_id>/edit/", views.house_rule_edit, name="house_rule_edit"),
]
