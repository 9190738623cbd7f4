"""Citation ids of the rules the engine applies.

Every id here must exist in the bundled rulebook (``rules/rulebooks/``); a test enumerates
them. Ids are ``<BOOK>-<SECTION>.<RULE>``:

- ``RRoP``: Robert's Rules of Poker (Bob Ciaffone). ``BR`` = the general "Betting and
  Raising" rules, ``4`` = "Button and Blind Use", ``14`` = "No-Limit and Pot-Limit",
  ``PL`` = its pot-limit rules.
- ``TDA``: Poker TDA rules, 2024 numbering (older numbers are aliases in the rulebook).
- ``CR``: Cardroom's floor procedures (``rules/rulebooks/procedures.toml``), written by
  Cardroom where the bundled sources are silent: ``BB`` = blinds and the button (TDA 32's
  dead button, the moving button, missed blinds, new players, heads-up), ``DM`` = dead money,
  ``CU`` = colour-ups and the chip race (TDA 24 and 25's practice).
"""

# Robert's Rules: Betting and Raising (general rules).
LIMIT_RAISE_CAP = "RRoP-BR.3"  # a bet and three raises (four in two-round games), 3+ players
HEADS_UP_UNLIMITED = "RRoP-BR.4"  # unlimited raising heads-up; a cap once reached stays
LIMIT_HALF_BET_ALL_IN = "RRoP-BR.5"  # limit: all-in of half a bet or more is a full bet
MIN_WAGER = "RRoP-BR.6"  # any wager at least the previous bet or raise, unless all-in
SMALLEST_CHIP = "RRoP-BR.7"  # chips smaller than the smallest that plays do not play
VERBAL_BINDING = "RRoP-BR.8"  # a verbal statement in turn is binding
ACT_IN_TURN = "RRoP-BR.10"  # acting out of turn
FULL_BET_AND_HALF = "RRoP-BR.14"  # string raises; a bet plus half a bet or more is a raise
SINGLE_CHIP_CALL = "RRoP-BR.15"  # a single larger chip without announcement is a call
BRING_UP_SHORT_WAGER = "RRoP-BR.16"  # improperly low wagers are brought up to proper size

# Robert's Rules: Button and Blind Use.
BRING_IN_AND_SHORT_BLIND = "RRoP-4.2"  # minimum bring-in; a short big blind

# Robert's Rules: No-Limit and Pot-Limit.
NL_UNLIMITED_RAISES = "RRoP-14.1"
NL_MIN_BET = "RRoP-14.2"  # bets at least the bring-in; a straddle sets a new bring-in
NL_MIN_RAISE = "RRoP-14.3"  # raises at least the previous bet or raise; no re-open
NL_NO_COMPLETING = "RRoP-14.4"  # completing the bet is a limit wager only
NL_ALL_INS_ADD_UP = "RRoP-14.5"  # several short all-ins re-open once they make a raise
NL_NOT_BINDING_UNTIL_RELEASED = "RRoP-14.7"
NL_VERBAL_OVER_CHIPS = "RRoP-14.8"  # discrepancy: the bet is corrected to the verbal
NL_SINGLE_CHIP = "RRoP-14.11"  # single chip: full value as a bet, a call facing a bet
NL_RAISE_BROUGHT_UP = "RRoP-14.12"  # too-small raise brought up to the minimum, no more
NL_MIN_DENOMINATION = "RRoP-14.13"
NL_STRADDLE = "RRoP-14.14"  # one live straddle, 2x the big blind, acts last preflop
NL_TABLE_STAKES_MAX_BUY_IN = "RRoP-14.16"
NL_RUN_IT_TWICE = "RRoP-14.17"

# Robert's Rules: Pot-Limit.
PL_OVERSIZE_REDUCED = "RRoP-PL.1"  # a wager over the pot is reduced to the pot
PL_POT_SIZE = "RRoP-PL.4"  # rounding the pot size up
PL_SMALL_BLIND_AS_BIG = "RRoP-PL.5"
PL_SINGLE_CHIP_OVER_POT = "RRoP-PL.6"  # a chip larger than the pot is a pot-size bet
PL_MAX_BET = "RRoP-14.0"  # section preamble: pot after the call (pot 100, bet 50 -> 250)

# Robert's Rules: Ties (Version 5, quoted in Poker Betting Help).
ODD_CHIP = "RRoP-TI.5"  # (a) the odd chip to the first tied hand clockwise from the button
SEPARATE_POTS = "RRoP-TI.5"  # (d) side pots and the main pot split as separate pots
SUIT_RANKING = "RRoP-TI.1"  # spades, hearts, diamonds, clubs: a tie in rank broken by suit

# TDA rules (2024 numbering).
TDA_RAISE_AMOUNTS = "TDA-43"  # largest prior full bet or raise; the 50% standard
TDA_MULTIPLE_CHIPS = "TDA-45"
TDA_PRIOR_CHIPS = "TDA-46"  # chips already in front (not pulled in)
TDA_REOPENING = "TDA-47"
TDA_VERBAL_AND_CHIPS = "TDA-40"  # methods of betting: verbal and chips
TDA_ACTING_IN_TURN = "TDA-53"  # action out of turn
SPLIT_EVENLY = "TDA-20"  # awarding odd chips: a tie split as evenly as possible
HIGH_LOW = "TDA-20"  # its high-low examples: 66 chips, both halves tied, 33 and 33

# Cardroom's floor procedures (the sources have no text for TDA 32 or for missed blinds).
DEAD_BUTTON = "CR-BB.1"  # TDA 32 practice: the button follows the big blind, may be dead
DEAD_SMALL_BLIND = "CR-BB.2"  # nobody posts it; no straddle; adds nothing to the pot size
MISSED_BLINDS = "CR-BB.3"  # a live post (the big blind, with its option) and a dead post
MOVING_BUTTON = "CR-BB.4"  # cash tables: the button, then the blinds, move to the next player
MISSED_BLINDS_ACCRUE = "CR-BB.5"  # sitting out, the blinds pass you: you owe them (or wait)
NEW_PLAYER = "CR-BB.6"  # a new player posts a big blind or waits; a new game deals everyone
HEADS_UP = "CR-BB.7"  # the button posts the small blind; nobody posts the big twice in a row
MISDEAL_REDEAL = "CR-BB.8"  # a voided hand is dealt again: same button, blinds, posts
BUTTON_DRAW = "CR-BB.9"  # a table's first hand: the button by a draw, high card by suit
DEAD_MONEY = "CR-DM.1"  # in the main pot, toward nobody's wager, never returned
BIG_BLIND_ANTE = "CR-DM.2"  # posted by the big blind after the blind; dead money
# Tournament tables at the desk (tournaments/table_hands.py plans them with this engine).
TOURNAMENT_DEALT_IN = "CR-TP.1"  # every seated player is dealt in, present or not
NEW_LEVEL_NEXT_HAND = "CR-TP.2"  # the clock's level when dealt; no deal in a break
SAME_HAND_BUSTS = "CR-TP.3"  # more chips at the start of the hand: the better place
# The games a table may be set up for (cardroom/tables/choices.py: DESK_VARIANTS).
GAMES_AT_THE_DESK = "CR-GM.1"  # button games with blinds and four rounds: hold'em, Omaha
# Colour-ups and the chip race (tournaments/draws/chip_race.py, tournaments/colour_ups.py).
CHIP_SET = "CR-CU.1"  # each chip divides the next; a chip leaves at a break; blinds payable
COLOUR_UP_ANNOUNCED = "CR-CU.2"  # shown from the level before the break and through it
CHIP_RACE = "CR-CU.3"  # whole colour-ups, then a card per odd chip; one chip a player
NOBODY_RACED_OUT = "CR-CU.4"  # a player left with nothing gets a chip; odd value removed

ALL = frozenset(
    value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, str)
)
