"""The static files as production serves them: compressed, named by their content's hash, and
the game client's module imports (`import ... from "./board.js"`) rewritten to those names, so
a new version of any module is fetched at once and every file may be cached for a year."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
