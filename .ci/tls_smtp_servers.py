"""Real SMTP servers with TLS on loopback for tests/mail_tls.rs (started by .ci/tls-smtp-servers.sh).

Usage: python3 tls_smtp_servers.py DIR   (DIR holds the certificates made by the shell script)

Starts, all on 127.0.0.1, each storing what it accepts in its own Maildir DIR/<name>/:

  smtps      implicit TLS (certificate from the test CA), AUTH required
  starttls   plain connection, STARTTLS required before anything else, then AUTH required
  notls      plain text only, no STARTTLS offered, but AUTH offered in the clear: a client
             that sends credentials here has leaked them (each attempt is logged to
             DIR/notls-auth-attempts)
  wrongname  implicit TLS with a certificate from the test CA for `wrong.test` only
  selfsigned implicit TLS with a self-signed certificate that is not a CA certificate, AUTH
             required
  selfsignedca  the same with a self-signed certificate marked as a CA (as `openssl req -x509`
             makes one by default)

When all accept connections it writes DIR/env (KEY=VALUE lines) and runs until killed.
"""

import logging
import os
import signal
import socket
import ssl
import sys
import threading
import warnings

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult

# The notls server offers AUTH in the clear on purpose (to catch a client that would use it).
warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
logging.getLogger("mail.log").setLevel(logging.ERROR)

DIR = sys.argv[1]
USER = "referee@ts.test"
PASSWORD = "tls-test-password-" + os.urandom(6).hex()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def context(cert, key):
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(os.path.join(DIR, cert), os.path.join(DIR, key))
    return ctx


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login.decode() == USER and auth_data.password.decode() == PASSWORD
    return AuthResult(success=ok, handled=False)


def leak_recorder(server, session, envelope, mechanism, auth_data):
    with open(os.path.join(DIR, "notls-auth-attempts"), "a") as f:
        f.write(f"{mechanism} {auth_data.login!r}\n")
    return AuthResult(success=False, handled=False)


def maildir(name):
    path = os.path.join(DIR, name)
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(path, sub), exist_ok=True)
    return Mailbox(path)


server_ctx = context("server.pem", "server.key")
# aiosmtpd counts only STARTTLS as TLS when deciding to offer AUTH; on an implicit-TLS listener
# the whole connection is TLS, so AUTH is offered there without that check.
IMPLICIT = dict(authenticator=authenticator, auth_required=True, auth_require_tls=False)
servers = {
    "smtps": dict(ssl_context=server_ctx, **IMPLICIT),
    "starttls": dict(
        tls_context=server_ctx,
        require_starttls=True,
        authenticator=authenticator,
        auth_required=True,
    ),
    "notls": dict(authenticator=leak_recorder, auth_required=True, auth_require_tls=False),
    "wrongname": dict(ssl_context=context("wrongname.pem", "wrongname.key"), **IMPLICIT),
    "selfsigned": dict(ssl_context=context("selfsigned.pem", "selfsigned.key"), **IMPLICIT),
    "selfsignedca": dict(ssl_context=context("selfsignedca.pem", "selfsignedca.key"), **IMPLICIT),
}
controllers = []
env = {
    "TWILIGHT_TEST_TLS_CA_FILE": os.path.join(DIR, "ca.pem"),
    "TWILIGHT_TEST_TLS_SELFSIGNED_CERT": os.path.join(DIR, "selfsigned.pem"),
    "TWILIGHT_TEST_TLS_SELFSIGNEDCA_CERT": os.path.join(DIR, "selfsignedca.pem"),
    "TWILIGHT_TEST_TLS_USER": USER,
    "TWILIGHT_TEST_TLS_PASSWORD": PASSWORD,
    "TWILIGHT_TEST_TLS_DIR": DIR,
}
for name, kwargs in servers.items():
    port = free_port()
    c = Controller(maildir(name), hostname="127.0.0.1", port=port, **kwargs)
    c.start()
    controllers.append(c)
    env[f"TWILIGHT_TEST_TLS_{name.upper()}_PORT"] = str(port)

tmp = os.path.join(DIR, "env.tmp")
with open(tmp, "w") as f:
    for k, v in env.items():
        f.write(f"{k}={v}\n")
os.rename(tmp, os.path.join(DIR, "env"))

stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
stop.wait()
for c in controllers:
    c.stop()
