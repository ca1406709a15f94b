"""The language a socket speaks: the one its page was shown in, as LocaleMiddleware chose it
(the `django_language` cookie set by the language switch at /i18n/setlang/, else
Accept-Language, else settings.LANGUAGE_CODE). The game, lobby and tournament sockets send
their own error frames in it; frames rendered for a whole audience stay as they are."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import translation


def language_of(scope: dict) -> str:
    request = HttpRequest()
    request.COOKIES = scope.get("cookies") or {}
    for name, value in scope.get("headers") or []:
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)
