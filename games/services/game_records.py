"""Game records in and out of the database, through the engine's records module.

Importing replays a record through the engine (`engine.records.replay`) and stores the
finished game, one Move row per move; exporting builds the record from the stored setups
and Move rows. The rules are never looked at here: the engine decides.
"""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils import timezone

from .. import engine
from ..domain.models import BLUE, RED, Game, Move
from ..engine.records import GameRecord, RecordError, parse_record, replay, write_xml

NAME_LENGTH = Game._meta.get_field("red_name").max_length or 150
DEFAULT_NAMES = ("Red player", "Blue player")


class NotFinished(RecordError):
    """A record whose game neither ended by the rules nor says how it ended."""


class AlreadyImported(Exception):
    def __init__(self, game: Game) -> None:
        super().__init__(f"already imported as game {game.public_id}")
        self.game = game


def import_record_bytes(data: bytes) -> Game:
    """Parse, replay and store one record; NotationError (RecordError included) if refused,
    AlreadyImported if a file with the same bytes was imported before."""
    digest = hashlib.sha256(data).hexdigest()
    earlier = Game.objects.filter(source_sha256=digest).first()
    if earlier is not None:
        raise AlreadyImported(earlier)
    record = parse_record(data)
    played = replay(record)
    if played.outcome is None:
        raise NotFinished(
            "the record has no result and the game is not over after its "
            f"{len(record.moves)} moves",
            code="unfinished",
        )
    return store_game(record, played, digest)


def seat_names(record: GameRecord) -> tuple[str, str]:
    names = (name.strip()[:NAME_LENGTH] for name in record.players)
    red, blue = (name or default for name, default in zip(names, DEFAULT_NAMES, strict=True))
    return red, blue


def store_game(record: GameRecord, played: engine.Game, source_sha256: str = "") -> Game:
    """One finished Game row and its Move rows, in one transaction.

    Imported games are private so that an archive does not flood the lobby's list of finished
    games; the admin and the replay page find them by id.
    """
    outcome = played.outcome
    assert outcome is not None
    red_name, blue_name = seat_names(record)
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            variant=played.variant.name,
            status=Game.Status.FINISHED,
            private=True,
            red_name=red_name,
            blue_name=blue_name,
            state=played.to_dict(),
            ply=played.ply,
            winner=outcome.winner,
            termination=outcome.termination,
            started=now,
            finished=now,
            source_sha256=source_sha256,
        )
        Move.objects.bulk_create([move_row(game, played.variant, r) for r in played.history])
    return game


def move_row(game: Game, variant: engine.Variant, result: engine.MoveResult) -> Move:
    """The Move row of a played move, as the game service writes it."""
    battle = result.battle
    return Move(
        game=game,
        ply=result.ply,
        from_square=result.move.src,
        to_square=result.move.dst,
        notation=engine.move_name(result.move, variant),
        color=result.color,
        attacker_rank=result.rank,
        defender_rank=battle.defender if battle else None,
        battle_result=battle.result if battle else "",
    )


def record_of(game: Game) -> GameRecord:
    """The record of a stored game: its initial setups, its Move rows and its result."""
    stored = engine.Game.from_dict(game.state)
    red, blue = stored.initial_setups()
    if not stored.units:
        raise engine.NotationError("the game never left its setup phase")
    outcome = None
    if game.termination in engine.TERMINATIONS and game.winner in (RED, BLUE, None):
        outcome = engine.Outcome(game.winner, game.termination)
    moves = tuple(
        engine.Move(src, dst)
        for src, dst in game.moves.order_by("ply").values_list("from_square", "to_square")
    )
    return GameRecord(
        variant=game.variant,
        red_setup=dict(red),
        blue_setup=dict(blue),
        moves=moves,
        players=(game.red_name, game.blue_name),
        result=outcome,
    )


def export_xml(game: Game) -> str:
    """The StraDoS2 XML of a stored game; NotationError for a variant XML cannot hold."""
    return write_xml(record_of(game))
