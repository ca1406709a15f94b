"""Admin review of games: filters, search by player, a read-only game page with the move
list and links to the replay and the StraDoS2 export."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from . import engine
from .domain.models import Game, GameEvent, Move, Presence, SavedSetup
from .review_views import has_record, public_move
from .services import match

COLORS = {0: "Red", 1: "Blue"}


class WinnerFilter(admin.SimpleListFilter):
    title = "winner"
    parameter_name = "winner"

    def lookups(self, request, model_admin):
        return [("0", "Red"), ("1", "Blue"), ("draw", "Draw")]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if value in ("0", "1"):
            return queryset.filter(winner=int(value))
        if value == "draw":
            return queryset.filter(winner__isnull=True).exclude(termination="")
        return queryset


class ImportedFilter(admin.SimpleListFilter):
    title = "origin"
    parameter_name = "origin"

    def lookups(self, request, model_admin):
        return [("imported", "Imported from a record"), ("played", "Played here")]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        if self.value() == "imported":
            return queryset.exclude(source_sha256="")
        if self.value() == "played":
            return queryset.filter(source_sha256="")
        return queryset


class TerminationFilter(admin.SimpleListFilter):
    title = "termination"
    parameter_name = "termination"

    def lookups(self, request, model_admin):
        values = Game.objects.exclude(termination="").values_list("termination", flat=True)
        return [(v, v.replace("_", " ")) for v in sorted(set(values))]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        return queryset.filter(termination=self.value()) if self.value() else queryset


BATTLE_RESULTS = {"attacker": "attacker wins", "defender": "defender wins", "both": "both removed"}


def battle_text(battle: dict | None) -> str:
    if not battle:
        return ""
    attacker = engine.RANK_NAMES[battle["attacker"]]
    defender = engine.RANK_NAMES[battle["defender"]]
    return (
        f"{attacker} attacks {defender}: {BATTLE_RESULTS.get(battle['result'], battle['result'])}"
    )


def review_links(game: Game, short: bool = False) -> str:
    if not game.termination and game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        return format_html(
            '<a href="{}">Watch live</a>', reverse("games:detail", args=[game.public_id])
        )
    replay = format_html(
        '<a href="{}">{}</a>',
        reverse("review:replay", args=[game.public_id]),
        "replay" if short else "Open the replay",
    )
    if not has_record(game):  # cancelled before it began, or a variant StraDoS2 cannot hold
        return replay
    return format_html(
        '{} · <a href="{}">{}</a>',
        replay,
        reverse("review:export_xml", args=[game.public_id]),
        "XML" if short else "Export StraDoS2 XML",
    )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    # Few, narrow columns: the review links stay on screen beside the filters at 1300 px.
    list_display = (
        "public_id",
        "variant",
        "players_short",
        "outcome",
        "ply",
        "finished_short",
        "short_links",
    )
    list_filter = (
        "variant",
        TerminationFilter,
        WinnerFilter,
        "status",
        ("finished", admin.DateFieldListFilter),
        "private",
        ImportedFilter,
    )
    search_fields = (
        "public_id",
        "red_name",
        "blue_name",
        "red_user__username",
        "blue_user__username",
    )
    date_hierarchy = "created"
    ordering = ("-finished", "-created")
    fieldsets = (
        (None, {"fields": ("public_id", "variant", "status", "private", "players", "result")}),
        ("Review", {"fields": ("links", "move_list", "chat_log")}),
        ("Dates", {"fields": ("created", "started", "finished")}),
    )
    readonly_fields = (
        "public_id",
        "variant",
        "status",
        "private",
        "players",
        "result",
        "links",
        "move_list",
        "chat_log",
        "created",
        "started",
        "finished",
    )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="winner", ordering="winner")
    def winner_name(self, game: Game) -> str:
        if not game.termination or game.termination == "aborted":
            return "—"
        return COLORS.get(game.winner, "draw")

    @admin.display(description="players", ordering="red_name")
    def players_short(self, game: Game) -> str:
        return f"{game.red_name or '—'} – {game.blue_name or '—'}"

    @admin.display(description="result", ordering="termination")
    def outcome(self, game: Game) -> str:
        if not game.termination:
            return game.get_status_display()
        if game.termination == "aborted":
            return "cancelled"
        return f"{self.winner_name(game)} · {game.termination.replace('_', ' ')}"

    @admin.display(description="finished", ordering="finished")
    def finished_short(self, game: Game) -> str:
        return game.finished.strftime("%Y-%m-%d %H:%M") if game.finished else "—"

    @admin.display(description="players")
    def players(self, game: Game) -> str:
        return f"Red: {game.red_name or '—'} · Blue: {game.blue_name or '—'}"

    @admin.display(description="result")
    def result(self, game: Game) -> str:
        if not game.termination:
            return "not over"
        who = f"{COLORS[game.winner]} wins" if game.winner in COLORS else "draw"
        if game.termination == "aborted":
            who = "aborted"
        moves = match.move_number(game.ply)
        return f"{who} ({game.termination.replace('_', ' ')}) after {moves} moves"

    @admin.display(description="review")
    def links(self, game: Game) -> str:
        return review_links(game)

    @admin.display(description="review")
    def short_links(self, game: Game) -> str:
        return review_links(game, short=True)

    @admin.display(description="moves")
    def move_list(self, game: Game) -> str:
        moves = [public_move(m) for m in game.moves.order_by("ply")]
        if not moves:
            return "no moves"
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    match.move_label(m["ply"]),
                    COLORS[m["color"]],
                    m["notation"],
                    battle_text(m["battle"]),
                )
                for m in moves
            ),
        )
        return format_html(
            '<table id="move-list-table"><thead><tr><th>no.</th><th>side</th><th>move</th>'
            "<th>battle</th></tr></thead><tbody>{}</tbody></table>",
            rows,
        )

    @admin.display(description="chat")
    def chat_log(self, game: Game) -> str:
        return chat_table(game)


def chat_table(game: Game) -> str:
    """Both chats of a game, escaped (format_html), in the order they were written."""
    messages = game.chat_messages.order_by("version")
    if not messages:
        return "no chat"
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        ((m.version, m.room, m.author, m.text) for m in messages),
    )
    return format_html(
        '<table id="chat-table"><thead><tr><th>event</th><th>chat</th><th>who</th>'
        "<th>message</th></tr></thead><tbody>{}</tbody></table>",
        rows,
    )


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "ply", "notation", "color", "battle_result")
    list_filter = ("battle_result",)
    search_fields = ("game__public_id",)


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("game", "version", "kind", "created")
    list_filter = ("kind",)
    search_fields = ("game__public_id",)


@admin.register(Presence)
class PresenceAdmin(ReadOnlyAdmin):
    list_display = ("game", "role", "channel_name", "instance", "created", "seen")


@admin.register(SavedSetup)
class SavedSetupAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "user", "created")
    list_filter = ("variant",)
    search_fields = ("name", "user__username")
