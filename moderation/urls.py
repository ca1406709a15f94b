from django.urls import path

from games import url_converters

from . import reports

url_converters.register()

app_name = "moderation"

urlpatterns = [
    path("games/<game_id:game_id>/report/", reports.message_view, name="report_message"),
    path("players/<username:name>/report/", reports.player_view, name="report_player"),
]
