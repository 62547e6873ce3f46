"""The locked Mosquitto configuration the club writes (``DIR/broker/``): a user and password
per table and one for the club (Mosquitto's own PBKDF2-SHA512 hash format, as
``mosquitto_passwd`` writes it), the access rules (each table writes only its own topics and
reads the club's; the club reads and writes all), client ids bound to user names (so no one
can take over the club's connection), a message size limit, no anonymous clients.

    mosquitto -c DIR/broker/mosquitto.conf
"""

from __future__ import annotations

import base64
import hashlib
import os
import pwd
import secrets
from pathlib import Path

from controller.club.keyring import CLUB_USER, write_private
from controller.club.schema import MAX_BYTES

BROKER_DIR = "broker"
CLUB_PASSWORD = "club-password"
ITERATIONS = 101  # mosquitto_passwd's own count for the $7$ (PBKDF2-SHA512) format

ACL = f"""# written by mahjong-table club (docs/club.md): rewritten at every enrolment
user {CLUB_USER}
topic readwrite mahjong/#

# every table: its own topics, its resend requests and the club's round and roster
pattern write mahjong/tables/%u/status
pattern write mahjong/tables/%u/online
pattern write mahjong/tables/%u/facts
pattern read mahjong/tables/%u/resend
pattern read mahjong/club/round
pattern read mahjong/club/roster
"""


def hash_password(password: str, salt: bytes | None = None) -> str:
    """A password file entry's hash: ``$7$101$SALT$HASH`` (base64), PBKDF2-HMAC-SHA512."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS, 64)
    return (f"$7${ITERATIONS}${base64.b64encode(salt).decode()}$"
            f"{base64.b64encode(digest).decode()}")


def broker_dir(data_dir: Path) -> Path:
    path = Path(data_dir).resolve() / BROKER_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path


def club_password(data_dir: Path) -> str:
    """The club service's broker password (made on first use, kept 0600)."""
    path = broker_dir(data_dir) / CLUB_PASSWORD
    if not path.exists():
        write_private(path, secrets.token_urlsafe(24) + "\n")
    return path.read_text(encoding="utf-8").splitlines()[0].strip()


def _users(passwd: Path) -> dict[str, str]:
    if not passwd.exists():
        return {}
    users = {}
    for line in passwd.read_text(encoding="utf-8").splitlines():
        user, sep, hashed = line.partition(":")
        if sep:
            users[user] = hashed
    return users


def set_password(data_dir: Path, user: str, password: str) -> None:
    """Add or change a user in the broker's password file."""
    passwd = broker_dir(data_dir) / "passwd"
    users = _users(passwd)
    users[user] = hash_password(password)
    write_private(passwd, "".join(f"{u}:{h}\n" for u, h in sorted(users.items())))


def write_config(data_dir: Path, port: int = 1883, host: str | None = None) -> Path:
    """mosquitto.conf, acl and passwd (with the club's user) in DIR/broker; the conf's path."""
    where = broker_dir(data_dir)
    passwd = where / "passwd"
    if CLUB_USER not in _users(passwd):
        set_password(data_dir, CLUB_USER, club_password(data_dir))
    (where / "acl").write_text(ACL, encoding="utf-8")
    os.chmod(where / "acl", 0o600)
    listener = f"listener {port}" + (f" {host}" if host else "")
    lines = [
        "# written by mahjong-table club (docs/club.md): the club's locked broker",
        "per_listener_settings false",
        listener,
        "allow_anonymous false",
        f"password_file {passwd}",
        f"acl_file {where / 'acl'}",
        "# the client id is the user name: nobody can take over another's connection",
        "use_username_as_clientid true",
        f"max_packet_size {MAX_BYTES + 1024}",
        "# run as root, Mosquitto would become user mosquitto, who cannot read these files",
        f"user {pwd.getpwuid(os.getuid()).pw_name}",
        "persistence true",
        f"persistence_location {where}",
        "# your own additions (a TLS listener, say) go here: enrolments leave it alone",
        f"include_dir {where / 'conf.d'}",
    ]
    (where / "conf.d").mkdir(exist_ok=True)
    conf = where / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return conf
