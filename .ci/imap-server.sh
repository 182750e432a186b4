# shellcheck shell=bash
# Starts a real IMAP server on loopback (Dovecot, Debian package dovecot-imapd) for the tests
# of `twilight serve` (tests/serve_imap_game.rs) and the load benchmark (benches/serve_load.sh):
# implicit TLS only (IMAPS), a certificate from a test CA made here with openssl, one user with
# a random password, mail in a Maildir under a temporary folder. Its own configuration, never
# the system's: it runs as root (mail owned by the `dovecot` user) or as any other user (mail
# owned by that user). Source it from .ci/run:
#
#   . .ci/imap-server.sh   # exports TWILIGHT_TEST_IMAP_PORT, _USER, _PASSWORD, _CA, _DIR
#   ...cargo test...
#   stop_imap_server       # also run by the EXIT trap it installs (after any earlier one)
#
# TWILIGHT_TEST_REQUIRE_IMAP=1 makes the IMAP tests fail (not skip) without the server.

if ! command -v dovecot >/dev/null || [ ! -x /usr/lib/dovecot/imap ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends dovecot-imapd openssl >/dev/null
fi
TWILIGHT_IMAP_DIR="$(mktemp -d)"
chmod 755 "$TWILIGHT_IMAP_DIR"
(
  set -e
  cd "$TWILIGHT_IMAP_DIR"
  ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 2 \
    -subj "/CN=twilight-pbem IMAP test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n' >server.ext
  openssl req "${ec[@]}" -keyout server.key -out server.csr -subj "/CN=localhost"
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
    -extfile server.ext -out server.pem
) 2>"$TWILIGHT_IMAP_DIR/openssl.log" || {
  cat "$TWILIGHT_IMAP_DIR/openssl.log" >&2
  echo "could not make the IMAP test certificates" >&2
  exit 1
}
TWILIGHT_TEST_IMAP_USER="referee@ts.test"
TWILIGHT_TEST_IMAP_PASSWORD="imap-test-password-$(openssl rand -hex 6)"
TWILIGHT_TEST_IMAP_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
if [ "$(id -u)" = 0 ]; then
  _imap_login_user=dovenull; _imap_user=dovecot
else
  _imap_login_user="$(id -un)"; _imap_user="$(id -un)"
fi
_imap_uid="$(id -u "$_imap_user")"; _imap_gid="$(id -g "$_imap_user")"
mkdir -p "$TWILIGHT_IMAP_DIR/run" "$TWILIGHT_IMAP_DIR/state" "$TWILIGHT_IMAP_DIR/home"
chown "$_imap_uid:$_imap_gid" "$TWILIGHT_IMAP_DIR/home"
printf '%s:{PLAIN}%s\n' "$TWILIGHT_TEST_IMAP_USER" "$TWILIGHT_TEST_IMAP_PASSWORD" >"$TWILIGHT_IMAP_DIR/passwd"
chgrp "$_imap_gid" "$TWILIGHT_IMAP_DIR/passwd"
chmod 640 "$TWILIGHT_IMAP_DIR/passwd"
cat >"$TWILIGHT_IMAP_DIR/dovecot.conf" <<EOF
base_dir = $TWILIGHT_IMAP_DIR/run
state_dir = $TWILIGHT_IMAP_DIR/state
log_path = $TWILIGHT_IMAP_DIR/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <$TWILIGHT_IMAP_DIR/server.pem
ssl_key = <$TWILIGHT_IMAP_DIR/server.key
disable_plaintext_auth = yes
auth_mechanisms = plain login
default_login_user = $_imap_login_user
default_internal_user = $_imap_user
default_internal_group = $(id -gn "$_imap_user")
first_valid_uid = 1
mail_location = maildir:~/Maildir
mail_fsync = never
mailbox_list_index = yes
imap_idle_notify_interval = 1 secs
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $TWILIGHT_IMAP_DIR/passwd
}
userdb {
  driver = static
  args = uid=$_imap_uid gid=$_imap_gid home=$TWILIGHT_IMAP_DIR/home/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    port = $TWILIGHT_TEST_IMAP_PORT
    ssl = yes
  }
}
service anvil {
  chroot =
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
EOF
# -F: in the foreground, as our child, so that the trap stops it.
dovecot -F -c "$TWILIGHT_IMAP_DIR/dovecot.conf" >"$TWILIGHT_IMAP_DIR/server.log" 2>&1 &
TWILIGHT_IMAP_SERVER_PID=$!
stop_imap_server() {
  if [ -n "${TWILIGHT_IMAP_SERVER_PID:-}" ]; then
    kill "$TWILIGHT_IMAP_SERVER_PID" 2>/dev/null || true
    wait "$TWILIGHT_IMAP_SERVER_PID" 2>/dev/null || true
    TWILIGHT_IMAP_SERVER_PID=
  fi
}
_twilight_prev_exit_trap="$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")"
# shellcheck disable=SC2064
trap "stop_imap_server; ${_twilight_prev_exit_trap}" EXIT
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$TWILIGHT_TEST_IMAP_PORT") 2>/dev/null; then
    break
  fi
  kill -0 "$TWILIGHT_IMAP_SERVER_PID" 2>/dev/null || break
  sleep 0.1
done
if ! (exec 3<>"/dev/tcp/127.0.0.1/$TWILIGHT_TEST_IMAP_PORT") 2>/dev/null; then
  cat "$TWILIGHT_IMAP_DIR/server.log" "$TWILIGHT_IMAP_DIR/dovecot.log" >&2 2>/dev/null
  echo "Dovecot did not start on 127.0.0.1:$TWILIGHT_TEST_IMAP_PORT" >&2
  exit 1
fi
TWILIGHT_TEST_IMAP_CA="$TWILIGHT_IMAP_DIR/ca.pem"
TWILIGHT_TEST_IMAP_DIR="$TWILIGHT_IMAP_DIR"
export TWILIGHT_TEST_IMAP_PORT TWILIGHT_TEST_IMAP_USER TWILIGHT_TEST_IMAP_PASSWORD TWILIGHT_TEST_IMAP_CA TWILIGHT_TEST_IMAP_DIR
export TWILIGHT_TEST_REQUIRE_IMAP=1
echo "IMAP test server: Dovecot (imaps) on 127.0.0.1:$TWILIGHT_TEST_IMAP_PORT, user $TWILIGHT_TEST_IMAP_USER, CA $TWILIGHT_TEST_IMAP_CA (pid $TWILIGHT_IMAP_SERVER_PID)"
