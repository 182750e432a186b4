#!/usr/bin/env bash
# Paired, interleaved self-play runs of two `twilight` binaries on one core: CPU seconds
# (user+sys) per game-turn, so other load on the machine cancels out of the ratio. Both run
# POLICY (uniform, scoring or careful; the old binary must know it).
#   benches/selfplay_ratio.sh OLD_BINARY NEW_BINARY [GAMES] [PAIRS] [POLICY]
set -euo pipefail
old=$1 new=$2 games=${3:-2000} pairs=${4:-3} policy=${5:-uniform}
run() { # prints "cpu_seconds game_turns"
  local out t0 t1
  out=$( { /usr/bin/time -f 'CPU %U %S' taskset -c 0 "$1" selfplay --games "$games" --seed 1 "${@:2}"; } 2>&1 )
  local cpu turns final
  cpu=$(awk '/^CPU/ {print $2+$3}' <<<"$out")
  final=$(awk -F': ' '/mean final turn/ {print $2}' <<<"$out")
  echo "$cpu $(awk -v f="$final" -v g="$games" 'BEGIN {printf "%.0f", f*g}')"
}
extra=()
[ "$policy" = uniform ] || extra=(--policy "$policy")
tot_old=0 tot_new=0
for i in $(seq "$pairs"); do
  read -r co to < <(run "$old" "${extra[@]}")
  read -r cn tn < <(run "$new" "${extra[@]}")
  echo "pair $i: old $to game-turns in ${co}s CPU ($(awk -v t="$to" -v c="$co" 'BEGIN{printf "%.0f", t/c}')/s), new $tn game-turns in ${cn}s CPU ($(awk -v t="$tn" -v c="$cn" 'BEGIN{printf "%.0f", t/c}')/s)"
  tot_old=$(awk -v a="$tot_old" -v t="$to" -v c="$co" 'BEGIN{print a + c/t}')
  tot_new=$(awk -v a="$tot_new" -v t="$tn" -v c="$cn" 'BEGIN{print a + c/t}')
done
awk -v o="$tot_old" -v n="$tot_new" 'BEGIN{printf "game-turns per CPU second, new / old: %.2fx\n", o/n}'
