"""The "Moderators" group: exactly the permissions a moderator needs (a data migration makes
it; add a staff account to it in the admin)."""

GROUP = "Moderators"
PERMISSIONS = (
    ("moderation", "view_report"),  # the queue
    ("moderation", "change_report"),  # close a report
    ("moderation", "view_sanction"),  # the log
    ("moderation", "moderate"),  # warn, mute, ban, lift
    ("games", "view_game"),  # the games the reports link to, and their chat
    ("games", "view_chatmessage"),
)
