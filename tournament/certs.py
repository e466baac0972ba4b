"""A small certificate authority for an event's broker: ``companion tournament broker --tls``.

The ``openssl`` program (installed with every Debian and Raspberry Pi OS) makes, in the
broker's directory, a CA (``ca.crt``, ``ca.key``) and a server certificate signed by it
(``server.crt``, ``server.key``) naming the broker's addresses. Every file is 0600. Tables and
referees check the broker's certificate against ``ca.crt`` (``mqtts://...?ca=PATH``): copy that
file, and only that one, to each table; ``ca.key`` never leaves the organiser's machine.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

DAYS = 60
"""How long the certificates hold: an event, with room to spare."""


class CertificateError(Exception):
    """The certificates cannot be made; the message says why in one line."""


def _openssl(*args: str) -> None:
    program = shutil.which("openssl")
    if program is None:
        raise CertificateError("openssl is not installed: `sudo apt install openssl`")
    done = subprocess.run([program, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = [x for x in done.stderr.splitlines() if x.strip()][-1:] or ["no reason given"]
        raise CertificateError(f"openssl failed: {said[0]}")


def _private(*paths: Path) -> None:
    for path in paths:
        os.chmod(path, 0o600)


def names(bind: str, extra: Iterable[str] = ()) -> list[str]:
    """The broker's names for its certificate: localhost, this machine's name, the address it
    listens on (every address of this machine when it listens on all) and ``extra``."""
    found = ["localhost", "127.0.0.1", socket.gethostname()]
    if bind not in ("0.0.0.0", "::"):
        found.append(bind)
    else:
        with contextlib.suppress(OSError):  # a machine with no name in its resolver
            found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)]
    found += list(extra)
    return list(dict.fromkeys(n for n in found if n))


def _alt_names(hosts: Iterable[str]) -> str:
    parts = []
    for host in hosts:
        try:
            parts.append(f"IP:{ipaddress.ip_address(host)}")
        except ValueError:
            parts.append(f"DNS:{host}")
    return ",".join(parts)


def make(directory: Path, event: str, hosts: Iterable[str]) -> tuple[Path, Path, Path]:
    """The CA and the server certificate in ``directory`` (made once: kept when present, so
    the tables' copies of ``ca.crt`` stay valid). Returns (ca.crt, server.crt, server.key)."""
    ca_crt, ca_key = directory / "ca.crt", directory / "ca.key"
    crt, key = directory / "server.crt", directory / "server.key"
    if all(p.exists() for p in (ca_crt, ca_key, crt, key)):
        return ca_crt, crt, key
    old = os.umask(0o077)
    try:
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                 "-nodes", "-keyout", str(ca_key), "-out", str(ca_crt), "-days", str(DAYS),
                 "-subj", f"/CN=companion tournament {event} CA",
                 "-addext", "basicConstraints=critical,CA:TRUE",
                 "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        with tempfile.TemporaryDirectory() as scratch:
            csr, ext = Path(scratch) / "server.csr", Path(scratch) / "server.ext"
            ext.write_text(f"basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                           f"extendedKeyUsage=serverAuth\n"
                           f"subjectAltName={_alt_names(hosts)}\n"
                           "authorityKeyIdentifier=keyid\nsubjectKeyIdentifier=hash\n")
            _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                     "-nodes", "-keyout", str(key), "-out", str(csr),
                     "-subj", f"/CN=companion tournament {event} broker")
            _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca_crt), "-CAkey", str(ca_key),
                     "-CAcreateserial", "-CAserial", str(Path(scratch) / "ca.srl"),
                     "-out", str(crt), "-days", str(DAYS), "-extfile", str(ext))
    finally:
        os.umask(old)
    _private(ca_crt, ca_key, crt, key)
    return ca_crt, crt, key
