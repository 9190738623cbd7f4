"""When the waitlists' timers run without anyone asking: a seat offer's end and a call-in's
check-in deadline (``OFFERS``, a ``cardroom.core.deadlines.Deadline``): each queued for its time
by the write that sets it, with the sweep of every list as the safety net, under their
registered names (``cardroom.waitlists.tasks`` registers them; the project's beat in
``cardroom/celery.py`` sends the sweep). The Celery app reads it at start-up, once it has named
Django's settings (``cardroom.core.deadlines`` imports DRF, which reads them)."""

from cardroom.core.deadlines import Deadline

#: The registered name of ``cardroom.waitlists.tasks.lapse_waitlist`` (one list, at a deadline).
LAPSE_WAITLIST = "cardroom.lapse_waitlist"
#: The registered name of ``cardroom.waitlists.tasks.lapse_waitlists`` (the sweep).
LAPSE_WAITLISTS = "cardroom.lapse_waitlists"
#: Seconds between sweeps of the waitlists' timers (offers, call-ins).
WAITLIST_SWEEP_EVERY = 10.0
#: Seat offers and call-in deadlines.
OFFERS = Deadline(task=LAPSE_WAITLIST, sweep=LAPSE_WAITLISTS, every=WAITLIST_SWEEP_EVERY)
