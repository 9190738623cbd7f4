"""Where Django's admin finds the floor app's admin pages: each package registers its own
(``tables``, ``rulings``); this module only imports them."""

from cardroom.rulings import admin as ruling_admin
from cardroom.tables import admin as table_admin

__all__ = ["ruling_admin", "table_admin"]
