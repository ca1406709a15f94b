"""Ratings in the admin: visible, correctable by hand, or recomputed from the games; a player
can be banned from rated play."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet

from . import ratings
from .models import PlayerStatus, Rating, RatingChange, Seek


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    extra = 0
    can_delete = False
    fields = ("at", "game", "score", "rating_before", "rating_after", "deviation_after")
    readonly_fields = fields
    ordering = ("-at",)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "variant",
        "rating",
        "deviation",
        "volatility",
        "games",
        "last_played",
    )
    list_filter = ("variant",)
    search_fields = ("user__username", "computer")
    fields = (
        "user",
        "computer",
        "variant",
        "rating",
        "deviation",
        "volatility",
        "games",
        "last_played",
    )
    readonly_fields = ("user", "computer", "variant", "last_played")
    inlines = [RatingChangeInline]
    actions = ["recompute_players"]

    @admin.action(description="Recompute these players' ratings from their games")
    def recompute_players(self, request, queryset: QuerySet[Rating]) -> None:
        users = {r.user_id for r in queryset if r.user_id}
        done = sum(ratings.recompute_player(u) for u in users)
        self.message_user(
            request, f"{len(users)} player(s) recomputed from {done} game(s).", messages.SUCCESS
        )


@admin.register(PlayerStatus)
class PlayerStatusAdmin(admin.ModelAdmin):
    list_display = ("user", "banned_from_rated", "note")
    list_filter = ("banned_from_rated",)
    search_fields = ("user__username",)
    autocomplete_fields = ("user",)


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "time_control", "rating", "created", "seen", "game")
