"""A tournament URL: ``mqtt://ACCOUNT:PASSWORD@HOST:PORT/EVENT`` or ``mqtts://...?ca=PATH``
(docs/tournament.md, "URLs")."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from tournament import topics


class UrlError(ValueError):
    """Not a tournament URL; the message says what is wrong in one line (never the password)."""


@dataclass(frozen=True)
class TournamentUrl:
    account: str
    password: str = field(repr=False)
    host: str
    port: int
    event: str
    tls: bool = False
    ca: Path | None = None
    """The certificate authority a TLS broker's certificate must be signed by (None: the
    system's)."""

    @classmethod
    def parse(cls, text: str) -> TournamentUrl:
        parts = urlsplit(text.strip())
        if parts.scheme not in ("mqtt", "mqtts"):
            raise UrlError("a tournament URL starts with mqtt:// or mqtts://")
        try:
            port = parts.port
        except ValueError:
            raise UrlError("the port in the tournament URL is not a number") from None
        account, password = unquote(parts.username or ""), unquote(parts.password or "")
        if not account or not password:
            raise UrlError("the tournament URL lacks the account and its password "
                           "(mqtt://table-03:PASSWORD@host:1883/event)")
        if not parts.hostname:
            raise UrlError("the tournament URL names no broker host")
        event = parts.path.strip("/")
        if not topics.EVENT_NAME.match(event):
            raise UrlError("the tournament URL ends with the event's name "
                           "(lower-case letters, digits, dashes)")
        ca = parse_qs(parts.query).get("ca", [None])[0]
        tls = parts.scheme == "mqtts"
        return cls(account, password, parts.hostname, port or (8883 if tls else 1883), event,
                   tls, Path(ca) if ca else None)

    @classmethod
    def for_table(cls, text: str) -> TournamentUrl:
        """A table's URL; UrlError when it is none, or names another account."""
        url = cls.parse(text)
        if not topics.TABLE_NAME.match(url.account):
            raise UrlError(f"{url.account} is not a table's account (table-03)")
        return url

    @property
    def table(self) -> str:
        """The table's name, when the account is a table's (``table-03``)."""
        if not topics.TABLE_NAME.match(self.account):
            raise UrlError(f"{self.account} is not a table's account (table-03)")
        return self.account

    @property
    def number(self) -> int:
        return int(self.table.removeprefix("table-"))

    def shown(self) -> str:
        """For the start screen: "Tournament: table-03 at 192.168.1.20" (no password)."""
        return f"Tournament: {self.account} at {self.host}"
