"""A visitor's side of HTTP, as a browser does it: from its own source address, with its
cookies (session, CSRF), forms posted with the CSRF token, redirects read, not followed."""

from __future__ import annotations

import asyncio
import http.client
import re
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    ms: float


@dataclass
class Visitor:
    """One browser: a source address (127.0.0.x) and a cookie jar."""

    address: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def fetch(self, method: str, path: str, form: dict | None = None) -> Answer:
        """One request (blocking; run it in a thread). A failure to connect is status 0."""
        headers = {"Host": f"127.0.0.1:{self.port}", "Accept": "text/html"}
        body = None
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = headers["Referer"] = f"http://127.0.0.1:{self.port}"
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                          source_address=(self.address, 0))  # fmt: skip
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                            text, (time.perf_counter() - started) * 1000)  # fmt: skip
            for value in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            return answer
        except OSError as exc:
            return Answer(0, {}, repr(exc), (time.perf_counter() - started) * 1000)
        finally:
            conn.close()

    async def get(self, path: str) -> Answer:
        return await asyncio.to_thread(self.fetch, "GET", path)

    async def post(self, path: str, form: dict, page: str | None = None) -> Answer:
        """A form posted as the browser posts it: the CSRF token read from `page` first."""
        token = self.cookies.get("csrftoken")
        if page is not None or token is None:
            shown = await self.get(page or "/")
            found = CSRF_INPUT.search(shown.body)
            token = found.group(1) if found else token
        return await asyncio.to_thread(
            self.fetch, "POST", path, {**form, "csrfmiddlewaretoken": token or ""}
        )

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())
