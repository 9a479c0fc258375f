"""Database URLs read by one parser, and no password shown in any form (issue 55,
item 2): generated URLs of every form SQLAlchemy and libpq take (passwords with
``/ @ ? # % :``, quotes, spaces and non-ASCII; ``?password=``; keyword strings;
``postgres://``; IPv6 hosts) leave no piece of the password in what is shown, and
each is read as the connection it names."""

from __future__ import annotations

from urllib.parse import quote

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from big2.server.dburl import is_keywords, normalize_url, passwords, redact_text, redact_url

MARKS = ("QZ1", "QZ2", "QZ3")
"""Every piece of a generated password between its odd characters holds one of these,
so a fragment shown anywhere is found."""

ODD = st.text(alphabet="/@?#%:'\\ =&é€Ω", max_size=3)


@st.composite
def a_password(draw: st.DrawFn) -> str:
    return "".join(mark + draw(ODD) for mark in MARKS)


HOSTS = st.sampled_from(["db.example.org", "127.0.0.1", "[::1]", "[2001:db8::7]"])
SCHEMES = st.sampled_from(["postgresql", "postgres", "postgresql+psycopg"])


def libpq_quoted(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


@st.composite
def a_database(draw: st.DrawFn) -> tuple[str, str, bool]:
    """(URL or keyword string, its password, whether SQLAlchemy reads the password back
    exactly: a raw ``%`` followed by hex digits is taken as an escape, as anywhere)."""
    pw, host, scheme = draw(a_password()), draw(HOSTS), draw(SCHEMES)
    port = draw(st.sampled_from(["", ":5432"]))
    form = draw(st.sampled_from(["raw", "encoded", "query", "keywords"]))
    if form == "raw":
        return f"{scheme}://ann:{pw}@{host}{port}/big2", pw, "%" not in pw
    if form == "encoded":
        return f"{scheme}://ann:{quote(pw, safe='')}@{host}{port}/big2?sslmode=prefer", pw, True
    if form == "query":
        return (f"{scheme}://ann@{host}{port}/big2?sslmode=prefer&password="
                f"{quote(pw, safe='')}&application_name=big2"), pw, True
    bare = host.strip("[]")
    return (f"host={bare} port=5432 dbname=big2 user=ann password={libpq_quoted(pw)} "
            "sslmode=prefer"), pw, True


def shown_nothing_of(text: str, pw: str) -> None:
    assert pw not in text, text
    for mark in MARKS:
        assert mark not in text, (mark, text)


@settings(max_examples=300, deadline=None)
@given(a_database())
def test_no_piece_of_a_password_is_shown(case: tuple[str, str, bool]) -> None:
    url, pw, exact = case
    shown_nothing_of(redact_url(url), pw)
    normal = normalize_url(url)
    assert normal.startswith("postgresql+psycopg://"), normal  # never an SQLite file
    shown_nothing_of(redact_url(normal), pw)
    # what a driver or SQLAlchemy might say, in each form it might print the password
    said = (f"cannot connect to {url!r} ({normal}): password {pw!r} {pw} {quote(pw)} "
            f"{quote(pw, safe='')} {sa.engine.make_url(normal)!r}")
    shown_nothing_of(redact_text(said, url), pw)
    shown_nothing_of(redact_text(said, normal), pw)
    # any URL's or keyword's password goes from text that does not know the URL (one
    # written as URLs are, without a raw space or quote)
    if pw not in url or url.startswith("host=") or not set(" '\"") & set(pw):
        shown_nothing_of(redact_text(f"at {url} and {normal}", None), pw)
    read = sa.engine.make_url(normal)
    query_pw = read.query.get("password")
    if exact:
        assert pw in (read.password, query_pw), (read.password, query_pw)
        assert read.username == "ann" and read.database == "big2"


def test_the_forms_read_as_the_connection_they_name() -> None:
    assert normalize_url("postgres://ann:p@ss/w@db/big2") == \
        "postgresql+psycopg://ann:p%40ss/w@db/big2"
    url = sa.engine.make_url(normalize_url("postgresql://ann:p@ss/w@db:5433/big2"))
    assert (url.password, url.host, url.port, url.database) == ("p@ss/w", "db", 5433, "big2")
    kw = sa.engine.make_url(normalize_url("host=/run/postgresql dbname=big2 user=ann"))
    assert kw.host is None and kw.query["host"] == "/run/postgresql" and kw.database == "big2"
    assert normalize_url("sqlite:////tmp/a.sqlite3") == "sqlite:////tmp/a.sqlite3"
    assert normalize_url("/tmp/x.sqlite3") == "sqlite:////tmp/x.sqlite3"
    assert is_keywords("host=db") and not is_keywords("/tmp/a=b.sqlite3")
    assert passwords("postgresql://ann@db/big2") == []


@pytest.mark.parametrize("text", ["mydb=1.sqlite3", "host=db password='unterminated",
                                  "host=db ,password=x"])
def test_a_keyword_string_libpq_would_not_read_is_refused_not_a_file(text: str) -> None:
    with pytest.raises(ValueError) as info:
        normalize_url(text)
    assert "unterminated" not in str(info.value) and "x" not in str(info.value).split()


def test_redaction_keeps_what_is_not_a_password() -> None:
    assert redact_url("postgresql://ann:pw@db:5432/big2") == "postgresql://ann:***@db:5432/big2"
    assert redact_url("postgresql://ann@db/big2") == "postgresql://ann@db/big2"
    assert redact_url("sqlite:////tmp/a.sqlite3") == "sqlite:////tmp/a.sqlite3"
    assert redact_url("host=db user=ann password=pw sslmode=require") == \
        "host=db user=ann password=*** sslmode=require"
    assert redact_text("no url here", None) == "no url here"
