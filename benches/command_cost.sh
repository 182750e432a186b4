#!/usr/bin/env bash
# The time of `status`, `moves`, `play` and `inbox` (one reply) at several
# log lengths, with the replay snapshot (snapshot.json at the head) and without it (deleted
# before each run), measured with hyperfine (wall and CPU = user + sys).
#
#   benches/command_cost.sh [TWILIGHT] [OLD_TWILIGHT]
#
# TWILIGHT is the binary measured (default target/release/twilight); OLD_TWILIGHT, if given, is
# measured too (a build of the code before the snapshot; snapshot.json means nothing to it).
# Build both with `--no-default-features` to leave the mail's PNG picture out of `inbox`. The
# cache folder (TWILIGHT_CACHE_DIR: the picture's static layer, palette and each game's last
# picture) is the script's own: each `inbox` run starts from the cache as the prompt's mail left
# it, so the reply's picture is drawn by difference from the picture the player last saw.
# The games are copies of games/example-complete cut after $CUTS (default 20, 160 and 340) of
# its 343 decisions — about 50, 350 and 750 entries — each with a decision owed. Results go to
# $OUT (default /tmp/command-cost) as hyperfine JSON, and a summary table on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/target/release/twilight}
old=${2:-}
out=${OUT:-/tmp/command-cost}
runs=${RUNS:-30}
rm -rf "$out"
mkdir -p "$out/base" "$out/base-snap" "$out/run" "$out/maildir/new" "$out/maildir/cur" "$out/maildir/tmp"

# A copy of the example game cut after its N-th decision and the records that follow it.
cut_game() {
    python3 - "$here/games/example-complete" "$1" "$2" <<'EOF'
import os, re, shutil, sys
src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
docs = [d for d in re.split(r'(?m)^(?=---$)', open(os.path.join(src, 'log.yaml')).read()) if d]
count = 0
for i, d in enumerate(docs):
    if '\n  decision:\n' in d:
        count += 1
        if count == n:
            j = i + 1
            while j < len(docs) and re.search(r'\n  (chance|commitment|dice_key):\n', docs[j]) \
                    and 'kind: headline' not in docs[j]:
                j += 1
            break
os.makedirs(dst)
open(os.path.join(dst, 'log.yaml'), 'w').write(''.join(docs[:j]))
shutil.copy(os.path.join(src, 'secret.yaml'), dst)
print(j)
EOF
}

summary=()
# Every measured command's cache folder (the picture's static layer, palette and each game's last
# picture): a copy of the cut's own, made before each `inbox` run (see below).
export TWILIGHT_CACHE_DIR="$out/cache-run"
for n in ${CUTS:-20 160 340}; do
    g=g$n
    entries=$(cut_game "$n" "$out/base/$g")
    # The side owed a decision and the first legal move `moves` lists for it.
    side="" line=""
    for s in us ussr; do
        l=$("$bin" moves "$out/base/$g" --as "$s" --format json |
            python3 -c 'import json,sys; m=json.load(sys.stdin)["moves"]; print(m[0] if m else "")')
        if [ -n "$l" ]; then side=$s line=$l; break; fi
    done
    # A reply mail carrying that move with the prompt's token (from `twilight mail`).
    rm -rf "$out/base/$g/outbox"
    # The prompt's mail draws the game's picture as that player saw it: kept in this cut's own
    # cache folder (with the static layer and palette), which every `inbox` run starts from, as
    # the host's cache stands when a reply comes in.
    TWILIGHT_CACHE_DIR="$out/cache-base/$g" "$bin" mail "$out/base/$g" --outbox >/dev/null
    token=$(grep -rhoE 'Token: [A-Za-z0-9_-]+' "$out/base/$g/outbox" | head -1 | cut -d' ' -f2)
    # The mail state stays: the prompt this reply answers was mailed, as in a game in play (without
    # it `inbox` would write each player's first mail, with the whole history).
    rm -rf "$out/base/$g/outbox"
    # `mail` re-sends prompts only: the player who owes nothing is recorded as mailed at the same
    # point too (an update), as in a game in play with updates on (mail.yaml's default).
    python3 - "$out/base/$g/mail-state.yaml" "$side" <<'EOF2'
import re, sys
path, owes = sys.argv[1], sys.argv[2]
text = open(path).read()
blocks = dict(re.findall(r'(?m)^(us|ussr):\n((?:  .*\n)*)', text))
other = 'ussr' if owes == 'us' else 'us'
mailed = re.sub(r'(?m)^  owed_since:.*\n', '', blocks[owes])
mailed = mailed.replace('.%s.' % owes, '.%s.' % other)
text = text.replace('%s:\n%s' % (other, blocks[other]), '%s:\n%s' % (other, mailed))
open(path, 'w').write(text)
EOF2
    from=$(grep -A3 'players:' "$out/base/$g/log.yaml" | grep "  $side:" | head -1 | awk '{print $2}')
    printf 'From: %s\r\nTo: referee@example.org\r\nSubject: Re: [TS %s] your move\r\nMessage-ID: <bench-%s@example.org>\r\nDate: Tue, 1 Dec 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\nToken: %s\r\n' \
        "$from" "$g" "$n" "$line" "$token" >"$out/reply-$g.eml"
    rm -f "$out/base/$g/snapshot.json" "$out/base/$g/.lock"
    # The same game with its snapshot at the head (a folder of the same name: the game id is
    # part of the snapshot's key).
    cp -a "$out/base/$g" "$out/base-snap/$g"
    "$bin" status "$out/base-snap/$g" >/dev/null # writes the snapshot at the head
    echo "$g: $entries entries, $side plays \`$line\`" >&2

    for variant in snap nosnap old; do
        case $variant in
            snap) b=$bin src=base-snap ;;
            nosnap) b=$bin src=base ;;
            old) [ -n "$old" ] || continue; b=$old src=base ;;
        esac
        fresh="rm -rf $out/run/$g && cp -a $out/$src/$g $out/run/$g"
        nosnap=""
        [ "$variant" = nosnap ] && nosnap="rm -f $out/run/$g/snapshot.json"
        hyperfine --runs "$runs" --warmup 3 --export-json "$out/$g-$variant.json" \
            --prepare "${nosnap:-true}" \
            -n "status $g $variant" "$b status $out/run/$g" \
            -n "moves $g $variant" "$b moves $out/run/$g --as $side" \
            --setup "$fresh" >/dev/null
        hyperfine --runs "$runs" --warmup 3 --export-json "$out/$g-$variant-w.json" \
            --prepare "$fresh && rm -f $out/maildir/new/* $out/maildir/cur/* && cp $out/reply-$g.eml $out/maildir/new/1.eml && rm -rf $out/cache-run && cp -a $out/cache-base/$g $out/cache-run" \
            -n "play $g $variant" "$b play $out/run/$g --as $side '$line' --no-mail" \
            -n "inbox $g $variant" "$b inbox --games $out/run $out/maildir --outbox" >/dev/null
        for f in "$out/$g-$variant.json" "$out/$g-$variant-w.json"; do
            summary+=("$(python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("| %s | %s | %.1f ms ± %.1f | %.1f ms | %.1f ms |" % (r["command"], sys.argv[2], r["mean"]*1e3, r["stddev"]*1e3, r["median"]*1e3, (r["user"]+r["system"])*1e3))' "$f" "$entries")")
        done
    done
done
echo "| command, log, snapshot | entries | wall mean ± σ | wall median | CPU (user+sys) |"
echo "|---|---|---|---|---|"
printf '%s\n' "${summary[@]}"
