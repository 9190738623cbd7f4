"""The floor's words for the rulebook's words, and reading what someone typed.

Players say "shove", the rulebook says "all-in"; the floor says "overchip", the rulebook "a
single larger chip". A query is read term by term: a floor phrase ("min raise", "run it
twice", "dead button") stays one term, each floor word or phrase also searches for the
rulebook's words, and the words a question is put in ("what happens when a player …") are
dropped. Web-search syntax keeps its meaning: ``"quoted phrase"``, ``or`` between terms,
``-word`` to exclude. Pure Python: ``rules.search`` turns the terms into FTS5 or tsquery
syntax and ranks what they find.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

#: Floor word or phrase (lower case) -> the rulebook's words for it. A phrase listed here is
#: read as one term ("min raise", "run it twice"), never as its separate words.
SYNONYMS: dict[str, tuple[str, ...]] = {}


def _same(rulebook: tuple[str, ...], *floor: str) -> None:
    """The floor's words (and the rulebook's own phrases, so that they stay whole) search for
    every one of the rulebook's words for the same thing."""
    for word in (*floor, *(phrase for phrase in rulebook if " " in phrase)):
        SYNONYMS[word] = rulebook


# --- the floor's vocabulary, checked against the bundled books --------------------------------
# Each line: the rulebook's words (as the books write them), then what the floor says. A floor
# word the books never use only finds rules through the rulebook's words.

_same(("all-in",), "shove", "shoves", "shoved", "jam", "jams", "jammed", "push", "pushes",
      "allin", "all in", "all-ins", "all ins", "goes all in", "went all in")  # fmt: skip
# RRoP-14.3 "Minimum raise", BH-1..3, TDA-43 "Raise Amounts".
_same(("minimum raise",), "min-raise", "min raise", "minraise", "min-raised", "min raised",
      "minimum raises", "min raises", "min reraise", "min re-raise", "minimum re-raise",
      "smallest raise", "smallest legal raise", "least i can raise", "raise minimum")  # fmt: skip
_same(("minimum bet", "minimum wager"), "min bet", "min-bet", "minbet", "smallest bet",
      "minimum opening bet", "min open", "minimum open")  # fmt: skip
# The single oversized chip: RRoP-BR.15 (a single larger chip is a call), RRoP-14.11 (big-bet
# version), TDA-46 ("adding an overchip is a call"). Not the pot-limit "oversize wager".
_same(("single larger chip", "single chip", "larger chip", "larger denomination chip",
       "overchip"),
      "overchip", "overchips", "over-chip", "over chip", "overchipped", "over-chipped",
      "oversized chip", "oversize chip", "over-sized chip", "over sized chip", "big chip",
      "bigger chip", "large chip", "one chip", "one big chip", "single big chip",
      "one oversized chip", "single oversized chip", "single-chip")  # fmt: skip
# Pot-limit: a wager over the pot (RRoP-PL.1..3).
_same(("oversize wager", "exceeds the pot", "over the pot", "oversize"), "overbet", "overbets",
      "over-bet", "overbetting", "oversize bet", "oversized bet", "oversized wager",
      "over the pot", "more than the pot", "over pot",
      "over-pot")  # fmt: skip
_same(("split pot", "split"), "chop", "chops", "chopped", "chopping", "chop pot",
      "chopped pot", "chop the pot", "split pot", "split pots")  # fmt: skip
_same(("odd chip",), "odd chips", "odd chip", "extra chip", "leftover chip", "left over chip",
      "remainder chip")  # fmt: skip
_same(("out of turn",), "oot", "out-of-turn", "acting early", "acted early",
      "before his turn", "before her turn", "before their turn")  # fmt: skip
# RRoP-BR.14 "String raises", RRoP-TR.23 "… Otherwise, it is a string bet".
_same(("string raise", "string bet"), "string bet", "string-bet", "stringbet", "string raise",
      "string-raise", "string raising", "string betting", "string bets", "string raises",
      "string", "strung", "two motions", "multiple motions", "went back to his stack",
      "went back for more chips")  # fmt: skip
_same(("re-open", "reopen"), "reopen", "re-open", "reopens", "re-opens", "reopened",
      "re-opened", "reopening", "re-opening")  # fmt: skip
_same(("undercall", "short call"), "undercall", "under-call", "under call", "undercalled",
      "undercalls", "called short")  # fmt: skip
_same(("underraise", "underbet", "incorrect bet"), "under-raise", "under raise", "underraised",
      "underraises", "under-bet", "under bet", "underbets")  # fmt: skip
# RRoP-14.15 "Time limit for acting; the clock".
_same(("clock", "time limit"), "clock", "call the clock", "call clock", "calling the clock",
      "called the clock", "clock a player", "clock him", "clock her", "clock on",
      "put the clock on", "put a clock on", "clock is called", "clock was called",
      "clock called", "tank", "tanking", "tanked", "taking too long",
      "too long to act")  # fmt: skip
# RRoP-BR.11 Calling "time" to keep the right to act.
_same(("time",), "call time", "calling time", "called time", "stop the action")
_same(("discard", "muck", "killed"), "muck", "mucked", "mucking")
_same(("hand is dead", "dead hand"), "dead hand", "hand dead", "killed hand", "fouled hand")
_same(("big blind",), "bb", "bigblind")
_same(("small blind",), "sb", "smallblind")
_same(("first to act", "under the gun"), "utg")
_same(("breaking tables", "breaking table", "break"), "table break", "break table",
      "breaking", "broken table", "table breaks", "breaking a table")  # fmt: skip
_same(("balancing", "balance"), "balance tables", "balancing tables")
# RRoP-14.17: players may agree to deal twice.
_same(("deal twice", "dealing twice"), "run it twice", "run twice", "ran it twice",
      "running it twice", "run it three times", "deal it twice", "rit")  # fmt: skip
_same(("order of showing", "first to show", "show"), "showdown order", "show order",
      "who shows first", "shows first", "show first", "order of show")  # fmt: skip
_same(("pot-limit",), "pl", "plo", "pot limit", "potlimit")
_same(("no-limit", "big-bet"), "nl", "nlh", "nlhe", "no limit", "nolimit", "big bet")
_same(("pot size", "pot count"), "pot bet", "bet the pot", "pot sized", "potting",
      "pot sized bet", "count the pot", "pot count")  # fmt: skip
_same(("re-raise", "raise"), "reraise", "re-raise", "3-bet", "3bet", "three-bet")
_same(("bring-in",), "bring in", "bringin")
_same(("rapping", "rap"), "knock", "knocks", "knocked", "knocking", "tap the table",
      "knock the table", "tapped the table", "tapping")  # fmt: skip
_same(("verbal", "statement"), "declare", "declared", "declaration", "said", "says",
      "announce", "announced", "verbally")  # fmt: skip
# RRoP-14.8 and TDA-40: what was said against the chips put out.
_same(("verbal", "verbal statement", "statement", "prevails"), "said call", "said raise",
      "said bet", "said check", "said fold", "said all in", "says call", "says raise",
      "said one thing", "said a number", "verbal and chips", "words and chips",
      "said call but", "said raise but")  # fmt: skip
_same(("seat card", "seat cards", "random"), "seat draw", "redraw", "draw for seats",
      "new seats", "seat assignment", "seat assignments")  # fmt: skip
_same(("suit", "suits"), "suit order", "suit ranking", "ranking of suits", "suit rank")
_same(("miscalling", "miscall"), "miscall", "miscalled", "wrong call", "called his hand wrong")
_same(("hidden", "concealed"), "hiding chips", "hidden chips", "covered chips")
_same(("check-raise",), "check raise", "checkraise", "check raising", "check-raising",
      "check raised")  # fmt: skip
_same(("heads-up",), "heads up", "headsup", "heads-up", "one on one")
# RRoP-BR.3: the cap on raises.
_same(("cap", "capped"), "raise cap", "capped", "how many raises", "number of raises")
# TDA-38: a misdealt hand once substantial action (TDA 36) has occurred. The bundled books
# carry no text of the TDA misdeal rule itself; TDA-38 is the books' ruling on a hand dealt
# the wrong number of cards: after substantial action it is dead, not a misdeal.
_same(("substantial action",), "misdeal", "misdeals", "misdealt", "mis-deal", "mis deal",
      "redeal", "re-deal", "wrong number of cards", "too many cards", "too few cards",
      "only one card", "only 1 card", "three cards", "3 cards", "extra card",
      "missing card", "substantial action", "sa")  # fmt: skip
# RRoP-14.3 and BH-4: a short all-in; RRoP-BR.5: in limit, one of less than half a bet.
_same(("short all-in", "less than a full raise", "not a full raise", "less than half a bet"),
      "short all-in",
      "short all in", "short allin", "short all-ins", "incomplete raise", "incomplete bet",
      "partial raise", "less than a full raise", "not a full raise", "short raise",
      "less than a raise")  # fmt: skip
_same(("insurance", "proposition"), "prop bet", "prop bets",
      "side bet", "side bets", "proposition bet", "proposition bets")  # fmt: skip
_same(
    ("maximum buy-in", "buy-in"),
    "max buy-in",
    "max buy in",
    "maximum buy in",
    "buy in cap",
    "buy-in cap",
    "buy in limit",
    "buy-in limit",
    "most i can buy in",
)
_same(("cards speak",), "cards read", "cards speak for themselves", "cards play")
_same(("forward motion",), "moved chips forward", "pushed chips forward", "moved his chips")
# RRoP-BR.12: chips released are binding; the player unaware of a raise may withdraw them.
_same(("released", "withdraw"), "let go of chips", "let go", "released chips",
      "take back chips", "took back chips", "take chips back", "took chips back",
      "take his chips back", "take her chips back", "take back his chips", "take his bet back",
      "take back his bet", "take back a bet", "withdraw", "withdraw chips")  # fmt: skip
# RRoP-14.12 and RRoP-BR.16: a wager below the minimum is brought up to it.
_same(("below the minimum", "improperly low", "less than the legal minimum"),
      "less than the minimum", "less than minimum", "under the minimum", "below minimum",
      "below the minimum", "too small a bet", "too small a raise")  # fmt: skip
# TDA-52: a pot bet made on the dealer's wrong count.
_same(("incorrect bet", "dealer for a count"), "wrong pot count", "wrong count",
      "dealer miscounted", "miscounted the pot", "pot miscounted", "dealer count",
      "incorrect pot count", "wrong pot size")  # fmt: skip
# RRoP-14.4: completing the bet is for limit poker only.
_same(("completing the bet", "complete the wager"), "complete the bet", "completing the bet",
      "complete the raise", "completing", "complete")  # fmt: skip
# RRoP-TR.19 and RRoP-4.2: too few chips for the blind.
_same(("too few chips", "sufficient chips", "lacks sufficient chips"), "not enough chips",
      "enough chips", "have enough chips",
      "too few chips", "short stacked", "short stack", "short of chips",
      "can't post", "cannot post")  # fmt: skip
_same(("high/low", "high-low"), "hi lo", "hi-lo", "hilo", "high low", "hi/lo",
      "eight or better", "o8", "omaha 8")  # fmt: skip
_same(("larger", "large"), "big", "bigger", "huge")
_same(("face up", "tabled", "turned up"), "table the cards", "table their hands",
      "turn the cards up", "turn cards up", "cards face up", "hands face up",
      "all in showdown", "all-in showdown")  # fmt: skip
_same(("not pulled in", "prior chips", "prior bet chips"), "chips in front",
      "previous bet chips", "chips not pulled in", "not pulled in")  # fmt: skip
_same(("multiple-chip", "multiple chip"), "multiple chips", "multi-chip", "multi chip",
      "several chips", "handful of chips", "50% rule", "50 percent rule",
      "fifty percent rule")  # fmt: skip
_same(
    ("show one, show all", "shown"),
    "show one show all",
    "show one, show all",
    "flashed cards",
    "showed his cards to",
    "showed a card to",
)
_same(("misawarded", "awarding a pot"), "wrong player", "pushed the pot to",
      "pot to the wrong", "misawarded", "mis-awarded")  # fmt: skip
_same(("counting error",), "miscounted", "counted wrong", "count error", "counting mistake")
_same(("grossly misunderstood", "misunderstanding", "misunderstood"), "misheard",
      "misunderstood", "thought he bet", "thought she bet", "heard wrong")  # fmt: skip
# Cardroom's floor procedures (CR): the dead button (TDA 32 practice), missed blinds, the
# big-blind ante and dead money.
_same(("dead button",), "dead button", "dead buttons", "button on an empty seat",
      "button on empty seat", "empty button", "tda 32", "rule 32")  # fmt: skip
_same(("dead small blind",), "dead sb", "dead small", "no small blind",
      "small blind dead")  # fmt: skip
_same(("missed blinds", "missed the blinds"), "missed blind", "missed blinds",
      "missing blinds", "missed the blind", "make up blinds", "making up blinds",
      "made up blinds", "owes blinds", "owe blinds", "post missed blinds")  # fmt: skip
_same(("live post",), "live posting", "post live", "posted live")
_same(("dead post", "dead money"), "post dead", "posted dead", "dead posting",
      "dead chips")  # fmt: skip
_same(("big-blind ante",), "big blind ante", "bb ante", "bba", "big blind antes",
      "bb antes")  # fmt: skip
# Cardroom's house procedures (CR-DL, CR-PC, CR-HD, CR-CU.5): what a floor meets every week
# and the bundled books leave out, found by the floor's words for it.
# CR-DL.1: a card the dealer exposes in the deal, the floor's "flashed card" (a player showing
# their own cards is CR-PC.4 and RRoP-SD.6).
_same(("exposed card", "exposed", "card exposed"), "exposed", "exposes", "exposure",
      "exposed card", "exposed cards", "card exposed", "cards exposed", "flashed", "flash",
      "flashes", "flashed a card", "dealer flashed a card", "flipped card",
      "card flipped", "flipped a card", "flipped cards", "dealer flipped", "flipped",
      "flashed card", "card flashed", "dealer flashed", "turned over a card",
      "card turned over", "card face up in the deal", "dealt face up")  # fmt: skip
# CR-DL.2: a card dealt to the wrong seat is one of the misdeals.
_same(("wrong seat", "misdeal"), "wrong seat", "to the wrong seat", "the wrong seat",
      "dealt to the wrong seat", "card to the wrong seat", "skipped seat",
      "dealt the wrong seat", "missed a seat", "dealt a seat out")  # fmt: skip
# CR-DL.3: a card found face up in the deck.
_same(("boxed card", "boxed"), "boxed", "boxed card", "boxed cards", "box card",
      "face up in the deck", "card face up in the deck", "upside down card",
      "card upside down", "upside-down card")  # fmt: skip
# CR-DL.4: a new deck, and a flawed one.
_same(("deck changes", "deck change", "new deck", "flawed"), "deck change", "deck changes",
      "change the deck", "change decks", "changing the deck", "changed the deck", "new deck",
      "new cards", "deck swap", "swap the deck", "setup", "set up", "marked card",
      "marked cards", "bent card", "damaged card", "torn card", "duplicate card",
      "two of the same card", "flawed deck", "bad deck", "short deck")  # fmt: skip
# CR-DL.5.
_same(("rabbit hunting",), "rabbit", "rabbits", "rabbit hunt", "rabbit-hunt", "rabbit hunted",
      "rabbit hunting", "rabbit-hunting", "rabbithunting", "what would have come",
      "would have come", "see the next card", "show the next card", "show the river",
      "see the river", "next card would have been")  # fmt: skip
# CR-PC.1: phones and other devices.
_same(("phone", "phones", "electronic devices", "device", "devices"), "phone", "phones",
      "cell", "cells", "cellphone", "cellphones", "cell phone", "cell phones", "mobile",
      "mobiles", "mobile phone", "smartphone", "smart phone", "iphone", "texting", "texted",
      "text message", "text messages", "on the phone", "phone call", "took a call",
      "taking a call", "answered his phone", "answered her phone", "electronic",
      "electronic device", "electronics", "tablet", "ipad", "laptop", "smartwatch",
      "smart watch", "headphones", "earbuds", "solver", "solvers", "poker app", "camera",
      "photo", "photos", "pictures", "filming", "recording")  # fmt: skip
# CR-PC.2.
_same(("english", "language"), "english", "english only", "english-only", "language",
      "languages", "foreign language", "other language", "another language",
      "different language", "spanish", "chinese", "mandarin", "cantonese", "vietnamese",
      "russian", "french", "german", "portuguese", "italian", "korean", "tagalog",
      "farsi", "arabic", "hebrew", "polish")  # fmt: skip
# CR-PC.3.
_same(("protect", "protecting", "unprotected", "dealer kills"), "protect", "protects",
      "protected", "protecting", "protection", "unprotected", "protect your hand",
      "protect his hand", "protect her hand", "protect their hand", "protect hand",
      "protect my hand", "card protector", "card cover", "dealer mucked",
      "dealer mucked his hand", "dealer mucked her hand", "dealer mucked my hand",
      "dealer killed", "dealer killed his hand", "dealer took his cards",
      "dealer took her cards", "mucked by the dealer", "mucked by dealer",
      "accidentally mucked", "dealer pulled his cards")  # fmt: skip
# CR-PC.4: a player showing or flashing their own cards (with RRoP-SD.6).
_same(("show one, show all", "shown", "flashing", "showing"), "flashing",
      "showing cards", "showed his cards", "showed her cards", "showing his hand",
      "flashed his cards", "flashed her cards", "flashed his hand", "flashed her hand",
      "flashing cards", "exposed his cards", "exposed her cards", "exposed his hand",
      "exposed her hand", "showed a card")  # fmt: skip
# CR-PC.5.
_same(("one player to a hand", "advice", "soft play", "chip dumping"), "one player to a hand",
      "one player per hand", "advice", "advising", "coaching",
      "giving advice", "discussing the hand", "talking about the hand", "talking about a hand",
      "commenting on the hand", "said what he folded", "said what she folded", "collusion",
      "colluding", "collude", "soft play", "soft-play", "softplay", "chip dumping",
      "chip dump", "dumping chips", "team play", "teaming up")  # fmt: skip
# CR-HD.1 and the books' dead hands.
_same(("hand is dead", "dead hand", "fouled"), "dead hand", "hand dead", "killed hand",
      "fouled hand", "foul hand", "fouled", "foul", "hand fouled", "fouled cards",
      "touched the muck", "hit the muck", "landed on the muck", "cards in the muck",
      "mucked hand", "retrieve his hand", "retrieve her hand", "retrieve the hand",
      "retrieved from the muck")  # fmt: skip
# CR-HD.2.
_same(("at your seat", "not there", "away"), "at your seat", "at his seat", "at her seat",
      "not at his seat", "not at her seat", "not at the table", "away from the table",
      "away from his seat", "absent", "absent player", "empty chair", "missing player",
      "walked away", "came back late", "back late")  # fmt: skip
# Tournament colour-ups and the chip race (CR-CU.1-4), and a cash player's colour-up (CR-CU.5).
_same(("colour-up", "colour up", "colours up", "chip race"), "color up", "color-up",
      "color ups", "colour up", "colour-up", "colour ups", "colour-ups", "coloring up",
      "colouring up", "colored up", "coloured up", "colour up chips", "color up chips",
      "chip up", "chipping up", "remove chips", "removing chips", "chip removal",
      "change chips", "change for bigger chips")  # fmt: skip
_same(("chip race", "raced", "race"), "chip race", "chip races", "race off", "racing off",
      "race off chips", "raced off", "race for chips", "race the chips", "chip racing",
      "raced out", "odd chips at the break")  # fmt: skip

#: What the floor asks about that none of the bundled source texts covers (Cardroom's own
#: procedures and house rules answer some of them). Each stays one phrase, so a search for it
#: finds a rule that names it, or nothing: never a rule that only shares a word with it
#: ("button ante" is not the odd-chip rule's "button").
NOT_IN_THE_BOOKS = frozenset({
    "moving button", "rabbit hunting", "rabbit hunt", "one player to a hand", "button ante",
    "exposed card", "exposed cards", "card exposed", "cards exposed", "boxed card",
    "color up", "colour up", "chip race", "hand for hand", "soft play", "chip dumping",
    "cell phone", "mobile phone", "english only", "late registration", "time bank",
    "dodging blinds", "deck change", "fouled hand", "protect your hand", "at your seat",
})  # fmt: skip

#: Words too common to help: PostgreSQL's English stop words (it drops them itself; FTS5 would
#: require them, so both backends read a query alike) and a few more.
STOPWORDS = frozenset({
    "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
    "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but",
    "by", "can", "could", "did", "do", "does", "doing", "don", "down", "during", "each", "few",
    "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
    "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its",
    "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of",
    "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own",
    "s", "same", "she", "should", "so", "some", "such", "t", "than", "that", "the", "their",
    "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those",
    "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
    "yours", "yourself", "yourselves",
    # Contractions, as typed on a phone.
    "can't", "cannot", "didn't", "doesn't", "don't", "isn't", "wasn't", "won't", "wouldn't",
    "couldn't", "shouldn't", "hasn't", "haven't", "i'm", "it's", "he's", "she's",
})  # fmt: skip
#: How a question is put rather than what it is about ("what happens when a player …"):
#: dropped when the query has other words, searched when it has nothing else.
QUESTION_WORDS = frozenset({
    "player", "players", "someone", "somebody", "anyone", "guy", "person", "rule", "rules",
    "ruling", "happens", "happen", "happened", "allowed", "legal", "ok", "okay", "mean",
    "means", "meaning", "define", "definition", "explain", "get", "gets", "got", "still",
    "please", "tell", "need", "needs", "want", "wants", "wanted", "may", "might", "must",
    "supposed", "happening", "correct", "proper", "floor", "td", "situation", "question",
    "whether", "cash", "game",
})  # fmt: skip

WORD = re.compile(r"[a-z0-9]+(?:['\-.][a-z0-9]+)*")
TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')
#: Longest first, so "single oversized chip" wins over "oversized chip" in one pass.
FLOOR_PHRASES = sorted(
    {p for p in (*SYNONYMS, *NOT_IN_THE_BOOKS) if " " in p}, key=len, reverse=True
)
#: A quoted part of the query (left as typed) or a floor phrase (to be quoted).
_PHRASE = re.compile(
    r'"[^"]*"?|(?<![\w\-])(' + "|".join(map(re.escape, FLOOR_PHRASES)) + r")(?![\w\-])"
)


@dataclass(frozen=True)
class Term:
    """One piece of a query: words (a phrase when several), with the alternatives any of which
    may match instead, joined to the term before by ``or``, or excluded."""

    text: str
    alternatives: tuple[str, ...] = ()
    exclude: bool = False
    joined_by_or: bool = False
    #: The last word while someone is still typing it ("strad" finds "straddle").
    prefix: bool = False

    @property
    def options(self) -> tuple[str, ...]:
        return (self.text, *(a for a in self.alternatives if a != self.text))

    def with_alternative(self, word: str) -> Term:
        return replace(self, alternatives=(*self.alternatives, word))


def parse_query(query: str) -> list[Term]:
    # Floor phrases ("min raise", "run it twice") become one quoted term before splitting;
    # what the user quoted stays as typed.
    raw = _PHRASE.sub(
        lambda m: f'"{m.group(1)}"' if m.group(1) else m.group(0), " ".join(query.lower().split())
    )
    typing = bool(query) and not query[-1].isspace() and not query.rstrip().endswith('"')
    found = list(TOKEN.finditer(raw))
    terms: list[Term] = []
    pending_or = False
    for index, match in enumerate(found):
        negated, quoted, bare = match.group(1), match.group(2), match.group(3)
        if bare in {"or", "|"}:
            pending_or = bool(terms)
            continue
        exclude = bool(negated) or (bare is not None and bare.startswith("-") and len(bare) > 1)
        words = WORD.findall(quoted if quoted is not None else bare.lstrip("-"))
        if not words:
            continue
        text = " ".join(words)
        if quoted is None and len(words) == 1 and text in STOPWORDS:
            continue
        last = index == len(found) - 1
        terms.append(
            Term(
                text=text,
                alternatives=SYNONYMS.get(text, ()),
                exclude=exclude,
                joined_by_or=pending_or and not exclude,
                prefix=typing
                and last
                and quoted is None
                and not exclude
                and len(words) == 1
                and len(text) > 1,
            )
        )
        pending_or = False
    return _without_question_words(terms)


def _without_question_words(terms: list[Term]) -> list[Term]:
    """ "what happens when a player acts out of turn" searches for "acts" and "out of turn"."""

    def filler(term: Term) -> bool:
        return not term.exclude and term.text in QUESTION_WORDS and not term.alternatives

    if all(filler(term) or term.exclude for term in terms):
        return terms
    kept = [term for term in terms if not filler(term)]
    # An "or" joined to a dropped word joins nothing.
    return [
        replace(term, joined_by_or=False) if index == 0 and term.joined_by_or else term
        for index, term in enumerate(kept)
    ]


# --- citations typed as such -----------------------------------------------------------------

BOOKS = {
    "rrop": "RRoP", "robert's": "RRoP", "roberts": "RRoP", "rr": "RRoP",
    "tda": "TDA", "bh": "BH", "house": "HOUSE",
}  # fmt: skip
#: "TDA 45", "tda-45", "TDA45", "rule 45", "14.3", "RRoP BR.15", "br 15", "TDA 2013 rule 41".
CITATION = re.compile(
    r"^\s*(?:(?P<book>rrop|robert'?s|rr|tda|bh|house)(?=[\s\-\d])[\s\-]*)?"
    r"(?:(?P<year>(?:19|20)\d\d)[\s\-]+)?(?:rules?\s*|no\.?\s*|#\s*)?"
    r"(?P<section>[a-z]{1,3}(?=[\s.\-]?\d))?[\s.\-]?(?P<number>\d{1,3}(?:\.\d{1,3})?)\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class TypedCitation:
    book: str | None
    number: str
    #: An edition year ("TDA 2013 rule 41"): look the number up among other editions only.
    year: str | None = None

    def candidates(self) -> list[str]:
        books = [self.book] if self.book else ["TDA", "RRoP", "BH", "HOUSE"]
        return [f"{book}-{self.number}" for book in books]


def parse_citation(query: str) -> TypedCitation | None:
    match = CITATION.match(query)
    if not match:
        return None
    book = match.group("book")
    number = match.group("number")
    if section := match.group("section"):
        number = f"{section.upper()}.{number}"
    return TypedCitation(
        book=BOOKS[book.lower()] if book else None, number=number, year=match.group("year")
    )
