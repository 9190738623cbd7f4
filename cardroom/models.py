"""Where Django finds the floor app's models: each package owns its own (``tables``,
``seats``, ``rulings``, ``waitlists``), and this module only imports them so that they register
under the ``cardroom`` app. Nothing imports a model from here; code imports it from its package.
"""

from cardroom.core import changes as change_models
from cardroom.core import checkpoints as checkpoint_models
from cardroom.rulings import models as ruling_models
from cardroom.seats import models as seat_models
from cardroom.tables import models as table_models
from cardroom.waitlists import models as waitlist_models

__all__ = [
    "change_models",
    "checkpoint_models",
    "ruling_models",
    "seat_models",
    "table_models",
    "waitlist_models",
]
