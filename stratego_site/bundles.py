"""A page's script modules as one file, without a build step: the entry module and every
module it imports, in the order they run, each in a function of its own, served under a name
that holds a hash of the content (cached for a year) by `bundle_view`.

The modules of static/ keep to a small, checked form of ES modules: imports on one line each
(`import { a, b as c } from "./x.js"`, `import * as x from "./x.js"`, `import "./x.js"`),
relative, without cycles; exports only as `export function|async function|class|const|let`
before a declaration. `bundle` refuses anything else (BundleError), so a module written
otherwise fails its page's tests instead of running wrongly. Each module becomes

    const m3 = (() => { const { a, b: c } = m1; ...its code...; return { exported }; })();

so its names stay its own, as in a module; the browser's tests and node's tests of the modules
(which import them directly) run the same code.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.urls import reverse

IMPORT = re.compile(r"^import\s+(?:(?P<what>.+?)\s+from\s+)?[\"'](?P<path>[^\"']+)[\"'];?\s*$")
EXPORT = re.compile(
    r"^export\s+(?:async\s+function\*?|function\*?|class|const|let)\s+(?P<name>[\w$]+)(?P<more>.*)"
)
NAMED = re.compile(r"^\{(?P<names>[^}]*)\}$")
STAR = re.compile(r"^\*\s+as\s+(?P<name>[\w$]+)$")
YEAR = 365 * 24 * 3600


class BundleError(ValueError):
    pass


@dataclass(frozen=True)
class Bundle:
    text: bytes
    gzipped: bytes
    digest: str


def source(path: str) -> str:
    found = finders.find(path)
    if not found:
        raise BundleError(f"no static file {path}")
    return Path(found).read_text(encoding="utf-8")


def module_code(path: str) -> tuple[list[str], str]:
    """The static paths `path` imports (in order) and its code as a function's body that
    returns its exports, each import a line `const {...} = @{path};` until the imported
    module's variable is known."""
    imports: list[str] = []
    lines: list[str] = []
    exported: list[str] = []
    for line in source(path).splitlines():
        if line.startswith("import"):
            found = IMPORT.match(line)
            if not found or not found["path"].startswith("."):
                raise BundleError(f"{path}: an import this bundler does not read: {line}")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), found["path"]))
            imports.append(target)
            lines.append(binding(path, found["what"], target))
            continue
        if line.startswith("export"):
            found = EXPORT.match(line)
            if not found or re.match(r"\s*=[^;]*,\s*[\w$]+\s*=", found["more"]):
                raise BundleError(f"{path}: an export this bundler does not read: {line}")
            exported.append(found["name"])
            line = line[len("export ") :]
        lines.append(line)
    lines.append(f"return {{ {', '.join(exported)} }};")
    return imports, "\n".join(lines)


def binding(path: str, what: str | None, target: str) -> str:
    """The line that stands for an import."""
    if what is None:
        return ""  # run for its effects only: it runs earlier in the bundle
    if star := STAR.match(what.strip()):
        return f"const {star['name']} = @{{{target}}};"
    named = NAMED.match(what.strip())
    if not named:
        raise BundleError(f"{path}: an import this bundler does not read: {what}")
    parts = []
    for item in filter(None, (part.strip() for part in named["names"].split(","))):
        name, _, alias = (word.strip() for word in item.partition(" as "))
        parts.append(f"{name}: {alias}" if alias else name)
    return f"const {{ {', '.join(parts)} }} = @{{{target}}};"


def build(entry: str) -> str:
    """The bundle's text: the modules depth first, each after those it imports."""
    order: list[str] = []
    code: dict[str, str] = {}
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in code:
            return
        if path in visiting:
            raise BundleError(f"an import cycle: {' -> '.join([*visiting, path])}")
        visiting.append(path)
        imports, body = module_code(path)
        for target in imports:
            visit(target)
        visiting.pop()
        code[path] = body
        order.append(path)

    visit(entry)
    names = {path: f"m{n}" for n, path in enumerate(order)}
    parts = [f"// {entry} and its modules, one file (stratego_site/bundles.py)"]
    for path in order:
        body = re.sub(r"@\{([^}]+)\}", lambda m: names[m[1]], code[path])
        parts.append(f"// {path}\nconst {names[path]} = (() => {{\n{body}\n}})();")
    return "\n".join(parts) + "\n"


def make(entry: str) -> Bundle:
    text = build(entry).encode()
    digest = hashlib.sha256(text).hexdigest()[:12]
    return Bundle(text, gzip.compress(text, 9, mtime=0), digest)


_made = functools.lru_cache(maxsize=None)(make)


def bundle(entry: str) -> Bundle:
    """The entry's bundle; built once per process, or at each call while DEBUG is on (the
    modules may change under `make run`)."""
    return make(entry) if settings.DEBUG else _made(entry)


def url(entry: str) -> str:
    name = entry.removesuffix(".js")
    return reverse("bundle", kwargs={"name": name, "digest": bundle(entry).digest})


@functools.cache
def data_uri(path: str) -> str:
    """A small static file as a `data:` address (the pages' icon: a request fewer each)."""
    kind = {".svg": "image/svg+xml"}[posixpath.splitext(path)[1]]
    return f"data:{kind},{quote(source(path).strip())}"


BUNDLE_PATH = re.compile(r"^/bundles/(?P<name>[\w/-]+)\.(?P<digest>[0-9a-f]{12})\.js$")


class BundleMiddleware:
    """Bundles answered before the session, the database and the rest of a page's work, as
    whitenoise answers the static files: a script needs none of them, and with a bounded
    pool each bundle would have borrowed a connection for nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = BUNDLE_PATH.match(request.path_info)
        if found is None or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        try:
            return bundle_view(request, found["name"], found["digest"])
        except Http404:
            return HttpResponseNotFound("no such bundle", content_type="text/plain")


def bundle_view(request: HttpRequest, name: str, digest: str) -> HttpResponse:
    entry = f"{name}.js"
    if ".." in name or not finders.find(entry):
        raise Http404("no such bundle")
    made = bundle(entry)
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    response = HttpResponse(
        made.gzipped if gzipped else made.text, content_type="text/javascript; charset=utf-8"
    )
    if gzipped:
        response["Content-Encoding"] = "gzip"
    response["Vary"] = "Accept-Encoding"
    # Named by its content: cached for a year. A page from before a new version may ask for
    # the old name: it gets the new content, not to be kept.
    response["Cache-Control"] = (
        f"public, max-age={YEAR}, immutable" if digest == made.digest else "no-cache"
    )
    return response
