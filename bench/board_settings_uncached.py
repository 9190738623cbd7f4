"""The production settings with the public board's cache and ETags off: the comparison side of
``bench/board_load.py`` (every poll builds the board and answers it in full)."""

from cardroom.settings import *  # noqa: F403

CARDROOM_BOARD_CACHE = False
