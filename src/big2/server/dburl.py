"""Database URLs as ``big2 serve --db`` takes them, read by one parser, and
their passwords kept out of every message (issue 55).

Three forms are taken:

- a URL SQLAlchemy reads (``sqlite:///…``, ``postgresql://user:pw@host/db``,
  ``postgres://…``, a password also as ``?password=…``); a password may hold
  ``/ ? # : %`` or a raw ``@`` (the user information ends at the last ``@``,
  and a raw ``@`` in it is encoded before SQLAlchemy reads the URL, so no
  fragment of the password is taken for the host);
- a libpq keyword string (``host=db dbname=big2 user=ann password=pw``), which
  is PostgreSQL: it is read here (libpq's quoting: ``'a b'``, ``\\'``) and
  becomes the URL of the same connection; a word that is not a libpq keyword is
  refused with a clear error, never taken as a file name;
- anything else: the path of an SQLite file.

:func:`redact_url` shows a URL or keyword string with every password as
``***``; :func:`redact_text` takes a known URL's password out of any text (an
error, a log line) in each form it may be printed in (as written, decoded,
encoded, quoted by ``repr``), and any other URL's or keyword's password too.

>>> redact_url("postgresql://ann:a/b@c@db/big2?sslmode=require&password=x")
'postgresql://ann:***@db/big2?sslmode=require&password=***'
>>> redact_url("host=db user=ann password='s e c'")
'host=db user=ann password=***'
>>> normalize_url("host=db dbname=big2 user=ann password=pw")
'postgresql+psycopg://ann:pw@db/big2'
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, quote_plus, unquote, unquote_plus

__all__ = ["LIBPQ_KEYWORDS", "is_keywords", "normalize_url", "parse_keywords", "passwords",
           "redact_text", "redact_url"]

LIBPQ_KEYWORDS = frozenset([
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile",
    "require_auth", "channel_binding", "connect_timeout", "client_encoding", "options",
    "application_name", "fallback_application_name", "keepalives", "keepalives_idle",
    "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication",
    "gssencmode", "sslmode", "requiressl", "sslcompression", "sslcert", "sslkey",
    "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
    "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname",
    "gsslib", "gssdelegation", "service", "target_session_attrs", "load_balance_hosts",
])
"""The connection keywords libpq knows (PostgreSQL 16's list)."""

_STARTS_KEYWORDS = re.compile(r"\s*[A-Za-z_]\w*\s*=")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
# a password anywhere in text: a URL's user information (to the last @ of the word),
# a query parameter or a keyword (quoted or not) whose name ends in "password"
_URL_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^:/@\s'\"]*:)[^\s'\"]*@")
_PASSWORD_PARAM = re.compile(
    r"(\w*password\s*=\s*)('(?:[^'\\]|\\.)*(?:'|$)|[^\s&'\"]*)", re.IGNORECASE)


def is_keywords(text: str) -> bool:
    """Whether *text* is a libpq keyword string (it starts with ``word=`` and is no URL)."""
    return _SCHEME.match(text) is None and _STARTS_KEYWORDS.match(text) is not None


def parse_keywords(text: str) -> dict[str, str]:
    """The keywords and values of libpq keyword string *text*. Raises
    :class:`ValueError` (naming no value) for a word that is not a libpq keyword
    or text libpq could not read."""
    out: dict[str, str] = {}
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i == n:
            return out
        found = re.compile(r"([A-Za-z_]\w*)\s*=\s*").match(text, i)
        if found is None:
            raise ValueError(f"a PostgreSQL keyword string is key=value pairs; "
                             f"cannot read it after {len(out)} of them")
        key, i = found.group(1), found.end()
        if key not in LIBPQ_KEYWORDS:
            raise ValueError(f"{key!r} is not a PostgreSQL connection keyword (an SQLite "
                             "file is written sqlite:///PATH when its name holds '=')")
        value: list[str] = []
        if i < n and text[i] == "'":
            i += 1
            while i < n and text[i] != "'":
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                value.append(text[i])
                i += 1
            if i == n:
                raise ValueError(f"the value of {key} has no closing quote")
            i += 1
        else:
            while i < n and not text[i].isspace():
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                value.append(text[i])
                i += 1
        out[key] = "".join(value)


def normalize_url(url: str) -> str:
    """A database URL SQLAlchemy accepts: a keyword string becomes the
    ``postgresql+psycopg://`` URL of the same connection, a plain path an SQLite
    file, ``postgres://``/``postgresql://`` use the psycopg (3) driver, and a raw
    ``@`` in a password is encoded. Raises :class:`ValueError` for a keyword
    string that cannot be read (the message holds no value)."""
    if is_keywords(url):
        return _keywords_url(parse_keywords(url))
    if not _SCHEME.match(url):
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix):]
    scheme, _, rest = url.partition("://")
    split = _userinfo(rest)
    if split is not None:
        user, password, after = split
        rest = f"{user}:{password.replace('@', '%40')}@{after}"
    return f"{scheme}://{rest}"


def _keywords_url(params: dict[str, str]) -> str:
    import sqlalchemy as sa

    params = dict(params)
    user, password = params.pop("user", None), params.pop("password", None)
    database = params.pop("dbname", None)
    host, port = params.get("host"), params.get("port")
    plain_host = host is not None and "/" not in host and "," not in host
    if plain_host and (port is None or port.isdigit()):
        params.pop("host")
        params.pop("port", None)
    else:
        host, port = None, None
    rest = sa.URL.create("postgresql+psycopg", host=host, port=int(port) if port else None,
                         database=database, query=params).render_as_string()
    rest = rest.partition("://")[2]
    # the user and password written here, every odd character encoded (SQLAlchemy's own
    # rendering leaves a space raw, which no text could then be redacted by pattern)
    user_part = quote(user or "", safe="")
    if password:
        user_part += ":" + quote(password, safe="")
    return f"postgresql+psycopg://{user_part}@{rest}" if user_part else \
        f"postgresql+psycopg://{rest}"


def _userinfo(rest: str) -> tuple[str, str, str] | None:
    """(user, password, the rest after ``@``) of a URL's part after ``://``, or ``None``
    when it holds no password. The user ends at the first ``:``, the password at the
    last ``@``."""
    found = re.match(r"([^:@/?#\[\]]*):", rest)
    if found is None or "@" not in rest[found.end():]:
        return None
    password, _, after = rest[found.end():].rpartition("@")
    return found.group(1), password, after


def redact_url(url: str) -> str:
    """*url* (or keyword string) safe to print or log: each password in it becomes
    ``***`` (``postgresql://ann:***@db/big2``); one without a password is unchanged."""
    scheme = _SCHEME.match(url)
    if scheme is not None:
        split = _userinfo(url[scheme.end():])
        if split is not None:
            url = f"{scheme.group(0)}{split[0]}:***@{split[2]}"
    return _PASSWORD_PARAM.sub(r"\1***", url)


def passwords(url: str | None) -> list[str]:
    """The passwords *url* holds, each as written there and as decoded."""
    if not url:
        return []
    found: list[str] = []
    scheme = _SCHEME.match(url)
    if scheme is not None:
        split = _userinfo(url[scheme.end():])
        if split is not None:
            found.append(split[1])
        query = (url if split is None else split[2]).partition("?")[2]
        for part in re.split(r"[&;]", query):
            key, eq, value = part.partition("=")
            if eq and key.lower().endswith("password"):
                found.append(value)
    elif is_keywords(url):
        try:
            found += [v for k, v in parse_keywords(url).items() if k.endswith("password")]
        except ValueError:
            pass
        found += [m.group(2) for m in _PASSWORD_PARAM.finditer(url)]
    return [p for p in found if p]


def _forms(password: str) -> set[str]:
    """*password* in each form a message may print it in: as written, decoded,
    percent-encoded, quoted as libpq writes it, and each of those as ``repr`` shows it."""
    forms = {password, unquote(password), unquote_plus(password)}
    for p in list(forms):
        escaped = p.replace("\\", "\\\\").replace("'", "\\'")
        forms |= {quote(p, safe=""), quote_plus(p, safe=""), quote(p), p.strip("'"),
                  escaped, f"'{escaped}'"}
    forms |= {repr(p)[1:-1] for p in forms}
    return {f for f in forms if f}


def redact_text(text: str, url: str | None) -> str:
    """*text* (an error message, a log line) with *url*'s password, in any form, and
    any URL's or keyword's password replaced by ``***``."""
    found = passwords(url)
    if url:
        try:  # and as the URL SQLAlchemy is given writes it
            found += passwords(normalize_url(url))
        except ValueError:
            pass
    for form in sorted({f for p in found for f in _forms(p)}, key=len, reverse=True):
        text = text.replace(form, "***")
    text = _URL_USERINFO.sub(r"\1***@", text)
    return _PASSWORD_PARAM.sub(r"\1***", text)
