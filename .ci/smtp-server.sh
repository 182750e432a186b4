# shellcheck shell=bash
# Starts a real SMTP server (Python aiosmtpd, plain SMTP on loopback) that stores every message
# in a Maildir, for the mail end-to-end test (tests/mail_e2e.rs). Source it from .ci/run:
#
#   . .ci/smtp-server.sh        # exports TWILIGHT_TEST_SMTP_PORT, TWILIGHT_TEST_SMTP_MAILDIR
#   ...cargo test...
#   stop_smtp_server            # also run by the EXIT trap it installs
#
# TWILIGHT_TEST_REQUIRE_SMTP=1 makes the end-to-end test fail (not fall back to the outbox)
# if the server is not reachable.

if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
  python3 -m pip install --quiet aiosmtpd==1.4.6
fi
TWILIGHT_TEST_SMTP_MAILDIR="$(mktemp -d)/spool"
mkdir -p "$TWILIGHT_TEST_SMTP_MAILDIR"/new "$TWILIGHT_TEST_SMTP_MAILDIR"/cur "$TWILIGHT_TEST_SMTP_MAILDIR"/tmp
# Ask the OS for a free port.
TWILIGHT_TEST_SMTP_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
python3 -m aiosmtpd -n -l "127.0.0.1:$TWILIGHT_TEST_SMTP_PORT" \
  -c aiosmtpd.handlers.Mailbox "$TWILIGHT_TEST_SMTP_MAILDIR" &
TWILIGHT_SMTP_SERVER_PID=$!
stop_smtp_server() {
  if [ -n "${TWILIGHT_SMTP_SERVER_PID:-}" ]; then
    kill "$TWILIGHT_SMTP_SERVER_PID" 2>/dev/null || true
    wait "$TWILIGHT_SMTP_SERVER_PID" 2>/dev/null || true
    TWILIGHT_SMTP_SERVER_PID=
  fi
}
trap stop_smtp_server EXIT
# Wait until the port accepts connections (10 s at most).
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$TWILIGHT_TEST_SMTP_PORT") 2>/dev/null; then
    break
  fi
  sleep 0.1
done
if ! (exec 3<>"/dev/tcp/127.0.0.1/$TWILIGHT_TEST_SMTP_PORT") 2>/dev/null; then
  echo "aiosmtpd did not start on 127.0.0.1:$TWILIGHT_TEST_SMTP_PORT" >&2
  exit 1
fi
echo "SMTP test server: aiosmtpd on 127.0.0.1:$TWILIGHT_TEST_SMTP_PORT, Maildir $TWILIGHT_TEST_SMTP_MAILDIR (pid $TWILIGHT_SMTP_SERVER_PID)"
export TWILIGHT_TEST_SMTP_PORT TWILIGHT_TEST_SMTP_MAILDIR
export TWILIGHT_TEST_REQUIRE_SMTP=1
