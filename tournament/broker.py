"""A Mosquitto broker configured for a small event: accounts, access list, persistence.

``companion tournament broker`` runs one (docs/tournament.md, "Running the broker"); the tests
and the scale benchmark start one on a loopback port the same way. The broker is a real
Mosquitto process: nothing here speaks MQTT.

Accounts and what each may do (the access list is written from :mod:`tournament.topics`):

- a table (``table-03``) publishes only under its own topics and reads only the record requests
  sent to it; it may answer a record request on any referee's reply topic, never read one;
- a referee (``referee-ana``) reads every table's public topics, sends record requests and reads
  only its own reply topics;
- the players' account (``players``) reads the public topics, nothing else; anonymous clients
  are refused.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from tournament import certs, topics

READY_WAIT_S = 10.0
"""How long a starting Mosquitto may take to accept connections (about 20 ms here)."""
MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


class BrokerError(Exception):
    """The broker cannot be set up or started; the message says why in one line."""


def mosquitto_binary() -> str:
    """The ``mosquitto`` program, or a :class:`BrokerError` saying how to get it."""
    found = shutil.which("mosquitto") or next(
        (p for p in MOSQUITTO_PATHS if os.access(p, os.X_OK)), None)
    if found is None:
        raise BrokerError("Mosquitto is not installed: on Debian or Raspberry Pi OS, "
                          "`sudo apt install mosquitto` (python3 dev.py test installs it when "
                          "run as root)")
    return found


@dataclass(frozen=True)
class Accounts:
    """Every account of an event and its password."""

    passwords: dict[str, str]

    @classmethod
    def for_event(cls, tables: int, referees: Iterable[str]) -> Accounts:
        names = [topics.table_name(n) for n in range(1, tables + 1)]
        names += [r if r.startswith("referee-") else f"referee-{r}" for r in referees]
        names.append(topics.PLAYERS)
        for name in names:
            if not (topics.TABLE_NAME.match(name) or topics.REFEREE_NAME.match(name)
                    or name == topics.PLAYERS):
                raise BrokerError(f"{name!r} is not an account name: tables are numbered, "
                                  "referees are lower-case letters, digits and dashes")
        return cls({name: secrets.token_urlsafe(12) for name in names})

    @property
    def tables(self) -> list[str]:
        return sorted(n for n in self.passwords if topics.TABLE_NAME.match(n))

    @property
    def referees(self) -> list[str]:
        return sorted(n for n in self.passwords if topics.REFEREE_NAME.match(n))


def access_list(event: str, accounts: Accounts) -> str:
    """Mosquitto's ``acl_file`` for ``event``: one block per account, nothing by pattern, so a
    table's rights name that table and no other."""
    root = topics.event_root(event)
    lines = ["# Written by companion tournament broker: one block per account.", ""]
    for table in accounts.tables:
        lines += [f"user {table}",
                  *(f"topic write {topics.table_topic(event, table, leaf)}"
                    for leaf in topics.PUBLIC_LEAVES),
                  f"topic read {topics.table_topic(event, table, 'record/request')}",
                  f"topic write {root}/referees/+/records/+", ""]
    for referee in accounts.referees:
        lines += [f"user {referee}",
                  *(f"topic read {root}/tables/+/{leaf}" for leaf in topics.PUBLIC_LEAVES),
                  f"topic write {root}/tables/+/record/request",
                  f"topic read {root}/referees/{referee}/records/+", ""]
    lines += [f"user {topics.PLAYERS}",
              *(f"topic read {root}/tables/+/{leaf}" for leaf in topics.PUBLIC_LEAVES), ""]
    return "\n".join(lines)


def configuration(directory: Path, port: int, bind: str, tls: bool = False) -> str:
    """``mosquitto.conf`` for a small event: authenticated clients only, QoS 1 messages and
    retained status kept on disk across a restart (saved on every change); with ``tls``, the
    listener speaks only TLS, with the certificates :mod:`tournament.certs` made."""
    secure = [f"cafile {directory / 'ca.crt'}", f"certfile {directory / 'server.crt'}",
              f"keyfile {directory / 'server.key'}", "tls_version tlsv1.2"] if tls else []
    return "\n".join([
        "# Written by companion tournament broker.",
        "per_listener_settings false",
        # Mosquitto started by root drops to the "mosquitto" user, which cannot read the 0600
        # account files: it keeps the account that started it instead.
        f"user {pwd.getpwuid(os.getuid()).pw_name}",
        "allow_anonymous false",
        f"password_file {directory / 'passwd'}",
        f"acl_file {directory / 'acl'}",
        "persistence true",
        f"persistence_location {directory / 'data'}/",
        "autosave_interval 1",
        "autosave_on_changes true",
        "max_queued_messages 100000",
        "max_inflight_messages 100",
        f"log_dest file {directory / 'mosquitto.log'}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "connection_messages true",
        f"listener {port} {bind}",
        *secure,
        "",
    ])


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to a file only its owner can read (passwords, the access list)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)
    os.chmod(path, 0o600)


def free_port(bind: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now (the tests' loopback brokers)."""
    with socket.socket() as probe:
        probe.bind((bind, 0))
        return int(probe.getsockname()[1])


@dataclass
class Broker:
    """A running Mosquitto for ``event``, its files under ``directory``."""

    event: str
    directory: Path
    port: int
    bind: str
    accounts: Accounts
    tls: bool = False
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def host(self) -> str:
        return "127.0.0.1" if self.bind in ("0.0.0.0", "127.0.0.1") else self.bind

    def url(self, account: str, host: str | None = None) -> str:
        """The tournament URL an account connects with (docs/tournament.md, "URLs"); over TLS
        it names the CA file the broker's certificate is checked against."""
        scheme = "mqtts" if self.tls else "mqtt"
        ca = f"?ca={quote(str(self.directory / 'ca.crt'))}" if self.tls else ""
        return (f"{scheme}://{account}:{self.accounts.passwords[account]}@{host or self.host}:"
                f"{self.port}/{self.event}{ca}")

    def start(self) -> None:
        """Start Mosquitto and wait until it accepts connections."""
        if self.process is not None and self.process.poll() is None:
            return
        log = self.directory / "mosquitto.log"
        self.process = subprocess.Popen(
            [mosquitto_binary(), "-c", str(self.directory / "mosquitto.conf")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + READY_WAIT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                _, err = self.process.communicate()
                said = (log.read_text(errors="replace") if log.exists() else "") + err.decode(
                    errors="replace")
                last = [x for x in said.splitlines() if x.strip()][-1:] or ["no reason given"]
                raise BrokerError(f"Mosquitto stopped at once on port {self.port}: {last[0]}")
            with contextlib.suppress(OSError), socket.create_connection(
                    (self.host, self.port), timeout=0.2):
                return
            time.sleep(0.01)  # a starting process: nothing to inject a clock into
        self.stop()
        raise BrokerError(f"Mosquitto did not accept connections on port {self.port} "
                          f"within {READY_WAIT_S:.0f} s")

    def stop(self) -> None:
        """Stop Mosquitto cleanly (SIGTERM: it saves its persistence file first)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> Broker:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def prepare(directory: Path, *, event: str, tables: int, referees: Iterable[str],
            port: int = 1883, bind: str = "127.0.0.1",
            accounts: Accounts | None = None, tls: bool = False,
            hosts: Iterable[str] = ()) -> Broker:
    """Write the configuration, the accounts (hashed by ``mosquitto_passwd``), the access list
    and ``credentials.txt`` (every account's URL, for the organiser) into ``directory``; with
    ``tls``, a CA and the broker's certificate too (naming its addresses and ``hosts``)."""
    if not topics.EVENT_NAME.match(event):
        raise BrokerError(f"{event!r} is not an event name: lower-case letters, digits, dashes")
    if not 1 <= tables <= 999:
        raise BrokerError(f"{tables} tables: an event has 1 to 999")
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    (directory / "data").mkdir(exist_ok=True, mode=0o700)
    accounts = accounts or Accounts.for_event(tables, referees)
    passwd = directory / "passwd"
    _write_private(passwd, "".join(f"{n}:{p}\n" for n, p in accounts.passwords.items()))
    hasher = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    try:
        subprocess.run([hasher, "-U", str(passwd)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        passwd.unlink(missing_ok=True)
        raise BrokerError(f"cannot hash the passwords with mosquitto_passwd: {exc}") from None
    _write_private(directory / "acl", access_list(event, accounts))
    if tls:
        try:
            certs.make(directory, event, certs.names(bind, hosts))
        except certs.CertificateError as exc:
            raise BrokerError(str(exc)) from None
    _write_private(directory / "mosquitto.conf", configuration(directory, port, bind, tls))
    broker = Broker(event, directory, port, bind, accounts, tls)
    _write_private(directory / "credentials.txt", "".join(
        f"{name}  {broker.url(name)}\n" for name in accounts.passwords))
    return broker


@contextlib.contextmanager
def running(directory: Path, *, event: str, tables: int, referees: Iterable[str],
            port: int, bind: str = "127.0.0.1") -> Iterator[Broker]:
    """A broker prepared in ``directory`` and started, stopped on the way out."""
    broker = prepare(directory, event=event, tables=tables, referees=referees, port=port,
                     bind=bind)
    with broker:
        yield broker
