"""Admin: mark accounts as bots, issue tokens (shown once, in a message), revoke them."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone

from .models import ApiToken, BotAccount


class ApiTokenInline(admin.TabularInline):
    model = ApiToken
    extra = 0
    fields = ("hint", "label", "created", "last_used", "revoked")
    readonly_fields = ("hint", "created", "last_used")
    can_delete = True


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "description", "created")
    search_fields = ("user__username",)
    autocomplete_fields = ("user",)
    inlines = [ApiTokenInline]
    actions = ["issue_token"]

    @admin.action(description="Issue a new API token (shown once)")
    def issue_token(self, request, queryset) -> None:
        for bot in queryset:
            _, raw = ApiToken.issue(bot, label=f"admin {timezone.now():%Y-%m-%d}")
            self.message_user(
                request,
                f"Token for {bot.user.get_username()} (copy it now, it is not shown again): {raw}",
                messages.WARNING,
            )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("hint", "bot", "label", "created", "last_used", "revoked")
    list_filter = ("revoked",)
    readonly_fields = ("hint", "digest", "created", "last_used")
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:  # (tokens come from "issue")
        return False

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset) -> None:
        for token in queryset:
            token.revoke()
        self.message_user(request, f"Revoked {queryset.count()} token(s).")
