"""Records: the field string, StraDoS2 XML, Gravon GSN, replay and the check command."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    BLUE,
    BOMB,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SPY,
    Game,
    Move,
    NotationError,
    Outcome,
    generate_setup,
    get_variant,
    parse_move,
    parse_square,
    validate_setup,
)
from games.engine.records import (
    GameRecord,
    RecordError,
    field_string,
    parse_field,
    parse_gsn,
    parse_record,
    parse_xml,
    record_rules,
    replay,
    write_gsn,
    write_xml,
)

from .budget import examples

RECORDS = Path(__file__).parent / "records"
REPO = Path(__file__).resolve().parents[2]
BARRAGE_EXAMPLE = (
    "BEAAAAAAAAMCDAAAAAAALDAAAAAAAAAAAAAAAAAKAA__AA__AAAA__AA__AAAA"
    "WAAAAAAAPPOAAAAAAANXAAAAAAAAYQAAAAAAAA"
)


def sq(name: str) -> int:
    return parse_square(name, get_variant("classic"))


def random_game(variant: str, seed: int, max_plies: int = 600) -> Game:
    """A game of random legal moves, ended by the rules or, at `max_plies`, by a server ending."""
    rng = random.Random(seed)
    v = get_variant(variant)
    game = Game.from_setups(v, generate_setup(v, RED, rng), generate_setup(v, BLUE, rng))
    while not game.is_over and game.ply < max_plies:
        game.push(rng.choice(game.legal_moves()))
    if not game.is_over:
        ending = rng.choice(
            [
                Outcome(RED, "resignation"),
                Outcome(BLUE, "time"),
                Outcome(None, "agreed_draw"),
                Outcome(RED, "forfeit"),
            ]
        )
        game.end(ending)
    return game


# ----------------------------------------------------------------------------- field string


def test_barrage_example_field_parses_to_legal_setups():
    red, blue = parse_field(BARRAGE_EXAMPLE, "barrage")
    assert red == {
        sq("A1"): BOMB,
        sq("B1"): MINER,
        sq("A2"): FLAG,
        sq("B2"): SPY,
        sq("C2"): SCOUT,
        sq("A3"): MARSHAL,
        sq("B3"): SCOUT,
        sq("K4"): GENERAL,
    }
    assert blue[sq("A10")] == FLAG and blue[sq("B9")] == MARSHAL and blue[sq("C7")] == GENERAL
    validate_setup(get_variant("barrage"), RED, red)
    validate_setup(get_variant("barrage"), BLUE, blue)
    assert Game.from_setups("barrage", red, blue).turn == RED


def test_field_round_trip():
    red, blue = parse_field(BARRAGE_EXAMPLE, "barrage")
    assert field_string(red, blue, "barrage") == BARRAGE_EXAMPLE


@given(st.integers(0, 10**6), st.sampled_from(["classic", "barrage", "duel"]))
@settings(max_examples=examples(30))
def test_field_round_trip_of_random_setups(seed, variant):
    rng = random.Random(seed)
    v = get_variant(variant)
    red, blue = generate_setup(v, RED, rng), generate_setup(v, BLUE, rng)
    text = field_string(red, blue, v)
    assert len(text) == 100
    assert parse_field(text, v) == (red, blue)
    assert parse_field(text.lower(), v) == (red, blue)  # lower case = revealed pieces


@pytest.mark.parametrize(
    "text, message",
    [
        (BARRAGE_EXAMPLE[:37], "100 characters, this one has 37"),
        (BARRAGE_EXAMPLE + "A", "this one has 101"),
        ("Z" + BARRAGE_EXAMPLE[1:], "'Z', which is no piece"),
        ("_" + BARRAGE_EXAMPLE[1:], "no lake there"),
        (BARRAGE_EXAMPLE[:42] + "B" + BARRAGE_EXAMPLE[43:], "is a lake"),
    ],
)
def test_bad_fields_are_notation_errors(text, message):
    with pytest.raises(NotationError, match=message):
        parse_field(text, "barrage")


# ----------------------------------------------------------------------------- XML and GSN


SMALL_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<stratego>
  <game type="barrage">
    <field content="{BARRAGE_EXAMPLE}"/>
    <move id="1" source="K4" target="K5"/>
    <move id="2" source="C7" target="D7"/>
    <player id="1">Ann</player>
    <player id="2">Bo</player>
    <result type="3" winner="2"/>
  </game>
</stratego>
"""


def test_parse_xml():
    record = parse_xml(SMALL_XML)
    assert record.variant == "barrage"
    assert record.moves == (Move(sq("K4"), sq("K5")), Move(sq("C7"), sq("D7")))
    assert record.players == ("Ann", "Bo")
    assert record.result == Outcome(BLUE, "resignation") and record.result_type == 3
    game = replay(record)
    assert game.ply == 2 and game.outcome == Outcome(BLUE, "resignation")


@pytest.mark.parametrize(
    "xml_type, variant",
    [("classic", "classic"), ("classicfree", "classic"), ("duell", "duel"), ("barrage", "barrage")],
)
def test_xml_game_types(xml_type, variant):
    game = random_game(variant, 3, max_plies=10)
    text = (
        write_xml(game)
        .replace('type="duell"', f'type="{xml_type}"')
        .replace('type="classic"', f'type="{xml_type}"')
    )
    assert parse_xml(text).variant == variant


def test_ultimate_lightning_is_a_clear_error():
    with pytest.raises(NotationError, match="ultimate lightning"):
        parse_xml(SMALL_XML.replace('type="barrage"', 'type="ultimate lightning"'))
    gsn = (RECORDS / "hand-red-flag.gsn").read_text().replace("type 1", "type 3")
    with pytest.raises(NotationError, match="ultimate lightning"):
        parse_gsn(gsn)


def test_row_ten_is_a_colon_in_records():
    record = parse_gsn((RECORDS / "hand-red-flag.gsn").read_text())
    assert record.moves[10] == parse_move("K9-K10", get_variant("barrage"))
    assert "K9-K:" in write_gsn(record) and 'target="K:"' in write_xml(record)


def test_parse_gsn():
    record = parse_gsn((RECORDS / "hand-red-flag.gsn").read_text())
    assert record.variant == "barrage" and record.source_type == "1"
    assert record.players == ("Red Hand", "Blue Hand")
    assert len(record.moves) == 29
    assert record.result == Outcome(RED, "flag_captured")
    game = replay(record)
    assert game.outcome == Outcome(RED, "flag_captured") and game.ply == 29


def test_xml_without_type_takes_the_variant_from_the_armies():
    record = parse_xml(SMALL_XML.replace(' type="barrage"', ""))
    assert record.variant == "barrage"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("hello world", "not a game record"),
        ("<html><body/></html>", "root element is <html>"),
        (SMALL_XML[:200], "not well-formed XML"),
        (SMALL_XML.replace('id="2" source', 'id="7" source'), "ids must count"),
        (SMALL_XML.replace('target="K5"', 'target="L5"'), "not a square"),
        (SMALL_XML.replace('winner="2"', 'winner="9"'), "winner 9"),
        (SMALL_XML.replace('type="3"', 'type="7"'), "unknown result type 7"),
        (SMALL_XML.replace('type="3" winner="2"', 'type="4" winner="1"'), "is a draw"),
        (SMALL_XML.replace('type="barrage"', 'type="chess"'), "unknown game type"),
        ('<!DOCTYPE x [<!ENTITY a "b">]><stratego/>', "DOCTYPE"),
        ("#1 Stratego-Notation v2\ntype 1\n" + BARRAGE_EXAMPLE + "\nK4-K5\n", "no END"),
        ("#1 Stratego-Notation v2\ntype 1\n" + BARRAGE_EXAMPLE + "\nK4K5\nEND\n", "not a move"),
        (
            "#1 Stratego-Notation v2\ntype 1\n" + BARRAGE_EXAMPLE + "\nEND\nAnn and Bo\n",
            "should be",
        ),
    ],
)
def test_non_records_are_notation_errors(text, message):
    with pytest.raises(NotationError, match=message):
        parse_record(text)


def test_random_bytes_are_a_notation_error():
    data = random.Random(1).randbytes(500)
    for blob in (data, b"<" + data, b"#" + data):
        with pytest.raises(NotationError):
            parse_record(blob)


def test_a_bad_setup_is_a_record_error_not_a_move():
    field = BARRAGE_EXAMPLE[:39] + "A" + BARRAGE_EXAMPLE[40:]  # Red's general is missing
    with pytest.raises(RecordError, match="Red's setup is not a legal barrage setup") as info:
        replay(parse_xml(SMALL_XML.replace(BARRAGE_EXAMPLE, field)))
    assert info.value.move_number is None


# ----------------------------------------------------------------------------- round trips


@given(st.integers(0, 10**6), st.sampled_from(["classic", "barrage", "duel"]))
@settings(max_examples=examples(25), suppress_health_check=[HealthCheck.too_slow])
def test_write_then_read_xml_gives_the_same_game(seed, variant):
    game = random_game(variant, seed)
    record = parse_xml(write_xml(game, ("Red <one>", "Blue & two")))
    written = GameRecord.from_game(game, ("Red <one>", "Blue & two"))
    assert (record.variant, record.red_setup, record.blue_setup, record.moves, record.players) == (
        written.variant,
        written.red_setup,
        written.blue_setup,
        written.moves,
        written.players,
    )
    if game.outcome.termination != "move_cap":  # type 4 (a draw) reads back as an agreed draw
        assert record.result == game.outcome
    again = replay(record)
    assert again.setups == game.setups
    assert [m.move for m in again.history] == [m.move for m in game.history]
    assert again.outcome == game.outcome
    assert again.to_dict() == game.to_dict()


@given(st.integers(0, 10**6), st.sampled_from(["classic", "barrage"]))
@settings(max_examples=examples(20), suppress_health_check=[HealthCheck.too_slow])
def test_write_then_read_gsn_gives_the_same_game(seed, variant):
    game = random_game(variant, seed)
    record = parse_gsn(write_gsn(game, ("Ann", "Bo")))
    again = replay(record)
    assert again.setups == game.setups
    assert [m.move for m in again.history] == [m.move for m in game.history]
    assert again.outcome == game.outcome


def test_gsn_has_no_duel():
    with pytest.raises(NotationError, match="duel"):
        write_gsn(random_game("duel", 1, max_plies=4))


def test_flag_capture_parity_red_odd_blue_even():
    """records.md: in flag-capture games Red wins after an odd number of moves, Blue an even."""
    seen = {RED: 0, BLUE: 0}
    for seed in range(80):
        game = random_game("duel", seed, max_plies=400)
        if game.outcome.termination != "flag_captured":
            continue
        record = parse_xml(write_xml(game))
        seen[record.result.winner] += 1
        assert len(record.moves) % 2 == (1 if record.result.winner == RED else 0)
    assert seen[RED] and seen[BLUE]


# ----------------------------------------------------------------------------- illegal records


def test_illegal_move_is_reported_with_number_and_reason():
    with pytest.raises(RecordError) as info:
        replay(parse_record((RECORDS / "illegal-too-far.xml").read_bytes()))
    error = info.value
    assert (error.move_number, error.move_text, error.code) == (3, "A3-A5", "too_far")
    assert error.reason == "a marshal moves one square at a time"
    assert str(error) == "move 3 (A3-A5): a marshal moves one square at a time"


def test_a_move_after_the_end_is_illegal():
    with pytest.raises(RecordError) as info:
        replay(parse_record((RECORDS / "illegal-after-end.gsn").read_bytes()))
    assert (info.value.move_number, info.value.move_text, info.value.code) == (
        30,
        "E7-F7",
        "game_over",
    )


def test_a_move_from_an_empty_square_and_a_blue_move_first():
    text = SMALL_XML.replace('source="K4" target="K5"', 'source="C7" target="D7"')
    with pytest.raises(RecordError) as info:
        replay(parse_xml(text))
    assert info.value.move_number == 1 and info.value.code == "not_your_piece"


def test_a_result_the_engine_contradicts_is_a_record_error():
    text = (RECORDS / "hand-red-flag.gsn").read_text()
    with pytest.raises(RecordError, match="Blue wins by flag_captured") as info:
        replay(parse_gsn(text.replace("winner 0", "winner 1")))
    assert info.value.move_number is None and info.value.code == "wrong_result"
    with pytest.raises(RecordError, match="not over"):
        replay(parse_xml(SMALL_XML.replace('type="3"', 'type="1"')))
    with pytest.raises(RecordError, match="Red wins by resignation"):
        replay(parse_gsn(text.replace("result 1", "result 3")))


def test_a_record_without_result_replays_to_an_unfinished_game():
    text = SMALL_XML.replace('<result type="3" winner="2"/>', "")
    game = replay(parse_xml(text))
    assert game.outcome is None and not game.is_over


# ----------------------------------------------------------------------------- the check command


def run_check(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "check", *map(str, paths)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_a_good_file():
    path = RECORDS / "barrage-flag.xml"
    done = run_check(path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{path}: ok red flag_captured\n"


def test_check_good_files_of_each_format():
    paths = [RECORDS / n for n in ("hand-red-flag.gsn", "duel-blue-flag.xml", "classic-resign.xml")]
    done = run_check(*paths)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{paths[0]}: ok red flag_captured",
        f"{paths[1]}: ok blue flag_captured",
        f"{paths[2]}: ok blue resignation",
    ]


def test_check_an_illegal_file():
    path = RECORDS / "illegal-too-far.xml"
    done = run_check(path)
    assert done.returncode == 1
    assert done.stdout == f"{path}: illegal move 3 (A3-A5): a marshal moves one square at a time\n"


@pytest.mark.parametrize(
    "name, message",
    [
        ("garbage.bin", "not a game record"),
        ("truncated.xml", "not well-formed XML"),
        ("short-field.xml", "a barrage field has 100 characters, this one has 37"),
        ("ultimate.xml", "ultimate lightning"),
        ("no-such-file.xml", "cannot read the file"),
    ],
)
def test_check_a_file_that_is_no_record(name, message):
    path = RECORDS / name
    done = run_check(path)
    assert done.returncode == 1
    assert done.stdout.startswith(f"{path}: error: ") and message in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_check_mixed_files_exits_1_and_reports_each():
    good, bad = RECORDS / "barrage-flag.gsn", RECORDS / "garbage.bin"
    done = run_check(good, bad, good)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[0] == lines[2] == f"{good}: ok red flag_captured"
    assert lines[1].startswith(f"{bad}: error:")


def test_check_needs_a_file():
    done = run_check()
    assert done.returncode == 2 and "FILE" in done.stderr


# ----------------------------------------------------------------------------- robustness

_SAMPLES = [
    (RECORDS / name).read_bytes()
    for name in (
        "barrage-flag.xml",
        "hand-red-flag.gsn",
        "illegal-too-far.xml",
        "duel-blue-flag.xml",
    )
]


@given(
    st.sampled_from(_SAMPLES),
    st.lists(
        st.tuples(st.integers(0, 3000), st.integers(0, 3000), st.binary(max_size=8)), max_size=4
    ),
)
@settings(max_examples=examples(300))
def test_damaged_records_give_notation_errors_only(sample, edits):
    """Cut, overwrite or insert bytes anywhere: a record error, a notation error or a game."""
    data = sample
    for start, length, insert in edits:
        start %= len(data) + 1
        data = data[:start] + insert + data[start + length % 12 :]
    try:
        replay(parse_record(data))
    except NotationError as error:
        assert str(error)


@pytest.mark.parametrize(
    "text, message",
    [
        (b'<?xml version="1.0" encoding="foo"?><stratego/>', "unknown encoding"),
        ("<stratego><other/></stratego>", "holds no <game>"),
        ("<a>" * 3000 + "</a>" * 3000, "root element is <a>"),
    ],
)
def test_odd_xml_is_a_notation_error(text, message):
    with pytest.raises(NotationError, match=message):
        parse_record(text)


# ----------------------------------------------------------------------------- real setups

DATA = Path(__file__).resolve().parents[1] / "data"  # copied from shared/data


def gravon_field(red_line: str, blue_line: str) -> str:
    """A field from two 40-letter Gravon setup lines (Red code, back row first)."""
    blue_code = {red: chr(ord(red) + 12) for red in "BCDEFGHIJKLM"} | {"A": "A"}
    red_rows = [red_line[i : i + 10] for i in range(0, 40, 10)]
    blue_rows = [
        blue_line[i : i + 10].translate(str.maketrans(blue_code)) for i in range(0, 40, 10)
    ]
    middle = "AA__AA__AA" * 2
    return "".join(red_rows) + middle + "".join(reversed(blue_rows))


@pytest.mark.parametrize(
    "variant, name",
    [("classic", "gravon-classic-setups.txt"), ("barrage", "gravon-barrage-setups.txt")],
)
def test_fields_of_real_gravon_setups_replay(variant, name):
    if not DATA.is_dir():
        pytest.fail(f"the Gravon sample setups are missing: {DATA}")
    lines = [line.strip() for line in (DATA / name).read_text().splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    rng = random.Random(0)
    for red_line, blue_line in zip(lines[:40], reversed(lines[-40:]), strict=True):
        field = gravon_field(red_line, blue_line)
        red, blue = parse_field(field, variant)
        validate_setup(get_variant(variant), RED, red)
        validate_setup(get_variant(variant), BLUE, blue)
        game = Game.from_setups(variant, red, blue)
        for _ in range(30):
            if game.is_over:
                break
            game.push(rng.choice(game.legal_moves()))
        record = parse_xml(write_xml(game))
        assert field_string(record.red_setup, record.blue_setup) == field
        assert replay(record).to_dict() == game.to_dict()


# ----------------------------------------------------------------------------- source rules

# Duel's example setups, as squares (row * 10 + col).
DUEL_RED = {7: MINER, 8: BOMB, 9: FLAG, 17: SCOUT, 18: SPY, 19: BOMB}
DUEL_RED |= {27: MARSHAL, 28: GENERAL, 29: MINER, 39: SCOUT}
DUEL_BLUE = {60: SCOUT, 70: MINER, 71: GENERAL, 72: MARSHAL, 80: BOMB}
DUEL_BLUE |= {81: SPY, 82: SCOUT, 90: FLAG, 91: BOMB, 92: MINER}


def xml_record(game_type: str, field: str, moves: list[str], result: str) -> str:
    lines = [f'<stratego><game type="{game_type}"><field content="{field}"/>']
    for number, move in enumerate(moves, start=1):
        source, target = move.split("-")
        lines.append(f'<move id="{number}" source="{source}" target="{target}"/>')
    return "\n".join([*lines, result, "</game></stratego>"])


def test_a_duell_record_may_step_forward_and_straight_back():
    """Gravon's Duell plays the ISF two-squares rule, not Duel's return rule."""
    moves = ["K4-K5", "A7-A6", "K5-K4", "A6-A7", "K4-K5", "A7-A6"]
    text = xml_record(
        "duell",
        field_string(DUEL_RED, DUEL_BLUE, "duel"),
        moves,
        '<result type="3" winner="1"/>',
    )
    game = replay(parse_xml(text))
    assert game.ply == 6 and game.outcome == Outcome(RED, "resignation")
    assert game.variant.name == "duel" and game.variant.rule_overrides() == {
        "two_squares_limit": 5,
        "return_after_moves": None,
        "max_plies": None,
    }
    with pytest.raises(RecordError) as info:  # this server's duel refuses the step back
        replay(parse_xml(text), get_variant("duel"))
    assert (info.value.move_number, info.value.code) == (3, "return_too_soon")
    # The two-squares rule still holds: a sixth move between K4 and K5 is refused.
    longer = moves + ["K5-K4", "A6-A7", "K4-K5", "A7-A6", "K5-K4"]
    with pytest.raises(RecordError) as info:
        replay(
            parse_xml(xml_record("duell", field_string(DUEL_RED, DUEL_BLUE, "duel"), longer, ""))
        )
    assert (info.value.move_number, info.value.code) == (11, "two_squares")


def quiet_classic_setups() -> tuple[dict[int, int], dict[int, int]]:
    """Random classic setups with a movable piece on A4 (Red) and K7 (Blue)."""
    v = get_variant("classic")
    for seed in range(1000):
        rng = random.Random(seed)
        red, blue = generate_setup(v, RED, rng), generate_setup(v, BLUE, rng)
        if red[sq("A4")] not in (BOMB, FLAG) and blue[sq("K7")] not in (BOMB, FLAG):
            return red, blue
    raise AssertionError("no setup found")


def test_a_classic_record_with_a_long_quiet_stretch_replays():
    """ISF has no move cap: 500 plies without a battle are legal in an archive game."""
    red, blue = quiet_classic_setups()
    red_loop = ["A5-B5", "B5-B6", "B6-A6", "A6-A5"]  # far from each other: no chase
    blue_loop = ["K6-I6", "I6-I5", "I5-K5", "K5-K6"]
    moves = ["A4-A5", "K7-K6"]
    for i in range(249):
        moves += [red_loop[i % 4], blue_loop[i % 4]]
    record = parse_xml(
        xml_record("classic", field_string(red, blue), moves, '<result type="4" winner="3"/>')
    )
    game = replay(record)
    assert game.ply == 500 and game.quiet_plies == 500
    assert game.outcome == Outcome(None, "agreed_draw")
    assert game.variant.rule_overrides() == {"max_quiet_plies": None}
    with pytest.raises(RecordError) as info:  # this server draws after 200 quiet moves each
        replay(record, get_variant("classic"))
    assert (info.value.move_number, info.value.code) == (401, "game_over")
    # Without a result the record is an unfinished game, not this server's move-cap draw.
    unfinished = GameRecord(record.variant, red, blue, record.moves[:400])
    assert replay(unfinished).outcome is None
    assert replay(unfinished, get_variant("classic")).outcome == Outcome(None, "move_cap")


def test_record_rules_drop_the_caps_and_keep_the_anti_stalling_rules():
    for name in ("classic", "barrage"):
        rules = record_rules(name)
        assert rules.max_quiet_plies is None and rules.max_plies is None
        assert rules.two_squares_limit == 5 and rules.more_squares_rule
    duel = record_rules("duel")
    assert (duel.two_squares_limit, duel.return_after_moves, duel.max_plies) == (5, None, None)
    assert record_rules("mini") == get_variant("mini")


def test_our_own_move_cap_draw_reads_back_as_a_move_cap():
    for seed in range(40):
        game = random_game("barrage", seed, max_plies=3000)
        if game.outcome.termination == "move_cap":
            break
    else:
        raise AssertionError("no move-cap game among the seeds")
    again = replay(parse_xml(write_xml(game)))
    assert again.outcome == Outcome(None, "move_cap") and again.variant == get_variant("barrage")
    assert again.to_dict() == game.to_dict()
