"""The rulebook's pages, under /rules/."""

from django.urls import path

from rules import views

app_name = "rules"

urlpatterns = [
    path("", views.search, name="search"),
    path("house/new/", views.house_rule_create, name="house_rule_create"),
    path("<str:citation_id>/", views.rule_detail, name="rule_detail"),
    path("<str:citation_id>/edit/", views.house_rule_edit, name="house_rule_edit"),
]
