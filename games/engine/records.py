"""Game records: the 100-character field, StraDoS2 XML and Gravon GSN, read and written.

The formats are described in `../shared/reference/records.md`. Reading a record gives a
`GameRecord` (what the file says); `replay(record)` pushes every move through the engine
and returns the `Game`, or raises `RecordError` naming the first illegal move.

Decisions where the formats say nothing precise (see also docs/records.md):

* Result types: 0 no_moves, 1 flag_captured, 2 no_moves_both, 3 resignation, 4 agreed_draw,
  10 time, 11-14 forfeit (a player left). When writing: resignation 3, time 10, forfeit 11,
  and move_cap 4 (a draw; on reading, the engine's own move_cap ending is kept).
* XML winner 1 Red, 2 Blue, 3 draw. GSN winner 0 Red, 1 Blue; for a draw we write 2, and on
  reading a draw type (2 or 4) the GSN winner is ignored.
* Game types: XML classic, barrage, duell -> duel, classicfree -> classic; GSN 0 classic,
  1 barrage, 2 classic (free setup). Ultimate lightning has no variant here: NotationError.
* Rules: a record is judged by the rules of its source (`record_rules`, RECORD_RULES: no
  move caps; duell plays the two-squares rule, not Duel's return rule), and kept under
  this server's rules when they accept it too (docs/rules.md, "Records from other servers").
* Both formats are for the 10x10 board: mini games cannot be written (NotationError).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import IllegalMoveError, NotationError, SetupError
from .game import Game, Outcome
from .notation import Move, move_name, parse_move, parse_square, square_name
from .pieces import (
    BLUE,
    BOMB,
    CAPTAIN,
    COLONEL,
    FLAG,
    GENERAL,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
)
from .placement import validate_setup
from .results import Termination
from .variants import VARIANTS, Variant, get_variant

# ----------------------------------------------------------------------------- field string

_CODE_RANKS = (
    BOMB,
    SPY,
    SCOUT,
    MINER,
    SERGEANT,
    LIEUTENANT,
    CAPTAIN,
    MAJOR,
    COLONEL,
    GENERAL,
    MARSHAL,
    FLAG,
)
RED_CODES = "BCDEFGHIJKLM"
BLUE_CODES = "NOPQRSTUVWXY"
EMPTY, LAKE = "A", "_"
RED_CODE_RANKS: dict[str, int] = dict(zip(RED_CODES, _CODE_RANKS, strict=True))  # Gravon's letters
_DECODE: dict[str, tuple[int, int]] = {
    **{code: (RED, rank) for code, rank in zip(RED_CODES, _CODE_RANKS, strict=True)},
    **{code: (BLUE, rank) for code, rank in zip(BLUE_CODES, _CODE_RANKS, strict=True)},
}
_ENCODE = {value: code for code, value in _DECODE.items()}

Setup = dict[int, int]


def _as_variant(variant: Variant | str) -> Variant:
    return get_variant(variant) if isinstance(variant, str) else variant


def parse_field(text: str, variant: Variant | str = "classic") -> tuple[Setup, Setup]:
    """Red's and Blue's setups ({square: rank}) from a field string.

    Lower case (revealed pieces, as some engines write them) reads as upper case; `A` is an
    empty square and `_` a lake. Only the characters are checked here, not the armies.
    """
    variant = _as_variant(variant)
    if not isinstance(text, str):
        raise NotationError(
            f"a field is a string of {variant.size} characters, not {type(text).__name__}"
        )
    text = text.strip()
    if len(text) != variant.size:
        raise NotationError(
            f"a {variant.name} field has {variant.size} characters, this one has {len(text)}"
        )
    setups: tuple[Setup, Setup] = ({}, {})
    for square, char in enumerate(text):
        _read_field_char(char, square, variant, setups)
    return setups


def _read_field_char(char: str, square: int, variant: Variant, setups: tuple[Setup, Setup]) -> None:
    where = f"character {square + 1} of the field ({square_name(square, variant)})"
    if char == LAKE:
        if square not in variant.lakes:
            raise NotationError(f"{where} is a lake '_', but there is no lake there")
        return
    code = char.upper()
    if code == EMPTY:
        return
    if code not in _DECODE:
        raise NotationError(f"{where} is {char!r}, which is no piece, 'A' or '_'")
    if square in variant.lakes:
        raise NotationError(f"{where} is a lake, but holds the piece {char!r}")
    color, rank = _DECODE[code]
    setups[color][square] = rank


def field_string(
    red: Mapping[int, int], blue: Mapping[int, int], variant: Variant | str = "classic"
) -> str:
    """The field string of two setups: upper case pieces, `A` empty, `_` lakes."""
    variant = _as_variant(variant)
    chars = [LAKE if sq in variant.lakes else EMPTY for sq in range(variant.size)]
    for color, setup in ((RED, red), (BLUE, blue)):
        for square, rank in setup.items():
            if not variant.is_on_board(square) or square in variant.lakes:
                raise NotationError(
                    f"square {square} cannot hold a piece on a {variant.name} board"
                )
            if chars[square] != EMPTY:
                raise NotationError(f"two pieces on {square_name(square, variant)}")
            if (color, rank) not in _ENCODE:
                raise NotationError(f"unknown rank {rank!r}")
            chars[square] = _ENCODE[(color, rank)]
    return "".join(chars)


# ----------------------------------------------------------------------------- results

RESULT_TERMINATIONS = {
    0: "no_moves",
    1: "flag_captured",
    2: "no_moves_both",
    3: "resignation",
    4: "agreed_draw",
    10: "time",
    11: "forfeit",
    12: "forfeit",
    13: "forfeit",
    14: "forfeit",
}
TERMINATION_TYPES = {
    "no_moves": 0,
    "flag_captured": 1,
    "no_moves_both": 2,
    "resignation": 3,
    "agreed_draw": 4,
    "move_cap": 4,
    "time": 10,
    "forfeit": 11,
}
_DRAW_TYPES = frozenset({2, 4})
_DECISIVE_TYPES = frozenset({0, 1, 3})
# Endings the engine finds by itself while replaying; the others are applied from the record.
ENGINE_TERMINATIONS = frozenset({"flag_captured", "no_moves", "no_moves_both", "move_cap"})
XML_WINNERS = {1: RED, 2: BLUE, 3: None}
GSN_WINNERS = {0: RED, 1: BLUE}


def result_outcome(result_type: int, winner: int | None) -> Outcome:
    """The engine's Outcome for a record's result type and winner (RED, BLUE or None)."""
    if result_type not in RESULT_TERMINATIONS:
        known = ", ".join(str(t) for t in RESULT_TERMINATIONS)
        raise NotationError(f"unknown result type {result_type}; known types: {known}")
    if result_type in _DRAW_TYPES and winner is not None:
        raise NotationError(f"result type {result_type} is a draw, but the record names a winner")
    if result_type in _DECISIVE_TYPES and winner is None:
        raise NotationError(f"result type {result_type} needs a winner, but the record says draw")
    return Outcome(winner, Termination(RESULT_TERMINATIONS[result_type]))


def describe_outcome(outcome: Outcome | None) -> str:
    if outcome is None:
        return "no result"
    who = (
        "a draw"
        if outcome.winner is None
        else ("Red wins" if outcome.winner == RED else "Blue wins")
    )
    return f"{who} by {outcome.termination}"


# ----------------------------------------------------------------------------- the record


@dataclass(frozen=True)
class GameRecord:
    """What a record file says: variant, both setups, the moves, players and result."""

    variant: str
    red_setup: Mapping[int, int]
    blue_setup: Mapping[int, int]
    moves: tuple[Move, ...] = ()
    players: tuple[str, str] = ("", "")
    result: Outcome | None = None
    result_type: int | None = None  # the record's own code, e.g. 1 for flag captured
    source_type: str = field(default="", compare=False)  # the game type as the file wrote it

    @classmethod
    def from_game(cls, game: Game, players: tuple[str, str] = ("", "")) -> GameRecord:
        """The record of a game played on this object (its `history` holds every move)."""
        if game.phase == "setup":
            raise NotationError("a game still in its setup phase has no record yet")
        if len(game.history) != game.ply:
            raise NotationError(
                f"this Game object holds {len(game.history)} of the game's {game.ply} "
                "moves (restored from a dict?); replay the moves to record it"
            )
        outcome = game.outcome
        return cls(
            variant=game.variant.name,
            red_setup=dict(game.setups[RED]),
            blue_setup=dict(game.setups[BLUE]),
            moves=tuple(result.move for result in game.history),
            players=players,
            result=outcome,
            result_type=TERMINATION_TYPES[outcome.termination] if outcome else None,
        )


class RecordError(NotationError):
    """A record whose moves or result the engine refuses.

    `move_number` (1-based) and `move_text` (`D4-D5`) name the first illegal move; both are
    None when the record's setups or result are wrong rather than a move.
    """

    def __init__(
        self,
        reason: str,
        move_number: int | None = None,
        move_text: str | None = None,
        code: str = "",
    ) -> None:
        self.reason = reason
        self.move_number = move_number
        self.move_text = move_text
        self.code = code
        where = f"move {move_number} ({move_text}): " if move_number is not None else ""
        super().__init__(where + reason)


def _check_setups(variant: Variant, red: Mapping[int, int], blue: Mapping[int, int]) -> None:
    for color, setup in ((RED, red), (BLUE, blue)):
        try:
            validate_setup(variant, color, setup)
        except SetupError as error:
            name = "Red" if color == RED else "Blue"
            raise RecordError(
                f"{name}'s setup is not a legal {variant.name} setup: {error.message}",
                code=error.code,
            ) from None


# The rules of the servers records come from, as overrides of this server's variants
# (docs/rules.md, "Records from other servers"): no move caps (ISF has none, and an archive
# game may have a long quiet stretch); Gravon's Duell plays the ISF two-squares rule, not
# Duel's return rule.
RECORD_RULES: dict[str, dict[str, object]] = {
    "classic": {"max_quiet_plies": None},
    "barrage": {"max_quiet_plies": None},
    "duel": {"two_squares_limit": 5, "return_after_moves": None, "max_plies": None},
}


def record_rules(variant: str) -> Variant:
    """The rules a record of `variant` from another server is replayed under."""
    return get_variant(variant).with_rules(**RECORD_RULES.get(variant, {}))


class _HouseRulesDiffer(Exception):
    """This server's rules end the game where the record does not."""


def replay(record: GameRecord, variant: Variant | None = None) -> Game:
    """Play the record through the engine and apply its result; RecordError if the rules refuse.

    With `variant`, exactly its rules apply. Without, a record is replayed under this server's
    rules for its variant when they accept it (so one of our own games comes back as it was
    played, move-cap draw included), and otherwise under the rules of the record's source
    (`record_rules`), whose verdict then stands."""
    if variant is not None:
        return _replay(record, variant)
    house, source = get_variant(record.variant), record_rules(record.variant)
    if house == source:
        return _replay(record, house)
    try:
        game = _replay(record, house)
        if record.result is None and game.outcome and game.outcome.termination == "move_cap":
            raise _HouseRulesDiffer
        return game
    except (RecordError, _HouseRulesDiffer):
        return _replay(record, source)


def _replay(record: GameRecord, variant: Variant) -> Game:
    _check_setups(variant, record.red_setup, record.blue_setup)
    game = Game.from_setups(variant, record.red_setup, record.blue_setup)
    for number, move in enumerate(record.moves, start=1):
        try:
            game.push(move)
        except IllegalMoveError as error:
            raise RecordError(
                error.message, number, _move_text(move, variant), error.code
            ) from None
    _apply_result(game, record)
    return game


def _move_text(move: Move, variant: Variant) -> str:
    try:
        return move_name(move, variant)
    except NotationError:
        return f"{move.src}-{move.dst}"


def _apply_result(game: Game, record: GameRecord) -> None:
    expected, actual = record.result, game.outcome
    if expected is None:
        return
    if actual is None:
        if expected.termination in ENGINE_TERMINATIONS:
            raise RecordError(
                f"the record says {describe_outcome(expected)}, but after its "
                f"{len(record.moves)} moves the game is not over",
                code="wrong_result",
            )
        game.end(expected)
        return
    if not _same_result(actual, expected):
        raise RecordError(
            f"the record says {describe_outcome(expected)}, but the game ends with "
            f"{describe_outcome(actual)} after move {game.ply}",
            code="wrong_result",
        )


def _same_result(actual: Outcome, expected: Outcome) -> bool:
    if actual.winner != expected.winner:
        return False
    # A move-cap draw is written as type 4 (draw), which reads back as an agreed draw.
    return actual.termination == expected.termination or (
        actual.termination == "move_cap" and expected.termination == "agreed_draw"
    )


# ----------------------------------------------------------------------------- XML (StraDoS2)

XML_TYPES = {
    "classic": "classic",
    "barrage": "barrage",
    "duell": "duel",
    "duel": "duel",
    "classicfree": "classic",
}
_XML_TYPE_OF_VARIANT = {"classic": "classic", "barrage": "barrage", "duel": "duell"}
_UNSUPPORTED_TYPES = {"ultimate lightning", "ultimatelightning", "ultimate"}


def _variant_from_type(game_type: str, table: Mapping[str, str]) -> str:
    key = game_type.strip().lower()
    if key in table:
        return table[key]
    if key in _UNSUPPORTED_TYPES:
        raise NotationError(
            f"game type {game_type!r} (ultimate lightning) is not played on this server"
        )
    raise NotationError(f"unknown game type {game_type!r}; known: {', '.join(sorted(table))}")


def _variant_from_army(red: Mapping[int, int], blue: Mapping[int, int]) -> str:
    """The variant whose army both setups hold, for records that give no game type."""
    for name in ("classic", "barrage", "duel"):
        army = Counter(VARIANTS[name].army_counts)
        if Counter(red.values()) == army and Counter(blue.values()) == army:
            return name
    raise NotationError("the record names no game type and its armies fit no variant")


def _xml_root(text: str | bytes) -> ET.Element:
    head = text[:2048].lower() if isinstance(text, str) else text[:2048].lower().decode("latin-1")
    if "<!doctype" in head or "<!entity" in head:
        raise NotationError("XML records with a DOCTYPE or entities are refused")
    try:
        return ET.fromstring(text)
    except ET.ParseError as error:
        raise NotationError(f"not well-formed XML ({error}); a truncated file?") from None
    except (LookupError, ValueError) as error:  # an unknown or unsupported encoding
        raise NotationError(f"unreadable XML: {error}") from None


def parse_xml(text: str | bytes) -> GameRecord:
    """A StraDoS2 XML record (`<stratego><game type=...>...`)."""
    root = _xml_root(text)
    if root.tag not in ("stratego", "game"):
        raise NotationError(
            f"not a StraDoS2 record: the root element is <{root.tag}>, not <stratego>"
        )
    game = root if root.tag == "game" else root.find("game")
    if game is None:
        raise NotationError("not a StraDoS2 record: <stratego> holds no <game>")
    field_element = game.find("field")
    if field_element is None or field_element.get("content") is None:
        raise NotationError("the record has no <field content=...> (the setups)")
    content = field_element.get("content", "")
    source_type = game.get("type", "")
    variant = _variant_from_type(source_type, XML_TYPES) if source_type else None
    red, blue = parse_field(content, variant or "classic")
    variant = variant or _variant_from_army(red, blue)
    moves = _xml_moves(game.findall("move"), get_variant(variant))
    players = _xml_players(game.findall("player"))
    result, result_type = _xml_result(game.find("result"))
    return GameRecord(variant, red, blue, moves, players, result, result_type, source_type)


def _xml_moves(elements: list[ET.Element], variant: Variant) -> tuple[Move, ...]:
    moves = []
    for number, element in enumerate(elements, start=1):
        move_id = element.get("id")
        if move_id is not None and move_id.strip() != str(number):
            raise NotationError(f"move {number} has id {move_id!r}; ids must count 1, 2, 3, ...")
        source, target = element.get("source"), element.get("target")
        if source is None or target is None:
            raise NotationError(f"move {number} lacks its source or target")
        try:
            moves.append(Move(parse_square(source, variant), parse_square(target, variant)))
        except NotationError as error:
            raise NotationError(f"move {number} ({source}-{target}): {error}") from None
    return tuple(moves)


def _xml_players(elements: list[ET.Element]) -> tuple[str, str]:
    names = {element.get("id"): (element.text or "").strip() for element in elements}
    return (names.get("1", ""), names.get("2", ""))


def _xml_int(element: ET.Element, name: str) -> int:
    value = element.get(name)
    try:
        return int(value or "")
    except ValueError:
        raise NotationError(f"<result> {name} {value!r} is not a number") from None


def _xml_result(element: ET.Element | None) -> tuple[Outcome | None, int | None]:
    if element is None:
        return None, None
    result_type, winner_code = _xml_int(element, "type"), _xml_int(element, "winner")
    if winner_code not in XML_WINNERS:
        raise NotationError(f"<result> winner {winner_code} is not 1 (Red), 2 (Blue) or 3 (draw)")
    return result_outcome(result_type, XML_WINNERS[winner_code]), result_type


def _record_of(record_or_game: GameRecord | Game, players: tuple[str, str] | None) -> GameRecord:
    if isinstance(record_or_game, Game):
        return GameRecord.from_game(record_or_game, players or ("", ""))
    if players is not None:
        return GameRecord(
            record_or_game.variant,
            record_or_game.red_setup,
            record_or_game.blue_setup,
            record_or_game.moves,
            players,
            record_or_game.result,
            record_or_game.result_type,
        )
    return record_or_game


def _result_codes(record: GameRecord) -> tuple[int, int | None] | None:
    if record.result is None:
        return None
    result_type = record.result_type
    if result_type is None or RESULT_TERMINATIONS.get(result_type) != record.result.termination:
        result_type = TERMINATION_TYPES[record.result.termination]
    return result_type, record.result.winner


def write_xml(record_or_game: GameRecord | Game, players: tuple[str, str] | None = None) -> str:
    """The StraDoS2 XML text of a record or of a game played on this object."""
    record = _record_of(record_or_game, players)
    variant = get_variant(record.variant)
    if record.variant not in _XML_TYPE_OF_VARIANT:
        raise NotationError(f"StraDoS2 records have no game type for the {record.variant} variant")
    root = ET.Element("stratego")
    game = ET.SubElement(root, "game", type=_XML_TYPE_OF_VARIANT[record.variant])
    ET.SubElement(game, "field", content=field_string(record.red_setup, record.blue_setup, variant))
    for number, move in enumerate(record.moves, start=1):
        ET.SubElement(
            game,
            "move",
            id=str(number),
            source=square_name(move.src, variant, record=True),
            target=square_name(move.dst, variant, record=True),
        )
    for number, name in enumerate(record.players, start=1):
        ET.SubElement(game, "player", id=str(number)).text = name
    codes = _result_codes(record)
    if codes is not None:
        winner_code = {RED: 1, BLUE: 2, None: 3}[codes[1]]
        ET.SubElement(game, "result", type=str(codes[0]), winner=str(winner_code))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ----------------------------------------------------------------------------- GSN (Gravon)

GSN_TYPES = {"0": "classic", "1": "barrage", "2": "classicfree", "3": "ultimate lightning"}
_GSN_TYPE_OF_VARIANT = {"classic": 0, "barrage": 1}
_GSN_TRAILER = re.compile(
    r"^(?P<red>.*) vs (?P<blue>.*) result (?P<type>-?\d+) winner (?P<winner>-?\d+)\s*$"
)


def parse_gsn(text: str | bytes) -> GameRecord:
    """A Gravon GSN text record (`#... Stratego-Notation v2`, type, field, moves, END, result)."""
    lines = [line.strip() for line in _decode(text).splitlines() if line.strip()]
    if not lines or not lines[0].startswith("#") or "stratego-notation" not in lines[0].lower():
        raise NotationError(
            "not a GSN record: the first line should be '#... Stratego-Notation v2'"
        )
    if len(lines) < 3:
        raise NotationError("the GSN record ends before its field; a truncated file?")
    source_type = _gsn_type(lines[1])
    variant = _variant_from_type(GSN_TYPES.get(source_type, source_type), XML_TYPES)
    red, blue = parse_field(lines[2], variant)
    try:
        end = lines.index("END", 3)
    except ValueError:
        raise NotationError(
            "the GSN record has no END line after its moves; a truncated file?"
        ) from None
    moves = _gsn_moves(lines[3:end], get_variant(variant))
    players, result, result_type = _gsn_trailer(lines[end + 1 :])
    return GameRecord(variant, red, blue, moves, players, result, result_type, source_type)


def _decode(text: str | bytes) -> str:
    if isinstance(text, str):
        return text
    try:
        return text.decode("utf-8-sig")
    except UnicodeDecodeError:
        return text.decode("latin-1")


def _gsn_type(line: str) -> str:
    parts = line.split()
    if len(parts) != 2 or parts[0].lower() != "type":
        raise NotationError(
            f"the second line of a GSN record should be 'type N', not {line[:40]!r}"
        )
    return parts[1]


def _gsn_moves(lines: list[str], variant: Variant) -> tuple[Move, ...]:
    moves = []
    for number, line in enumerate(lines, start=1):
        try:
            moves.append(parse_move(line, variant))
        except NotationError:
            raise NotationError(f"move {number}: {line[:40]!r} is not a move like A4-A5") from None
    return tuple(moves)


def _gsn_trailer(lines: list[str]) -> tuple[tuple[str, str], Outcome | None, int | None]:
    if not lines:
        return ("", ""), None, None
    match = _GSN_TRAILER.match(lines[0])
    if not match:
        raise NotationError(
            f"the line after END should be '<red> vs <blue> result N winner W', "
            f"not {lines[0][:60]!r}"
        )
    result_type, winner_code = int(match["type"]), int(match["winner"])
    if result_type in _DRAW_TYPES:
        winner = None
    elif winner_code in GSN_WINNERS:
        winner = GSN_WINNERS[winner_code]
    else:
        raise NotationError(f"GSN winner {winner_code} is not 0 (Red) or 1 (Blue)")
    return (
        (match["red"].strip(), match["blue"].strip()),
        result_outcome(result_type, winner),
        result_type,
    )


def write_gsn(
    record_or_game: GameRecord | Game, players: tuple[str, str] | None = None, header: str = "0"
) -> str:
    """The GSN text of a record or game (classic and barrage only: GSN has no other types)."""
    record = _record_of(record_or_game, players)
    if record.variant not in _GSN_TYPE_OF_VARIANT:
        raise NotationError(f"GSN records have no game type for the {record.variant} variant")
    variant = get_variant(record.variant)
    lines = [
        f"#{header} Stratego-Notation v2",
        f"type {_GSN_TYPE_OF_VARIANT[record.variant]}",
        field_string(record.red_setup, record.blue_setup, variant),
    ]
    lines += [move_name(move, variant, record=True) for move in record.moves]
    lines.append("END")
    codes = _result_codes(record)
    if codes is not None:
        winner_code = {RED: 0, BLUE: 1, None: 2}[codes[1]]
        red, blue = (name.replace("\n", " ") for name in record.players)
        lines.append(f"{red} vs {blue} result {codes[0]} winner {winner_code}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- either format


def parse_record(text: str | bytes) -> GameRecord:
    """An XML or GSN record, told apart by its first character (`<` or `#`)."""
    start = _decode(text[:64] if isinstance(text, bytes) else text[:64]).lstrip("\ufeff \t\r\n")
    if start.startswith("<"):
        return parse_xml(text)
    if start.startswith("#"):
        return parse_gsn(text)
    if not start:
        raise NotationError("the file is empty")
    raise NotationError(
        "not a game record: neither StraDoS2 XML (<stratego>) nor GSN (#... Stratego-Notation)"
    )


__all__ = [
    "GameRecord",
    "RecordError",
    "parse_field",
    "field_string",
    "parse_xml",
    "write_xml",
    "parse_gsn",
    "write_gsn",
    "parse_record",
    "replay",
    "record_rules",
    "RECORD_RULES",
    "result_outcome",
    "describe_outcome",
    "RESULT_TERMINATIONS",
    "TERMINATION_TYPES",
    "XML_TYPES",
    "GSN_TYPES",
]
