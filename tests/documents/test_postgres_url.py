"""Which PostgreSQL URLs the store refuses before libpq reads them (no server needed).

A URL is refused only when libpq and RFC 3986 (``urllib.parse``) would split its
user name and password from its host differently: then part of the password can
end up as the host or database, and in libpq's error messages. An ``@`` after the
host (in the database name's query string: ``?options=…``, an ``sslrootcert``
path) is legal, and both read it alike.
"""

from __future__ import annotations

from urllib.parse import quote, unquote, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("psycopg_pool")

from psycopg.conninfo import conninfo_to_dict  # noqa: E402

from writing_rules.documents import PostgresDocumentStore  # noqa: E402


def _refused(url: str) -> bool:
    """Whether the store refuses ``url`` as ambiguous (it connects to nothing when created)."""
    try:
        PostgresDocumentStore(url).close()
    except ValueError as error:
        if "%40" in str(error):  # the ambiguity's message, which says what to percent-encode
            return True
        raise
    return False


@pytest.mark.parametrize(
    "url, expected",
    [
        ("postgresql://u:p@db.example/docs?options=-c%20search_path%3Da@b", {"options": "-c search_path=a@b"}),
        ("postgresql://u@db.example/docs?sslrootcert=/etc/ops@acme/ca.crt", {"sslrootcert": "/etc/ops@acme/ca.crt"}),
        ("postgresql://db.example/docs?sslrootcert=/certs/a@b.crt", {"sslrootcert": "/certs/a@b.crt"}),
        ("postgresql://db.example:5432/docs?application_name=me@work&sslmode=require", {"application_name": "me@work"}),
        ("postgres://u:p%40ss@db.example/docs?options=x@y", {"password": "p@ss", "options": "x@y"}),
    ],
)
def test_an_at_sign_after_the_host_is_legal(url: str, expected: dict[str, str]) -> None:
    assert not _refused(url)
    parsed = conninfo_to_dict(url)
    assert parsed["host"] == "db.example"
    assert expected.items() <= parsed.items()


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://u:p@ss@db.example/docs",  # libpq: host "ss@db.example"
        "postgresql://u:pa/ss@db.example/docs",  # libpq: no user, host "u"
        "postgresql://u:pa?ss@db.example/docs",  # RFC 3986: host "u", query "ss@db.example/docs"
        "postgresql://u:pa#ss@db.example/docs",  # RFC 3986: a fragment
        "postgresql://db.example?sslrootcert=a@b",  # libpq: user "db.example?sslrootcert=a", host "b"
        "postgresql://u:p@h/x@db.example/docs",  # both: password "p", host "h"; meant: "p@h/x"
    ],
)
def test_a_userinfo_the_two_readers_split_differently_is_refused(url: str) -> None:
    assert _refused(url)


def _libpq_split(url: str) -> tuple[str | None, str | None, str | None] | None:
    """(user, password, host) as libpq reads ``url``; None when libpq cannot read it."""
    try:
        parsed = conninfo_to_dict(url)
    except psycopg.Error:
        return None
    return parsed.get("user"), parsed.get("password"), parsed.get("host")


def _rfc_split(url: str) -> tuple[str | None, str | None, str | None]:
    """(user, password, host) as RFC 3986 reads ``url`` (``urllib.parse``, without its lower-casing)."""
    netloc = urlsplit(url).netloc
    userinfo, at, hostport = netloc.rpartition("@")
    user = password = None
    if at:
        name, colon, secret = userinfo.partition(":")
        user, password = unquote(name) or None, (unquote(secret) or None) if colon else None
    host = hostport.rpartition(":")[0] if ":" in hostport else hostport
    return user, password, host or None


_RAW = st.text(alphabet="ab:@/?#", max_size=6)
_SAFE = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=12)


@given(
    user=_SAFE,
    password=_SAFE,
    database=_SAFE,
    value=st.text(alphabet="az09@/:.-_ ", max_size=20),
)
def test_a_url_with_an_encoded_user_name_and_password_is_never_refused(
    user: str, password: str, database: str, value: str
) -> None:
    # '@' left as it is in the query, as people write an sslrootcert path or options.
    url = (
        f"postgresql://{quote(user, safe='')}:{quote(password, safe='')}@db.example:5432/"
        f"{quote(database, safe='')}?sslrootcert={quote(value, safe='/@:')}"
    )
    assert not _refused(url)
    parsed = conninfo_to_dict(url)
    assert (parsed.get("user", ""), parsed.get("password", "")) == (user, password)
    assert parsed["host"] == "db.example" and parsed.get("sslrootcert", "") == value


@given(
    userinfo=_RAW,
    after=st.sampled_from(["", ":5432", "/docs", "/docs?sslrootcert=/a@b", "?application_name=a@b", "/d@b", "/d#x@y"]),
)
def test_only_a_url_the_two_readers_split_differently_is_refused(userinfo: str, after: str) -> None:
    url = f"postgresql://{userinfo}@db.example{after}"
    libpq = _libpq_split(url)
    if libpq is None:
        return  # libpq cannot read it: the store says so (not as an ambiguity)
    # An '@' libpq reads into the host, port or database name is one a password held (nothing here
    # is percent-encoded: such an '@' is raw in the URL).
    parsed = conninfo_to_dict(url)
    ambiguous = libpq != _rfc_split(url) or "@" in "".join(parsed.get(key, "") for key in ("host", "port", "dbname"))
    assert _refused(url) == ambiguous, (url, libpq, _rfc_split(url))


@pytest.mark.parametrize(
    "url", ["postgresql://u:%ff@db.example/docs", "postgresql://u@db.example/%ff%fe", "postgresql://%c3@db.example/d"]
)
def test_a_percent_escape_that_is_no_utf8_says_so_without_the_url(url: str) -> None:
    # libpq's parser hands back bytes psycopg cannot decode: the message says what to change.
    with pytest.raises(ValueError) as caught:
        PostgresDocumentStore(url)
    message = str(caught.value)
    assert "not UTF-8" in message and "percent-encoded" in message, message
    assert "db.example" not in message and "%ff" not in message.lower()
