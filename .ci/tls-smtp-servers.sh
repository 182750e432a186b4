# shellcheck shell=bash
# Starts real SMTP servers with TLS on loopback (Python aiosmtpd, .ci/tls_smtp_servers.py) for
# tests/mail_tls.rs, with certificates made here by openssl: a test CA, a server certificate
# from it for 127.0.0.1 and localhost, one for `wrong.test` only, and two self-signed ones. Source
# it from .ci/run after .ci/smtp-server.sh:
#
#   . .ci/tls-smtp-servers.sh   # exports TWILIGHT_TEST_TLS_* (ports, CA file, user, password)
#   ...cargo test...
#   stop_tls_smtp_servers       # also run by the EXIT trap it installs (after any earlier one)
#
# TWILIGHT_TEST_REQUIRE_TLS_SMTP=1 makes tests/mail_tls.rs fail (not skip) without the servers.

command -v openssl >/dev/null || { apt-get update -qq && apt-get install -y -qq openssl >/dev/null; } || exit 1
if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
  python3 -m pip install --quiet aiosmtpd==1.4.6
fi
TWILIGHT_TLS_DIR="$(mktemp -d)"
(
  set -e
  cd "$TWILIGHT_TLS_DIR"
  ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 2 \
    -subj "/CN=twilight-pbem test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
  for leaf in server:"IP:127.0.0.1,DNS:localhost" wrongname:"DNS:wrong.test"; do
    name="${leaf%%:*}"
    printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=%s\n' \
      "${leaf#*:}" >"$name.ext"
    openssl req "${ec[@]}" -keyout "$name.key" -out "$name.csr" -subj "/CN=$name"
    openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
      -extfile "$name.ext" -out "$name.pem"
  done
  # A relay's own self-signed certificate, as rustls accepts it (not a CA certificate)...
  openssl req -x509 "${ec[@]}" -keyout selfsigned.key -out selfsigned.pem -days 2 \
    -subj "/CN=localhost" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
    -addext "basicConstraints=critical,CA:FALSE"
  # ...and as `openssl req -x509` makes it by default (marked as a CA: rustls refuses it).
  openssl req -x509 "${ec[@]}" -keyout selfsignedca.key -out selfsignedca.pem -days 2 \
    -subj "/CN=localhost" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost"
) 2>"$TWILIGHT_TLS_DIR/openssl.log" || {
  cat "$TWILIGHT_TLS_DIR/openssl.log" >&2
  echo "could not make the test certificates" >&2
  exit 1
}
# The servers' own messages (TLS handshakes the tests make fail on purpose) go to server.log.
python3 "$(dirname "${BASH_SOURCE[0]}")/tls_smtp_servers.py" "$TWILIGHT_TLS_DIR" \
  >"$TWILIGHT_TLS_DIR/server.log" 2>&1 &
TWILIGHT_TLS_SERVERS_PID=$!
stop_tls_smtp_servers() {
  if [ -n "${TWILIGHT_TLS_SERVERS_PID:-}" ]; then
    kill "$TWILIGHT_TLS_SERVERS_PID" 2>/dev/null || true
    wait "$TWILIGHT_TLS_SERVERS_PID" 2>/dev/null || true
    TWILIGHT_TLS_SERVERS_PID=
  fi
}
_twilight_prev_exit_trap="$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")"
# shellcheck disable=SC2064
trap "stop_tls_smtp_servers; ${_twilight_prev_exit_trap}" EXIT
# The script writes its env file once every server accepts connections (10 s at most).
for _ in $(seq 1 100); do
  [ -f "$TWILIGHT_TLS_DIR/env" ] && break
  kill -0 "$TWILIGHT_TLS_SERVERS_PID" 2>/dev/null || break
  sleep 0.1
done
if [ ! -f "$TWILIGHT_TLS_DIR/env" ]; then
  cat "$TWILIGHT_TLS_DIR/server.log" >&2
  echo "the TLS SMTP test servers did not start" >&2
  exit 1
fi
set -a
# shellcheck disable=SC1091
. "$TWILIGHT_TLS_DIR/env"
set +a
export TWILIGHT_TEST_REQUIRE_TLS_SMTP=1
echo "TLS SMTP test servers (aiosmtpd, pid $TWILIGHT_TLS_SERVERS_PID) in $TWILIGHT_TLS_DIR: smtps $TWILIGHT_TEST_TLS_SMTPS_PORT, starttls $TWILIGHT_TEST_TLS_STARTTLS_PORT, notls $TWILIGHT_TEST_TLS_NOTLS_PORT, wrongname $TWILIGHT_TEST_TLS_WRONGNAME_PORT, selfsigned $TWILIGHT_TEST_TLS_SELFSIGNED_PORT, selfsignedca $TWILIGHT_TEST_TLS_SELFSIGNEDCA_PORT"
