#!/usr/bin/env bash
# The CPU time of one `twilight inbox` run on each hostile mail of benches/README.md ("Hostile
# mails"), for each build given, and whether the mail left new/ (read once):
#
#   benches/hostile_mail.sh BIN [BIN…]
#
# Each run gets a fresh copy of a game after the USSR's setup (the US owes its own), made with
# the first BIN, and a Maildir holding the one mail. Times: `/usr/bin/time -f '%U %S'` (user,
# system CPU seconds), a run cut at TIMEOUT seconds (default 600). Needs python3.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BIN [BIN…]" >&2; exit 2; }
TIMEOUT=${TIMEOUT:-600}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
B0=$1
export TWILIGHT_NOW=2026-11-30T12:00:00Z
"$B0" new "$W/base/g1" --us us@p.test --ussr ussr@p.test --outbox >/dev/null
"$B0" join "$W/base/g1" --as us --nonce a --outbox >/dev/null
"$B0" join "$W/base/g1" --as ussr --nonce b --outbox >/dev/null
"$B0" play "$W/base/g1" --as ussr "influence Poland 4, E Germany 1, Hungary 1" --outbox >/dev/null
python3 - "$W" <<'EOF'
import glob, re, sys
w = sys.argv[1]
def token(side):
    # The token of the latest mail to `side`: the US's prompt, the USSR's update (its game
    # token).
    best = (-1, None)
    for f in glob.glob(f"{w}/base/g1/outbox/*.eml"):
        t = open(f, errors="replace").read()
        if re.search(rf"^X-Twilight-Side: {side}\r?$", t, re.M):
            seq = int(re.search(r"^X-Twilight-Seq: (\d+)", t, re.M).group(1))
            best = max(best, (seq, re.search(r"^Token: (\S+)", t, re.M).group(1)))
    return best[1]
us, ussr = token("us"), token("ussr")
text = (1 << 20) - 1000  # just under the text read (1 MiB)
def mail(name, frm, subject, body, headers=""):
    open(f"{w}/{name}.eml", "w").write(
        f"From: {frm}\r\nTo: ref@p.test\r\nSubject: {subject}\r\nMessage-ID: <{name}@p.test>\r\n"
        f"{headers}Content-Type: text/plain\r\n\r\n{body}")
refs = "\r\n ".join(f"<id{i}.x@evil.test>" for i in range(900_000))
mail("references-20MB", "stranger@evil.test", "hello", "pass\r\n", f"References: {refs}\r\n")
mail("letters-1MiB-stranger", "stranger@evil.test", "Re: [TS g1] move", "a\r\n" * (text // 3))
mail("letters-1MiB-player-no-token", "us@p.test", "Re: [TS g1] move", "a\r\n" * (text // 3))
mail("letters-1MiB-player-token", "us@p.test", "Re: [TS g1] move",
     f"Token: {us}\r\n" + "a\r\n" * (text // 3))
mail("takeback-3000-lines", "ussr@p.test", "Re: [TS g1] takeback",
     f"Token: {ussr}\r\n" + "takeback\r\n" * 3000)
mail("takeback-1MiB", "ussr@p.test", "Re: [TS g1] takeback",
     f"Token: {ussr}\r\n" + "takeback\r\n" * (text // 10))
EOF
printf '%-32s %-40s %10s %10s  %s\n' mail build user sys 'left new/'
for m in references-20MB letters-1MiB-stranger letters-1MiB-player-no-token \
  letters-1MiB-player-token takeback-3000-lines takeback-1MiB; do
  for b in "$@"; do
    rm -rf "$W/run"
    mkdir -p "$W/run/md/new" "$W/run/md/cur" "$W/run/md/tmp"
    cp -r "$W/base" "$W/run/games"
    cp "$W/$m.eml" "$W/run/md/new/1"
    /usr/bin/time -o "$W/time" -f '%U %S' timeout "$TIMEOUT" "$b" inbox --games "$W/run/games" \
      "$W/run/md" --outbox >/dev/null 2>&1 || true
    t=$(tail -1 "$W/time")
    left=$([ -e "$W/run/md/new/1" ] && echo no || echo yes)
    printf '%-32s %-40s %10s %10s  %s\n' "$m" "$b" ${t:-? ?} "$left"
  done
done
