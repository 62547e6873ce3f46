"""TLS as docs/club.md sets it up: a listener with a certificate in a file of the club's
``DIR/broker/conf.d`` (the written configuration includes it), the tables and the club given
the CA that signed it (``--club-ca`` / ``--broker-ca``). A table's stored log reaches the club
over it, and a client that does not trust the CA gets nothing."""

from __future__ import annotations

import datetime
import ipaddress
import socket
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi.testclient import TestClient

from controller.club.app import create_club_app
from controller.club.brokerconf import club_password
from controller.club.keyring import CLUB_USER, Credentials
from controller.club.mqtt import BrokerConfig, lets_anyone_in
from controller.club.publisher import ClubPublisher
from controller.club.service import ClubService
from tests.club.broker import Mosquitto, enrol, until
from tests.club.test_publisher import _write_log
from tests.reliability.support import free_port


def _pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _certificates(where: Path) -> tuple[Path, Path, Path]:
    """A CA, and a certificate it signed for localhost: (ca.pem, hall.crt, hall.key)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "hall test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = (where / "ca.pem", where / "hall.crt", where / "hall.key")
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(_pem(key))
    return paths


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def test_a_tables_facts_reach_the_club_over_tls(tmp_path: Path) -> None:
    path = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    ca, crt, key = _certificates(tmp_path)
    tls_port = free_port()
    (tmp_path / "club" / "broker" / "conf.d" / "tls.conf").write_text(
        f"listener {tls_port}\ncertfile {crt}\nkeyfile {key}\n")
    expected = _write_log(tmp_path / "green")
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    broker.start()
    until(lambda: _listening(tls_port), 30, "the TLS listener")
    creds = Credentials.load(path)
    club = ClubService(tmp_path / "club", BrokerConfig(
        "localhost", tls_port, CLUB_USER, club_password(tmp_path / "club"), ca))
    publisher = ClubPublisher(
        tmp_path / "green", "green", BrokerConfig("localhost", tls_port, creds.broker_user,
                                                  creds.broker_password, ca),
        signer=creds.signer, club=creds.club, poll=0.05)
    try:
        with TestClient(create_club_app(club)) as http:
            publisher.start()
            total = sum(len(hands) for hands in expected)
            until(lambda: len(http.get("/api/club/hands").json()) == total, 60,
                  "the log at the club over TLS")
            assert publisher.health()["ok"] and club.health()["ok"]
            assert club.store.last_pos("green") == publisher.published > 0
        # without the CA the broker's certificate is not trusted: no MQTT answer at all
        assert lets_anyone_in(BrokerConfig("localhost", tls_port), timeout=3) is None
        # and the TLS listener still refuses a client who has the CA but no password
        assert lets_anyone_in(BrokerConfig("localhost", tls_port, ca_file=ca)) is False
    finally:
        publisher.stop()
        broker.stop()
