#!/usr/bin/env bash
# The CPU time of ONE `inbox` reply, for one or more builds side by side.
#
#   OUT=/tmp/command-cost RUNS=1 benches/command_cost.sh   # once: the cut games and reply mails
#   benches/reply_cpu.sh CUT_FOLDER RUNS BIN...           # then, e.g. 15 runs of two builds
#
# CUT_FOLDER is the $OUT of `benches/command_cost.sh` (its `base/gN` games cut after N decisions,
# each with a decision owed and the prompt mailed, and `reply-gN.eml`, the reply carrying a
# legal move with the prompt's token). Each BIN gets a copy of it with the replay snapshot and
# the picture caches made by that build (both are keyed per build), in `CUT_FOLDER-<k>`. Then,
# for every game and every run, each BIN in turn, in an order rotating from run to run (so that drift in the machine's
# load falls on all alike) handles the reply from a fresh copy of the game and of its cache
# folder: `perf stat -e task-clock BIN inbox --games … MAILDIR --outbox`, the reply applied,
# filed, its receipt and both players' mails written with the picture drawn by difference.
# Prints the median, first quartile and minimum task-clock (ms) of each build at each length.
set -euo pipefail
cut=$1 runs=$2
shift 2
command -v perf >/dev/null || { echo "perf is required (apt-get install linux-perf)"; exit 1; }
games=$(cd "$cut/base" && ls -d g* | sort -V)
k=0
for bin in "$@"; do
    k=$((k + 1))
    c="$cut-$k"
    rm -rf "$c" && mkdir -p "$c/snap" "$c/cache"
    for g in $games; do
        cp -a "$cut/base/$g" "$c/snap/$g"
        rm -f "$c/snap/$g/snapshot.json"
        "$bin" status "$c/snap/$g" >/dev/null # the snapshot at the head, in this build's format
        # The picture the prompt's mail showed, drawn by this build (its own cache key): mailed
        # again from a copy with no mail state.
        t=$(mktemp -d)
        cp -a "$cut/base/$g" "$t/$g" && rm -f "$t/$g/mail-state.yaml"
        TWILIGHT_CACHE_DIR="$c/cache/$g" "$bin" mail "$t/$g" --outbox >/dev/null
        rm -rf "$t"
    done
done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
for g in $games; do
    declare -A vals=()
    nbins=$#
    for r in $(seq "$runs"); do
        # The builds' order rotates from run to run, so that none always runs first (the
        # first after the copies measured up to 0.8 ms apart from the others under load).
        for j in $(seq 0 $((nbins - 1))); do
            k=$(( (r + j) % nbins + 1 ))
            c="$cut-$k"
            rm -rf "$w/run" && mkdir -p "$w/run/games" "$w/run/md/new" "$w/run/md/cur" "$w/run/md/tmp"
            cp -a "$c/snap/$g" "$w/run/games/$g"
            if [ -d "$c/cache/$g" ]; then cp -a "$c/cache/$g" "$w/run/cache"; else mkdir "$w/run/cache"; fi
            cp "$cut/reply-$g.eml" "$w/run/md/new/1.eml"
            v=$(TWILIGHT_CACHE_DIR="$w/run/cache" perf stat -x, -e task-clock "$bin" inbox \
                --games "$w/run/games" "$w/run/md" --outbox 2>&1 >/dev/null | grep task-clock | cut -d, -f1)
            vals[$k]="${vals[$k]:-} $v"
        done
    done
    k=0
    for bin in "$@"; do
        k=$((k + 1))
        entries=$(grep -c '^---$' "$cut/base/$g/log.yaml")
        echo ${vals[$k]} | tr ' ' '\n' | sort -n | awk -v g="$g ($entries entries)" -v b="$bin" \
            '{a[NR]=$1} END {printf "%-22s %-40s median %.2f ms  q1 %.2f  min %.2f  (n=%d)\n", g, b, a[int((NR+1)/2)], a[int((NR+3)/4)], a[1], NR}'
    done
    unset vals
done
