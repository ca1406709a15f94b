"""A lesson played out: the learner's moves so far and the one tried now, each judged by the
engine, the other side's scripted answers, and what the lesson says next. Stateless: the page
sends every move of the try, and the position is rebuilt from the lesson's start."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games import engine

from .lessons import BY_SLUG, Lesson

MAX_MOVES = 40  # a try longer than this starts again


class LessonError(ValueError):
    """A request the tutorial cannot read (not a move the engine refuses)."""


@dataclass
class Outcome:
    status: str = "playing"  # "playing", "done" or "failed" (the try starts again)
    say: str = ""
    refused: str = ""  # the engine's refusal of the move tried, in words
    moves: list[list[int]] = field(default_factory=list)  # the learner's moves kept
    placements: list[list[int]] = field(default_factory=list)
    battle: dict | None = None
    last_move: list[int] | None = None


def lesson(slug: str) -> Lesson:
    try:
        return BY_SLUG[slug]
    except KeyError:
        raise LessonError(f"no lesson {slug!r}") from None


def start(the: Lesson) -> engine.Game:
    if the.goal == "setup":
        return engine.Game(the.variant())
    return engine.Game.from_position(the.variant(), the.position, turn=engine.RED)


def pairs(raw: object, name: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list) or len(raw) > MAX_MOVES:
        raise LessonError(f"{name}: a list of at most {MAX_MOVES} pairs")
    out = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 2 and all(type(n) is int for n in item)):
            raise LessonError(f"{name}: each item is two whole numbers")
        out.append((item[0], item[1]))
    return out


def play(slug: str, moves: object, tried: object = None) -> tuple[engine.Game, Outcome]:
    """Replay `moves` (each followed by the scripted answer), then try `tried`."""
    the = lesson(slug)
    game = start(the)
    if the.goal == "setup":
        return place(the, game, pairs(moves, "placements"), tried)
    kept = pairs(moves, "moves")
    for index, move in enumerate(kept):
        try:
            game.push(engine.Move(*move), engine.RED)
        except engine.IllegalMoveError as exc:
            raise LessonError(f"move {index + 1} is not legal: {exc}") from None
        answer(the, game, index)
    outcome = Outcome(moves=[list(m) for m in kept])
    if tried is None:
        outcome.say = str(the.intro)
        return game, outcome
    move = pairs([tried], "tried")[0]
    try:
        game.check_move(engine.Move(*move), engine.RED)
    except engine.IllegalMoveError as exc:
        outcome.refused = refusal_words(exc)
        if the.goal == "refused" and exc.code == the.code:
            outcome.status, outcome.say = "done", str(the.done)
        else:
            outcome.say = str(the.intro)
        return game, outcome
    mover = game.board[move[0]]
    result = game.push(engine.Move(*move), engine.RED)
    outcome.moves.append(list(move))
    outcome.last_move = list(move)
    outcome.battle = result.battle.to_dict() if result.battle else None
    judge(the, game, mover, move, result, outcome)
    if outcome.status == "playing":
        answer(the, game, len(outcome.moves) - 1)
        if game.outcome is not None and game.outcome.winner != engine.RED:
            outcome.status, outcome.say = "failed", _("The other side won. Try again.")
    return game, outcome


def judge(
    the: Lesson, game: engine.Game, mover: object, move: tuple[int, int],
    result: engine.MoveResult, outcome: Outcome,
) -> None:  # fmt: skip
    """Whether the move just played reaches the lesson's goal, or loses the try."""
    battle = result.battle
    lost = battle is not None and battle.result != "attacker"
    won = battle is not None and battle.result == "attacker"
    rank = getattr(mover, "rank", None)
    reached = {
        "reach": move[1] == the.target and (the.piece is None or rank == the.piece),
        "capture": won
        and battle.defender == the.target_rank
        and (the.piece is None or rank == the.piece),
        "win": game.outcome is not None and game.outcome.winner == engine.RED,
    }.get(the.goal, False)
    if reached:
        outcome.status, outcome.say = "done", str(the.done)
    elif lost and the.lost:
        outcome.status, outcome.say = "failed", str(the.lost)
    elif len(outcome.moves) >= MAX_MOVES:
        outcome.status, outcome.say = "failed", _("That took long: let us start again.")
    else:
        outcome.say = str(the.intro)


def answer(the: Lesson, game: engine.Game, index: int) -> None:
    """The other side's scripted move; if the learner stands in its way, its first legal one."""
    if game.outcome is not None or game.turn != engine.BLUE:
        return
    scripted = engine.Move(*the.replies[index % len(the.replies)]) if the.replies else None
    if scripted is None or not game.is_legal(scripted):
        moves = game.legal_moves()
        if not moves:
            return
        scripted = moves[0]
    game.push(scripted, engine.BLUE)


def place(
    the: Lesson, game: engine.Game, placements: list[tuple[int, int]], tried: object
) -> tuple[engine.Game, Outcome]:
    """The setup lesson: the learner's pieces placed through the engine, then the goal."""
    outcome = Outcome(placements=[list(p) for p in placements], say=str(the.intro))
    for square, rank in placements:
        try:
            game.place(engine.RED, square, rank)
        except engine.SetupError as exc:
            raise LessonError(f"placement not allowed: {exc}") from None
    if tried is not None:
        square, rank = pairs([tried], "tried")[0]
        try:
            game.place(engine.RED, square, rank)
            outcome.placements.append([square, rank])
        except engine.SetupError as exc:
            outcome.refused = refusal_words(exc)
    setup = game.setups[engine.RED]
    width = game.variant.width
    flags = [sq for sq, rank in setup.items() if rank == engine.FLAG]
    guarded = any(
        setup.get(n) == engine.BOMB
        for sq in flags
        for n in (
            sq - width,
            sq + width,
            sq - 1 if sq % width else -1,
            sq + 1 if sq % width < width - 1 else -1,
        )  # fmt: skip
    )
    if flags and guarded:
        outcome.status, outcome.say = "done", str(the.done)
    return game, outcome


def refusal_words(exc: engine.EngineError) -> str:
    """The engine's reason, as a sentence."""
    text = str(getattr(exc, "message", "") or exc)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def board_of(game: engine.Game, the: Lesson) -> list[dict | None]:
    """Every piece with its rank (a lesson hides nothing), as the board code draws a view."""
    if the.goal == "setup":
        view = game.view(engine.RED).to_dict()
        return view["board"]
    board: list[dict | None] = [None] * game.variant.size
    for square, unit in enumerate(game.board):
        if unit is not None:
            board[square] = {"color": unit.color, "rank": unit.rank, "moved": unit.moved,
                             "revealed": True, "scout": False}  # fmt: skip
    return board


def state(slug: str, moves: object, tried: object = None) -> dict:
    """What the tutorial page draws: the board, the learner's legal moves, the words."""
    the = lesson(slug)
    game, outcome = play(slug, moves, tried)
    view = game.view(engine.RED).to_dict()
    legal = view["legal_moves"] if outcome.status == "playing" and the.goal != "setup" else []
    marks = [the.target] if the.goal == "reach" and the.target is not None else []
    return {
        "lesson": the.slug,
        "width": view["width"],
        "height": view["height"],
        "lakes": view["lakes"],
        "board": board_of(game, the),
        "legal_moves": legal,
        "remaining": view.get("remaining") if the.goal == "setup" else None,
        "setup_squares": sorted(game.variant.setup_squares(engine.RED))
        if the.goal == "setup"
        else [],
        "marks": marks,
        "status": outcome.status,
        "say": outcome.say,
        "refused": outcome.refused,
        "moves": outcome.moves,
        "placements": outcome.placements,
        "battle": outcome.battle,
        "last_move": outcome.last_move,
    }
