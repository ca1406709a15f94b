"""The tutorial's lessons: small positions on the 5x5 board, the learner's goal, and the
scripted answers of the other side. Every move is judged by the engine (learn/tutor.py):
nothing here is a rule, only where the pieces stand and what the lesson asks for.

Squares are the engine's: row * 5 + col, row 0 the learner's (Red's) back row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from games import engine

R, B = engine.RED, engine.BLUE
(SPY, SCOUT, MINER, SERGEANT, LIEUTENANT, CAPTAIN, MAJOR, COLONEL, GENERAL, MARSHAL, BOMB,
 FLAG) = range(1, 13)  # fmt: skip


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: object  # a lazily translated string
    intro: object
    done: object
    position: dict[int, tuple[int, int]] = field(default_factory=dict)
    # What the lesson asks: "reach" (a piece of `piece` rank on `target`), "capture" (win a
    # battle against `target_rank`), "win" (take the flag), "refused" (meet the engine's
    # refusal `code`), "setup" (the flag on the back row with a bomb beside it).
    goal: str = "reach"
    piece: int | None = None
    target: int | None = None
    target_rank: int | None = None
    code: str = ""
    replies: tuple[tuple[int, int], ...] = ()  # the other side's moves, in turn, cycling
    rules: dict = field(default_factory=dict)
    # A battle the learner's piece loses ends the try (the lesson starts again) with this:
    lost: object = ""

    def variant(self) -> engine.Variant:
        return engine.get_variant("mini").with_rules(**self.rules)


# The other side circles in a corner (never back and forth, so no rule stops it).
CIRCLE_LEFT = ((20, 21), (21, 16), (16, 15), (15, 20))
CIRCLE_RIGHT = ((24, 23), (23, 18), (18, 19), (19, 24))

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "moving",
        _("Moving"),
        _(
            "A piece moves one square at a time: forward, back, left or right, never diagonally. "
            "Tap your Sergeant, then a marked square. Bring it to the star."
        ),  # fmt: skip
        _("Well done: one square a turn, in a straight line. Each turn you move one piece."),
        {2: (R, SERGEANT), 0: (R, FLAG), 20: (B, LIEUTENANT), 24: (B, FLAG)},
        goal="reach",
        piece=SERGEANT,
        target=17,
        replies=CIRCLE_LEFT,
    ),
    Lesson(
        "scout",
        _("The Scout's run"),
        _(
            "The Scout (2) runs as far as it likes in a straight line over free squares, but never "
            "jumps over a piece. Reach the star in one move."
        ),  # fmt: skip
        _("The Scout is the fastest piece: use it to find out what the other side's pieces are."),
        {1: (R, SCOUT), 0: (R, FLAG), 13: (B, SERGEANT), 24: (B, FLAG)},
        goal="reach",
        piece=SCOUT,
        target=21,
        replies=((13, 14), (14, 13)),
        rules={"two_squares_limit": None},
    ),
    Lesson(
        "battles",
        _("Battles"),
        _(
            "Move onto an enemy piece to attack it. Both ranks are shown: the higher number wins "
            "and stays, the lower leaves the board; equal ranks both leave. Attack the Lieutenant "
            "(5) with your Captain (6)."
        ),  # fmt: skip
        _(
            "Your Captain won. Attack only what you can beat: a piece you have not seen in battle "
            "may be stronger."
        ),  # fmt: skip
        {12: (R, CAPTAIN), 0: (R, FLAG), 17: (B, LIEUTENANT), 19: (B, MAJOR), 24: (B, FLAG)},
        goal="capture",
        target_rank=LIEUTENANT,
        replies=((19, 14), (14, 19)),
        rules={"two_squares_limit": None},
        lost=_("Your Captain lost that battle: the Major (7) is stronger. Try again."),
    ),
    Lesson(
        "bombs",
        _("Bombs and Miners"),
        _(
            "A Bomb never moves, and any piece that attacks it is blown up, except the Miner (3), "
            "who defuses it. Clear a Bomb with your Miner."
        ),  # fmt: skip
        _(
            "The Miner defused the Bomb. Keep your Miners: they open the way to a Flag hidden "
            "behind Bombs."
        ),  # fmt: skip
        {
            11: (R, MINER),
            13: (R, CAPTAIN),
            0: (R, FLAG),
            16: (B, BOMB),
            18: (B, BOMB),
            24: (B, SERGEANT),
            22: (B, FLAG),
        },  # fmt: skip
        goal="capture",
        target_rank=BOMB,
        piece=MINER,
        replies=((24, 23), (23, 24)),
        rules={"two_squares_limit": None},
        lost=_("Boom: only a Miner survives a Bomb. Try again with the Miner."),
    ),
    Lesson(
        "spy",
        _("The Spy and the Marshal"),
        _(
            "The Marshal (10) beats every piece, except one: the Spy (S) takes it, but only when "
            "the Spy attacks. Take the Marshal with your Spy."
        ),  # fmt: skip
        _(
            "The Spy took the Marshal. Keep your Spy close to a strong piece: if the Marshal "
            "attacks first, the Spy is lost."
        ),  # fmt: skip
        {12: (R, SPY), 0: (R, FLAG), 17: (B, MARSHAL), 24: (B, SERGEANT), 22: (B, FLAG)},
        goal="capture",
        target_rank=MARSHAL,
        piece=SPY,
        replies=((24, 23), (23, 24)),
        rules={"two_squares_limit": None, "spy_beats": [MARSHAL]},
    ),
    Lesson(
        "flag",
        _("The Flag"),
        _(
            "Capture the enemy Flag and you win. The Flag never moves and usually hides behind "
            "Bombs. Find the way around them with your Colonel."
        ),  # fmt: skip
        _(
            "You captured the Flag and won the game. A game is also won when the other side has no "
            "piece left that can move."
        ),  # fmt: skip
        {
            7: (R, COLONEL),
            0: (R, FLAG),
            17: (B, BOMB),
            21: (B, BOMB),
            22: (B, FLAG),
            20: (B, SERGEANT),
        },  # fmt: skip
        goal="win",
        replies=((20, 15), (15, 20)),
        rules={"two_squares_limit": None},
        lost=_("Your Colonel hit a Bomb. Go around the Bombs. Try again."),
    ),
    Lesson(
        "two-squares",
        _("The two-squares rule"),
        _(
            "So that nobody can play for time, a piece may not move back and forth between the "
            "same two squares again and again: three times in a row here, five in a classic game. "
            "Move your Lieutenant back and forth until it is refused."
        ),  # fmt: skip
        _("Refused, as in every game. Move another piece, or the same one somewhere else."),
        {12: (R, LIEUTENANT), 0: (R, FLAG), 24: (B, FLAG), 20: (B, SERGEANT)},
        goal="refused",
        code="two_squares",
        replies=CIRCLE_LEFT,
    ),
    Lesson(
        "setup",
        _("A first setup"),
        _(
            "Before the battle each side places its army on its own two rows, hidden from the "
            "other side. Put your Flag on the back row, then a Bomb beside it. The rest can go "
            "anywhere: tap “Random setup” for them in a real game."
        ),  # fmt: skip
        _("A guarded Flag: that is a setup. Now play a real game against the computer."),
        goal="setup",
    ),
)

BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}
