"""``manage.py verify_draw``: replay recorded draws from their revealed seeds and inputs.

Exits 1 if any draw fails (its seed does not open the commitment, or the replay differs from the
record), so it can run in a cron job or CI against a copy of the database.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.defaultfilters import pluralize

from tournaments.draw_services import verify_draw
from tournaments.models import Draw, DrawStatus


class Command(BaseCommand):
    help = "Verify recorded seat draws: the commitment, and a replay from the revealed seed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int, help="Tournament id.")
        parser.add_argument(
            "numbers", nargs="*", type=int, help="Draw numbers (default: every revealed draw)."
        )

    def handle(self, *args: Any, tournament: int, numbers: list[int], **options: Any) -> None:
        draws = Draw.objects.filter(tournament_id=tournament).order_by("number")
        if numbers:
            draws = draws.filter(number__in=numbers)
            missing = sorted(set(numbers) - set(draws.values_list("number", flat=True)))
            if missing:
                raise CommandError(f"No draw {', '.join(map(str, missing))} in this tournament.")
        else:
            draws = draws.filter(status=DrawStatus.REVEALED)
        failed = 0
        for draw in draws:
            verification = verify_draw(draw)
            if verification.ok:
                self.stdout.write(f"draw {draw.number} ({draw.kind}): OK {draw.commitment}")
            else:
                failed += 1
                self.stdout.write(
                    self.style.ERROR(f"draw {draw.number} ({draw.kind}): FAILED")
                    + "".join(f"\n  {problem}" for problem in verification.problems)
                )
        if failed:
            raise CommandError(f"{failed} draw{pluralize(failed)} failed verification.")
        count = draws.count()
        self.stdout.write(self.style.SUCCESS(f"{count} draw{pluralize(count)} verified."))
