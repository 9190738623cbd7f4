"""Tournament pages, under /tournaments/ (app_name "tournaments")."""

from django.urls import path

from tournaments import (
    chip_pages,
    colour_up_pages,
    deal_pages,
    entrant_pages,
    results_pages,
    views,
)
from tournaments.clock import structure_views
from tournaments.clock import views as clock_views
from tournaments.money import bounty_pages, payout_pages, reconciliation_pages
from tournaments.money import pages as money_pages

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("<id:pk>/", views.tournament_detail, name="detail"),
    path("<id:pk>/entrants/", views.entrant_register, name="entrant_register"),
    path(
        "<id:pk>/entrants/<id:number>/eliminate/",
        views.entrant_eliminate,
        name="entrant_eliminate",
    ),
    path(
        "<id:pk>/entrants/<id:number>/reinstate/",
        views.entrant_reinstate,
        name="entrant_reinstate",
    ),
    path("<id:pk>/entrants/<id:number>/card/", entrant_pages.seat_card, name="seat_card"),
    path("<id:pk>/cards/last-draw/", entrant_pages.last_draw_cards, name="last_draw_cards"),
    path("<id:pk>/entrants/<id:number>/count/", chip_pages.count_correct, name="count_correct"),
    path("<id:pk>/entrants/<id:number>/chips/move/", chip_pages.chips_move, name="chips_move"),
    path("<id:pk>/tables/<id:number>/counts/", chip_pages.table_counts, name="table_counts"),
    path("<id:pk>/registration/close/", views.registration_close, name="registration_close"),
    path("<id:pk>/reserve-seat/", views.reserve_seat, name="reserve_seat"),
    path("<id:pk>/wrong-seat/", views.wrong_seat, name="wrong_seat"),
    path("<id:pk>/ante/", views.ante_type, name="ante_type"),
    path("<id:pk>/hand-for-hand/", views.hand_for_hand, name="hand_for_hand"),
    path("<id:pk>/tables/<id:number>/button/", views.table_button, name="table_button"),
    # The table by its one name, the room's number (the page's address shows it).
    path("<id:pk>/tables/<id:room>/break/", views.break_screen, name="break_screen"),
    path("<id:pk>/draws/", views.draw_list, name="draws"),
    path("<id:pk>/draws/commit/", views.draw_commit, name="draw_commit"),
    path("<id:pk>/draws/<id:number>/", views.draw_detail, name="draw_detail"),
    path("<id:pk>/draws/<id:number>/deal/", views.draw_deal, name="draw_deal"),
    path("<id:pk>/draws/<id:number>/verify/", views.draw_verify, name="draw_verify"),
    path("<id:pk>/balance/", views.balance, name="balance"),
    path("<id:pk>/balance/check/", views.balance_check, name="balance_check"),
    path("<id:pk>/balance/<id:check_id>/apply/", views.balance_apply, name="balance_apply"),
    path("<id:pk>/chips/", colour_up_pages.chip_set_page, name="chip_set"),
    path("<id:pk>/chips/save/", colour_up_pages.chip_save, name="chip_save"),
    path("<id:pk>/chips/delete/", colour_up_pages.chip_delete, name="chip_delete"),
    path("<id:pk>/tables/<id:number>/race/", colour_up_pages.chip_race, name="chip_race"),
    path("<id:pk>/races/<id:race_id>/", colour_up_pages.chip_race_result, name="chip_race_result"),
    path("<id:pk>/results/", results_pages.results, name="results"),
    path("<id:pk>/deal/", deal_pages.deal, name="deal"),
    path("<id:pk>/money/payouts/", payout_pages.payouts_page, name="payouts"),
    path("<id:pk>/money/payouts/edit/", payout_pages.payouts_edit, name="payouts_edit"),
    path("<id:pk>/entrants/<id:number>/payout/", payout_pages.payout_pay, name="payout_pay"),
    path(
        "<id:pk>/entrants/<id:number>/payout-slip/",
        payout_pages.payout_slip,
        name="payout_slip",
    ),
    path("<id:pk>/money/", money_pages.money, name="money"),
    path("<id:pk>/money/prices/", money_pages.money_prices, name="money_prices"),
    path("<id:pk>/money/pay/<id:number>/", money_pages.money_pay, name="money_pay"),
    path("<id:pk>/deal/record/", deal_pages.deal_record, name="deal_record"),
    path("<id:pk>/deal/sheet/", deal_pages.deal_sheet, name="deal_sheet"),
    path("<id:pk>/money/bounties/", bounty_pages.bounties, name="bounties"),
    path("<id:pk>/money/bounties/<id:number>/pay/", bounty_pages.bounty_pay, name="bounty_pay"),
    path("<id:pk>/results.csv", results_pages.results_csv, name="results_csv"),
    path("<id:pk>/clock/", clock_views.clock, name="clock"),
    path("<id:pk>/clock/action/", clock_views.clock_action, name="clock_action"),
    path("<id:pk>/clock/structure/time/", structure_views.structure_time, name="structure_time"),
    path(
        "<id:pk>/clock/structure/<id:level_id>/",
        structure_views.structure_step,
        name="structure_step",
    ),
    path(
        "<id:pk>/clock/structure/insert/", structure_views.structure_insert, name="structure_insert"
    ),
    path("<id:pk>/clock/structure/add/", structure_views.structure_add, name="structure_add"),
    path("<id:pk>/clock/display/", clock_views.clock_display, name="clock_display"),
    path("<id:pk>/clock/display/state/", clock_views.clock_state, name="clock_state"),
    path(
        "<id:pk>/money/reconciliation/",
        reconciliation_pages.reconciliation,
        name="reconciliation",
    ),
    path("money/day/", reconciliation_pages.money_day, name="money_day"),
]
