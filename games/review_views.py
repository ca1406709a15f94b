"""Review pages and data for the browser client: replay, XML export, public move list,
variant facts. Every position shown is computed by the engine from the stored setups and
moves; nothing here decides a rule.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from . import engine
from .domain import words
from .domain.models import Game, Move
from .services import game_records

OVER = (Game.Status.FINISHED, Game.Status.ABORTED)
XML_VARIANTS = ("classic", "barrage", "duel")  # StraDoS2 has no game type for mini


def public_move(move: Move) -> dict:
    """A stored move as the protocol's public move dict: ranks only when a battle showed them."""
    battle = None
    if move.battle_result:
        battle = {
            "attacker": move.attacker_rank,
            "defender": move.defender_rank,
            "result": move.battle_result,
        }
    return {
        "ply": move.ply,
        "color": move.color,
        "from": move.from_square,
        "to": move.to_square,
        "notation": move.notation,
        "battle": battle,
    }


def initial_setups(stored: engine.Game) -> tuple[dict[int, int], dict[int, int]]:
    """Both setups as the game began, or two empty dicts if it never left its setup."""
    if not stored.units:
        return {}, {}
    return stored.initial_setups()


def full_board(eg: engine.Game) -> list[dict | None]:
    """Every piece with its rank: only ever sent for finished games."""
    return [
        {
            "color": unit.color,
            "rank": unit.rank,
            "moved": unit.moved,
            "revealed": unit.revealed,
            "scout": unit.scout_known,
        }
        if unit is not None
        else None
        for unit in eg.board
    ]


def replay_frames(game: Game) -> tuple[engine.Game | None, list[dict]]:
    """The engine replays the stored moves from the initial setups; one frame per position."""
    stored = engine.Game.from_dict(game.state)
    red, blue = initial_setups(stored)
    if not red or not blue:
        return None, []
    # The stored variant carries the game's own rules (an archive duell's, say), not ours.
    eg = engine.Game.from_setups(stored.variant, red, blue)

    def frame(move: dict | None) -> dict:
        return {
            "ply": eg.ply,
            "board": full_board(eg),
            "move": move,
            "captured": [list(c) for c in eg.captured],
            "turn": eg.turn,
        }

    frames = [frame(None)]
    for row in game.moves.order_by("ply"):
        result = eg.push(engine.Move(row.from_square, row.to_square), row.color)
        frames.append(frame(result.to_public_dict(eg.variant)))
    return eg, frames


def game_result(game: Game) -> dict | None:
    if not game.termination:
        return None
    return {"winner": game.winner, "termination": game.termination}


def finished_game(game_id: str) -> Game:
    game = get_object_or_404(Game, public_id=game_id)
    if game.status not in OVER:
        raise Http404("a game can be reviewed once it is over")
    return game


def has_record(game: Game) -> bool:
    """Whether the game has a StraDoS2 record to download: over, of a variant the format
    holds, and played (its setups complete), not cancelled before it began."""
    played = game.started is not None or game.ply > 0
    return game.status in OVER and game.variant in XML_VARIANTS and played


def xml_note(game: Game, frames: list[dict]) -> str:
    """Why a finished game has no StraDoS2 download ("" when it has one)."""
    if game.variant not in XML_VARIANTS:
        return _("No StraDoS2 XML: the format has no game type for %(variant)s") % {
            "variant": words.variant_name(game.variant)
        }
    if not frames:
        if game.status == Game.Status.ABORTED:
            return _("No StraDoS2 XML: the game was cancelled before it started")
        return _("No StraDoS2 XML: the game never left its setup")
    return ""


@require_GET
@gzip_page  # every position is embedded: a 500-move game's 3 MB of JSON compress to ~1/20
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    game = finished_game(game_id)
    _, frames = replay_frames(game)
    data = {
        "id": game.public_id,
        "variant": game.variant,
        "width": engine.get_variant(game.variant).width,
        "height": engine.get_variant(game.variant).height,
        "lakes": sorted(engine.get_variant(game.variant).lakes),
        "seats": [game.red_name, game.blue_name],
        "result": game_result(game),
        "frames": frames,
    }
    context = {
        "game": game,
        "replay": data,
        "export_url": reverse("review:export_xml", args=[game.public_id]),
        "xml_available": game.variant in XML_VARIANTS and bool(frames),
        "xml_note": xml_note(game, frames),
    }
    return render(request, "games/replay.html", context)


@require_GET
def export_xml(request: HttpRequest, game_id: str) -> HttpResponse:
    game = finished_game(game_id)
    if game.variant in XML_VARIANTS and not has_record(game):
        context = {"title": "No record to download", "message": xml_note(game, [])}
        return render(request, "error.html", context, status=409)
    try:
        text = game_records.export_xml(game)
    except engine.NotationError as exc:
        context = {"title": "No record to download", "message": str(exc)}
        return render(request, "error.html", context, status=409)
    response = HttpResponse(text, content_type="application/xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="stratego-{game.public_id}.xml"'
    return response


@require_GET
def moves_json(request: HttpRequest, game_id: str) -> JsonResponse:
    """The public move list of any game (battles are public; quiet moves carry no rank)."""
    game = get_object_or_404(Game, public_id=game_id)
    return JsonResponse({"moves": [public_move(m) for m in game.moves.order_by("ply")]})


@require_GET
def variant_info(request: HttpRequest, name: str) -> JsonResponse:
    """The board facts a client draws with: size, lakes, setup areas, army."""
    try:
        variant = engine.get_variant(name)
    except engine.NotationError as exc:
        raise Http404(str(exc)) from exc
    return JsonResponse(
        {
            "name": variant.name,
            "title": variant.title,
            "width": variant.width,
            "height": variant.height,
            "lakes": sorted(variant.lakes),
            "setup_rows": variant.setup_rows,
            "setup_squares": [list(variant.setup_squares(c)) for c in engine.COLORS],
            "army": {str(rank): count for rank, count in variant.army},
            "flag_on_back_row": variant.flag_on_back_row,
        }
    )
