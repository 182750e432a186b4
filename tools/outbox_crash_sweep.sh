#!/usr/bin/env bash
# The long kill sweep of the mail queue (design §9 "nothing lost after a commit"): `kill -9`
# (strace -e inject=SYSCALL:signal=KILL:when=N) at every mutating system call of `inbox`,
# `play`, `remind` and `mail`, position after position, then one more run: every owed mail is
# delivered once (over SMTP at most the one in flight twice, with the same Message-ID) and no
# side is timed out unprompted. tests/mail_outbox_crash.rs runs the CI-sized sweep.
#
#   tools/outbox_crash_sweep.sh [POINTS [FIRST_POSITION]]   # default 5000 from 0; prints totals
#
# Needs strace and, for the SMTP part, Python's aiosmtpd (.ci/smtp-server.sh starts it).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/smtp-server.sh
nice cargo test --test mail_outbox_crash --no-run
# The sweep runs a copy of the binary: a build meanwhile does not change what it tests.
frozen="$(mktemp -d)"
cp target/debug/twilight "$frozen/twilight"
TWILIGHT_TEST_BIN="$frozen/twilight" TWILIGHT_OUTBOX_SWEEP_POINTS="${1:-5000}" \
  TWILIGHT_OUTBOX_SWEEP_FROM="${2:-0}" TWILIGHT_TEST_REQUIRE_STRACE=1 \
  nice cargo test --test mail_outbox_crash -- --ignored --nocapture the_long_kill_sweep 2>&1 |
  grep -E -A3 "position|long sweep|test result|panicked"
rm -rf "$frozen"
