"""URLs of the review pages and the client's data endpoints (included under /games/)."""

from django.urls import path

from . import review_views, setups

app_name = "review"

urlpatterns = [
    path("variants/<str:name>.json", review_views.variant_info, name="variant_info"),
    path("setups/<str:variant>/", setups.setup_list, name="setups"),
    path("setups/<str:variant>/<int:setup_id>/delete/", setups.setup_delete, name="setup_delete"),
    path("<str:game_id>/moves.json", review_views.moves_json, name="moves_json"),
    path("<str:game_id>/replay/", review_views.replay, name="replay"),
    path("<str:game_id>/record.xml", review_views.export_xml, name="export_xml"),
]
