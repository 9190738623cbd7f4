"""When the waitlists' timers run without anyone asking: the task that lapses offers and call-in
deadlines that ran out, under its registered name (``cardroom.waitlists.tasks`` registers it;
the project's beat in ``cardroom/celery.py`` sends it), and how often. No Django here: the Celery
app reads it before Django starts."""

#: The registered name of ``cardroom.waitlists.tasks.lapse_waitlists``.
LAPSE_WAITLISTS = "cardroom.lapse_waitlists"
#: Seconds between sweeps of the waitlists' timers (offers, call-ins).
WAITLIST_SWEEP_EVERY = 10.0
