#!/usr/bin/env bash
# The load benchmark of `twilight serve` (figures in benches/README.md):
#
#   benches/serve_load.sh [GAMES] [REPLIES] [RATE]     # defaults: 1000 10000 0
#
# Starts a real SMTP server (aiosmtpd) and a real IMAP server (Dovecot) on loopback
# (.ci/smtp-server.sh, .ci/imap-server.sh), sets up GAMES started games, runs the release
# `twilight serve` on them, and delivers REPLIES replies to the IMAP mailbox as each prompt
# comes (at most RATE a second; 0: as fast as serve takes them), from the moment every game's
# first prompt (the mail serve owes at start) is in. Prints replies a second, the
# latency from a reply's delivery to the SMTP acceptance of its game's next prompt (p50, p99,
# max), serve's CPU a reply and its peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
games_n="${1:-1000}"; replies="${2:-10000}"; rate="${3:-0}"
nice cargo build --release --bin twilight --example serve_load
. .ci/smtp-server.sh
. .ci/imap-server.sh
work="$(mktemp -d)"
target/release/examples/serve_load setup "$work/games" "$games_n"
TWILIGHT_IMAP_URL="imaps://127.0.0.1:$TWILIGHT_TEST_IMAP_PORT" \
TWILIGHT_IMAP_USER="$TWILIGHT_TEST_IMAP_USER" \
TWILIGHT_IMAP_PASSWORD="$TWILIGHT_TEST_IMAP_PASSWORD" \
TWILIGHT_IMAP_CA_FILE="$TWILIGHT_TEST_IMAP_CA" \
TWILIGHT_SMTP_URL="smtp+insecure://127.0.0.1:$TWILIGHT_TEST_SMTP_PORT" \
TWILIGHT_FROM="Twilight Referee <referee@ts.test>" \
  target/release/twilight serve --games "$work/games" --tick 5 2>"$work/serve.log" &
serve_pid=$!
target/release/examples/serve_load drive "$TWILIGHT_TEST_SMTP_MAILDIR" "$replies" "$rate" "$serve_pid" "$games_n"
kill -TERM "$serve_pid"
wait "$serve_pid" || true
echo "serve's log: $work/serve.log ($(grep -c ': applied to ' "$work/serve.log") mails applied, $(grep -c '^.* error: ' "$work/serve.log" || true) errors)"
