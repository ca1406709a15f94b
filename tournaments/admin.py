"""Admin review of events: filters by format and status, and on each event every pairing with
links to its game's admin page, its replay and the event's own page."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from .models import Entrant, Pairing, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("name", "user", "computer", "rating", "place", "points", "withdrawn", "removed")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False  # (entries go through the event's page: its checks apply)

    @admin.display(description="rating start → end")
    def rating(self, entrant: Entrant) -> str:
        start, end = entrant.rating_start, entrant.rating_end
        if start is None:
            return "–"
        return f"{start:.0f}" + (f" → {end:.0f}" if end is not None else "")


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = ("round", "red", "blue", "red_score", "blue_score", "note", "game_links")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    @admin.display(description="game")
    def game_links(self, pairing: Pairing) -> str:
        if pairing.game_id is None:
            return "–"
        game = pairing.game
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">replay</a> · <a href="{}">live page</a>',
            reverse("admin:games_game_change", args=[game.pk]),
            game.public_id,
            reverse("review:replay", args=[game.public_id]),
            reverse("games:detail", args=[game.public_id]),
        )


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "variant", "status", "starts_at", "featured", "created_by")
    list_filter = ("format", "status", "variant", "featured", "rated")
    search_fields = ("name", "created_by__username", "entrants__name")
    readonly_fields = ("status", "current_round", "next_round_at", "ends_at", "finished_at",
                       "invite_code", "page")  # fmt: skip
    inlines = [EntrantInline, PairingInline]

    @admin.display(description="event page")
    def page(self, tournament: Tournament) -> str:
        url = reverse("tournaments:detail", args=[tournament.pk])
        if tournament.private:
            url += f"?invite={tournament.invite_code}"
        return format_html('<a href="{}">{}</a>', url, url)
