"""The "Moderators" group: exactly the permissions a moderator needs. A data migration makes
it (moderation/migrations/0002); add a staff account to it in the admin."""

from __future__ import annotations

from typing import Any

GROUP = "Moderators"
PERMISSIONS = (
    ("moderation", "view_report"),  # the queue
    ("moderation", "change_report"),  # close a report
    ("moderation", "view_sanction"),  # the log
    ("moderation", "moderate"),  # warn, mute, ban, lift
    ("games", "view_game"),  # the games the reports link to, and their chat
    ("games", "view_chatmessage"),
)


def sync_group(apps: Any) -> Any:
    """Make the group hold exactly PERMISSIONS (`apps`: a migration's, or django.apps.apps)."""
    from django.contrib.auth.management import create_permissions

    for app in ("moderation", "games"):  # (permissions are made after migrating, normally)
        config = apps.get_app_config(app)
        had = getattr(config, "models_module", None)
        config.models_module = had or True  # (create_permissions skips an app without models)
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = had
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name=GROUP)
    permission = apps.get_model("auth", "Permission")
    group.permissions.set(
        [
            permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in PERMISSIONS
        ]
    )
    return group
