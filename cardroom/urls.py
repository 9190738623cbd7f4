"""Every page and API address of the project, and the error pages."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import SimpleRouter

from cardroom import views
from cardroom.core.api_docs import ApiDocsView
from cardroom.core.login_throttle import ThrottledLoginView, admin_login
from cardroom.rulings import views as ruling_views
from cardroom.rulings.api import RulingViewSet
from cardroom.screens import audit as audit_views
from cardroom.screens import board
from cardroom.screens import views as floor_views
from cardroom.seats import player_pages
from cardroom.seats import views as seat_views
from cardroom.seats.api import (
    HandAwardView,
    NextHandView,
    PlayerSearchView,
    TableSeatsView,
    TableSeatView,
)
from cardroom.tables import views as table_views
from cardroom.tables.api import (
    HandActionsView,
    HandDetailView,
    HandVoidView,
    TableEvaluateView,
    TableHandsView,
    TableViewSet,
)
from cardroom.waitlists import api as waitlist_api
from cardroom.waitlists import kiosk_api, kiosk_views
from cardroom.waitlists import views as waitlist_views
from rules.api import RuleDetailView, RuleListView
from rules.betting import AwardView, EvaluateView, InterpretView
from tournaments.api import TournamentViewSet
from tournaments.api import api_urls as tournament_api_urls
from tournaments.chip_api import api_urls as chip_api_urls
from tournaments.clock.api import api_urls as clock_api_urls
from tournaments.deal_quotes import DealQuoteView
from tournaments.money.api import api_urls as money_api_urls

router = SimpleRouter()
router.register("tables", TableViewSet, basename="table")
router.register("rulings", RulingViewSet, basename="ruling")
router.register("tournaments", TournamentViewSet, basename="tournament")

waitlist_api_urls = [
    path("waitlists/", waitlist_api.ListsView.as_view(), name="waitlists"),
    path("waitlists/<id:list_id>/", waitlist_api.ListDetailView.as_view(), name="waitlist"),
    path(
        "waitlists/<id:list_id>/entries/",
        waitlist_api.ListEntriesView.as_view(),
        name="waitlist-entries",
    ),
    path(
        "waitlists/<id:list_id>/start-game/",
        waitlist_api.StartGameView.as_view(),
        name="waitlist-start-game",
    ),
    path("waitlist-entries/<id:entry_id>/", waitlist_api.EntryView.as_view(), name="entry"),
    path(
        "waitlist-entries/<id:entry_id>/call/", waitlist_api.CallView.as_view(), name="entry-call"
    ),
    path(
        "waitlist-entries/<id:entry_id>/seat/", waitlist_api.SeatView.as_view(), name="entry-seat"
    ),
    path("must-moves/", waitlist_api.MustMovesView.as_view(), name="must-moves"),
    path(
        "must-moves/<id:must_move_id>/end/",
        waitlist_api.MustMoveEndView.as_view(),
        name="must-move-end",
    ),
    path(
        "must-moves/<id:must_move_id>/move-next/",
        waitlist_api.MustMoveNextView.as_view(),
        name="must-move-next",
    ),
    path("room-settings/", waitlist_api.RoomSettingsView.as_view(), name="room-settings"),
    path("kiosk/entries/", kiosk_api.KioskView.as_view(), name="kiosk-entries"),
]

api_patterns = [
    *router.urls,
    # The contract has no trailing slash; accept one too rather than answer a POST with 404.
    re_path(r"^betting/evaluate/?$", EvaluateView.as_view(), name="betting-evaluate"),
    re_path(r"^betting/interpret/?$", InterpretView.as_view(), name="betting-interpret"),
    re_path(r"^betting/award/?$", AwardView.as_view(), name="betting-award"),
    re_path(r"^deals/quote/?$", DealQuoteView.as_view(), name="deals-quote"),
    re_path(
        r"^tables/(?P<table_id>[0-9]{1,18})/betting/evaluate/?$",
        TableEvaluateView.as_view(),
        name="table-betting-evaluate",
    ),
    path("tables/<id:table_id>/hands/", TableHandsView.as_view(), name="table-hands"),
    path("hands/<id:pk>/", HandDetailView.as_view(), name="hand-detail"),
    path("hands/<id:hand_id>/actions/", HandActionsView.as_view(), name="hand-actions"),
    path("hands/<id:hand_id>/void-last/", HandVoidView.as_view(what="last"), name="hand-void-last"),
    path("hands/<id:hand_id>/void/", HandVoidView.as_view(what="hand"), name="hand-void"),
    # The table that runs all night: its seat map, next hand and award.
    path("tables/<id:table_id>/seats/", TableSeatsView.as_view(), name="table-seats"),
    path("tables/<id:table_id>/seats/<id:seat>/", TableSeatView.as_view(), name="table-seat"),
    path("tables/<id:table_id>/next-hand/", NextHandView.as_view(), name="table-next-hand"),
    path("hands/<id:hand_id>/award/", HandAwardView.as_view(), name="hand-award"),
    path("players/", PlayerSearchView.as_view(), name="player-search"),
    path("rules/", RuleListView.as_view(), name="rule-list"),
    path("rules/<str:citation_id>/", RuleDetailView.as_view(), name="rule-detail"),
    *waitlist_api_urls,
    *tournament_api_urls,
    *chip_api_urls,
    *clock_api_urls,
    *money_api_urls,
]

floor_patterns = [
    path("tables/", table_views.table_list, name="table_list"),
    path("tables/new/", table_views.table_create, name="table_create"),
    path("tables/validate/", table_views.table_validate, name="table_validate"),
    path("tables/<id:number>/", table_views.table_detail, name="table_detail"),
    path("tables/<id:number>/edit/", table_views.table_edit, name="table_edit"),
    path("tables/<id:number>/status/", table_views.table_status, name="table_status"),
    path("tables/<id:number>/desk/", table_views.desk, name="desk"),
    path("tables/<id:number>/desk/deal/", table_views.desk_deal, name="desk_deal"),
    path("hands/<id:hand_id>/act/", table_views.desk_act, name="desk_act"),
    path("hands/<id:hand_id>/count/", table_views.desk_interpret, name="desk_interpret"),
    path("hands/<id:hand_id>/void/<str:what>/", table_views.desk_void, name="desk_void"),
    path("hands/<id:hand_id>/award/", seat_views.desk_award, name="desk_award"),
    path("tables/<id:number>/desk/next/", seat_views.desk_next, name="desk_next"),
    path("tables/<id:number>/desk/seats/", seat_views.seat_add, name="seat_add"),
    path(
        "tables/<id:number>/desk/seats/<int:seat>/<str:what>/",
        seat_views.seat_change,
        name="seat_change",
    ),
    path("tables/<id:number>/desk/players/", seat_views.player_names, name="player_names"),
    path("floor/", floor_views.floor, name="floor"),
    path("floor/updates/", floor_views.floor_updates, name="floor_updates"),
    path("floor/audit/", audit_views.audit_page, name="audit"),
    path("floor/audit/status/", audit_views.audit_status, name="audit_status"),
    path("floor/audit/verify/", audit_views.audit_verify, name="audit_verify"),
    path("board/", board.board, name="board"),
    path("board/live/", board.board_live, name="board_live"),
    path("floor/waitlists/", waitlist_views.waitlist_page, name="waitlists"),
    path("floor/waitlists/add/", waitlist_views.waitlist_add, name="waitlist_add"),
    path("floor/waitlists/open/", waitlist_views.list_open, name="waitlist_open"),
    path(
        "floor/waitlists/entries/<id:entry_id>/call/",
        waitlist_views.entry_call,
        name="waitlist_call",
    ),
    path(
        "floor/waitlists/entries/<id:entry_id>/seat/",
        waitlist_views.entry_seat,
        name="waitlist_seat",
    ),
    path(
        "floor/waitlists/entries/<id:entry_id>/release/",
        waitlist_views.entry_release,
        name="waitlist_release",
    ),
    path(
        "floor/waitlists/entries/<id:entry_id>/check-in/",
        waitlist_views.entry_check_in,
        name="waitlist_check_in",
    ),
    path(
        "floor/waitlists/entries/<id:entry_id>/remove/",
        waitlist_views.entry_remove,
        name="waitlist_remove",
    ),
    path(
        "floor/waitlists/entries/<id:entry_id>/reorder/",
        waitlist_views.entry_reorder,
        name="waitlist_reorder",
    ),
    path(
        "floor/waitlists/lists/<id:list_id>/start/",
        waitlist_views.list_start,
        name="waitlist_start",
    ),
    path("floor/waitlists/must-moves/", waitlist_views.must_move_create, name="must_move_create"),
    path(
        "floor/waitlists/must-moves/<id:must_move_id>/<str:what>/",
        waitlist_views.must_move_action,
        name="must_move_action",
    ),
    path("kiosk/", kiosk_views.kiosk, name="kiosk"),
    path("rulings/", ruling_views.ruling_list, name="ruling_list"),
    path("rulings/export.csv", ruling_views.ruling_export, name="ruling_export"),
    path("rulings/new/", ruling_views.ruling_create, name="ruling_create"),
    path("rulings/cite/", ruling_views.ruling_cite_search, name="ruling_cite_search"),
    path("rulings/cite/add/", ruling_views.ruling_cite_add, name="ruling_cite_add"),
    path("rulings/<id:ruling_id>/", ruling_views.ruling_detail, name="ruling_detail"),
    path("players/search/", player_pages.player_search, name="player_search"),
    path("players/<id:player_id>/", player_pages.player_detail, name="player_detail"),
    path("players/<id:player_id>/bar/", player_pages.player_bar, name="player_bar"),
]

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="cardroom:floor"), name="home"),
    path("", include((floor_patterns, "cardroom"))),
    path("tournaments/", include("tournaments.urls")),
    path("login/", ThrottledLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", include((api_patterns, "api"))),
    path("rulebook/", include("rules.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/login/", admin_login, name="admin_login"),  # throttled like login/
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/docs/",
        ApiDocsView.as_view(url_name="schema", template_name="cardroom/api_docs.html"),
        name="api-docs",
    ),
]

handler403 = "cardroom.views.error_403"
handler404 = "cardroom.views.error_404"
handler500 = "cardroom.views.error_500"
