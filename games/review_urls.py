"""URLs of the review pages and the client's data endpoints (included under /games/)."""

from django.urls import path

from . import review_views, saved_setups, url_converters

url_converters.register()

app_name = "review"

urlpatterns = [
    path("variants/<variant:name>.json", review_views.variant_info, name="variant_info"),
    path("setups/<variant:variant>/", saved_setups.setup_list, name="setups"),
    path(
        "setups/<variant:variant>/<row_id:setup_id>/delete/",
        saved_setups.setup_delete,
        name="setup_delete",
    ),
    path("<game_id:game_id>/moves.json", review_views.moves_json, name="moves_json"),
    path("<game_id:game_id>/replay/", review_views.replay, name="replay"),
    path("<game_id:game_id>/record.xml", review_views.export_xml, name="export_xml"),
]
