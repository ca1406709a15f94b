"""The moderators' admin: the queue of reports with their context, the actions on a report's
target (each asks why, and is logged as a Sanction), and the log itself (read only)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.domain.chat_message import ChatMessage

from . import sanctions
from .models import Report, Sanction

Answer = HttpResponse | None  # an action's form page, or None: done
CONTEXT_LINES = 5  # chat messages shown before and after the reported one
Kind = Sanction.Kind


class ActionForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}))
    minutes = forms.IntegerField(
        min_value=1, max_value=60 * 24 * 365, required=False,
        help_text="For a mute (default 60) or a ban (empty: until lifted).",
    )  # fmt: skip


def game_link(game: object) -> str:
    if game is None:
        return "-"
    return format_html('<a href="{}">{}</a>', reverse("games:detail", args=[game.public_id]),
                       game.public_id)  # fmt: skip


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created", "status", "target_name", "reason", "reporter_name", "game_cell",
                    "excerpt")  # fmt: skip
    list_filter = ("status", "reason")
    search_fields = ("target_name", "reporter_name", "details")
    readonly_fields = ("created", "reporter_name", "target_name", "target_kind", "reason",
                       "details", "game_cell", "chat_context", "history")  # fmt: skip
    fields = readonly_fields + ("status",)
    actions = ["warn", "mute", "ban_from_rated", "ban_from_site", "lift", "close"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from players

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.moderate")

    @admin.display(description="game")
    def game_cell(self, report: Report) -> str:
        return game_link(report.game)

    @admin.display(description="message")
    def excerpt(self, report: Report) -> str:
        return report.message.text[:60] if report.message else "(a player)"

    @admin.display(description="who")
    def target_kind(self, report: Report) -> str:
        if report.target_user_id:
            url = reverse("players:profile", args=[report.target_name])
            return format_html('account <a href="{}">{}</a>', url, report.target_name)
        return "guest (this browser session)"

    @admin.display(description="the chat around the message")
    def chat_context(self, report: Report) -> str:
        if report.message is None:
            return "-"
        v = report.message.version
        around = ChatMessage.objects.filter(game_id=report.message.game_id)
        before = list(around.filter(version__lt=v).order_by("-version")[:CONTEXT_LINES])[::-1]
        after = list(around.filter(version__gte=v).order_by("version")[: CONTEXT_LINES + 1])
        rows = [
            ("reported" if m.pk == report.message_id else "", m.room, m.author, m.text)
            for m in before + after
        ]
        return format_html(
            '<ol class="chat-context">{}</ol>',
            format_html_join("", '<li class="{}">[{}] <b>{}</b>: {}</li>', rows),
        )

    @admin.display(description="earlier actions on this player")
    def history(self, report: Report) -> str:
        earlier = sanctions_of(sanctions.target_of_report(report))[:10]
        if not earlier:
            return "none"
        rows = [(s.created.strftime("%Y-%m-%d %H:%M"), s.get_kind_display(), s.reason,
                 s.moderator) for s in earlier]  # fmt: skip
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{} {}: {} ({})</li>", rows))

    def act(self, request: HttpRequest, queryset: QuerySet[Report], kind: str) -> Answer:
        """Ask why (and how long), then act on each selected report's target."""
        form = ActionForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for report in queryset:
                sanctions.act(kind, sanctions.target_of_report(report), form.cleaned_data["reason"],
                              request.user, form.cleaned_data["minutes"], report)  # fmt: skip
            label = Kind(kind).label
            self.message_user(request, f"{label}: {queryset.count()} report(s).", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": f"{Kind(kind).label.capitalize()}: why?",
            "form": form,
            "reports": queryset,
            "action": request.POST.get("action"),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "moderation/action_form.html", context)

    @admin.action(description="Warn the reported player", permissions=["moderate"])
    def warn(self, request: HttpRequest, queryset: QuerySet[Report]) -> Answer:
        return self.act(request, queryset, Kind.WARN)

    @admin.action(description="Mute the reported player in chat", permissions=["moderate"])
    def mute(self, request: HttpRequest, queryset: QuerySet[Report]) -> Answer:
        return self.act(request, queryset, Kind.MUTE)

    @admin.action(description="Ban the reported player from rated play", permissions=["moderate"])
    def ban_from_rated(self, request: HttpRequest, queryset: QuerySet[Report]) -> Answer:
        return self.act(request, queryset, Kind.RATED_BAN)

    @admin.action(description="Ban the reported player from the site", permissions=["moderate"])
    def ban_from_site(self, request: HttpRequest, queryset: QuerySet[Report]) -> Answer:
        return self.act(request, queryset, Kind.SITE_BAN)

    @admin.action(description="Lift the reported player's mutes and bans", permissions=["moderate"])
    def lift(self, request: HttpRequest, queryset: QuerySet[Report]) -> Answer:
        return self.act(request, queryset, Kind.LIFT)

    @admin.action(description="Close without action", permissions=["moderate"])
    def close(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        closed = queryset.update(status=Report.Status.CLOSED)
        self.message_user(request, f"{closed} report(s) closed.", messages.SUCCESS)


def sanctions_of(target: sanctions.Target) -> QuerySet[Sanction]:
    if target.user_id is not None:
        return Sanction.objects.filter(target_user_id=target.user_id)
    return Sanction.objects.filter(target_user=None, target_session=target.session_key)


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    """The log: every moderator's action, who did it and why. Nobody edits it."""

    list_display = ("created", "kind", "target_name", "reason", "until", "ended", "moderator",
                    "report")  # fmt: skip
    list_filter = ("kind",)
    search_fields = ("target_name", "reason")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
