"""The seat links a phone opens: the address it will use, and whether a phone can reach it.

A service that listens only on loopback (127.0.0.1, the default) cannot be opened from a phone;
the operator page then says how to change that (``--host 0.0.0.0`` or ``[server] public_url``).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
ANY_ADDRESSES = frozenset({"0.0.0.0", "::", ""})  # noqa: S104 - names, not a bind


@dataclass(frozen=True)
class SeatLink:
    url: str
    reachable: bool  # False: only this computer can open it
    hint: str | None  # what to change when it is not reachable


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's own network address by its host name (no packet is sent), if any."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for *_, address in infos:
        ip = str(address[0])
        if not is_loopback(ip):
            return ip
    return None


def base_url(request_base: str, listen_host: str, port: int, public_url: str | None) -> str:
    """The address phones are sent to: the configured public URL; else, when the page was
    opened on loopback but the service listens on every address, this machine's network
    address; else the address the page was opened with."""
    if public_url:
        return public_url.rstrip("/")
    parts = urlsplit(request_base)
    if is_loopback(parts.hostname or "") and listen_host in ANY_ADDRESSES:
        lan = lan_address()
        if lan:
            return f"{parts.scheme}://{lan}:{parts.port or port}"
    return request_base.rstrip("/")


def seat_link(base: str, position: int, token: str, listen_host: str = "") -> SeatLink:
    # The token goes in the fragment: browsers never send it, so no access log can record it.
    url = f"{base}/seat/{position}#token={token}"
    host = urlsplit(base).hostname or ""
    if not is_loopback(host):
        return SeatLink(url, True, None)
    if listen_host in ANY_ADDRESSES and listen_host:
        hint = (f"{host} is this computer only: a phone cannot open it. The service listens on "
                "every address, but this machine's network address cannot be found from its "
                "host name: set `public_url = \"http://ADDRESS:PORT\"` under [server] in the "
                "config file, or open the operator page at the machine's network address.")
    else:
        hint = (f"{host} is this computer only: a phone cannot open it. Start the service with "
                "`--host 0.0.0.0` (the links then use this machine's network address), or set "
                "`public_url = \"http://ADDRESS:PORT\"` under [server] in the config file.")
    return SeatLink(url, False, hint)
