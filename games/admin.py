from django.contrib import admin

from .models import Game, GameEvent, Move, Presence


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    readonly_fields = [f.name for f in Move._meta.fields]
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("public_id", "variant", "status", "red_name", "blue_name", "ply", "created")
    list_filter = ("status", "variant", "private")
    search_fields = ("public_id", "red_name", "blue_name")
    readonly_fields = ("public_id", "created", "started", "finished")
    inlines = [MoveInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "notation", "color", "attacker_rank", "defender_rank")
    list_filter = ("battle_result",)


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ("game", "version", "kind", "created")
    list_filter = ("kind",)


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    list_display = ("game", "role", "channel_name", "created")
