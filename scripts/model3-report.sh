#!/usr/bin/env bash
# Every measurement, table and figure of the model 3 report (docs/automaton.md, "Model 3: a
# local rule that scales"), from nothing, in one command:
#
#   scripts/model3-report.sh [OUT]            # OUT defaults to target/model3-report
#   QUICK=1 scripts/model3-report.sh [OUT]    # the same pipeline on small boards: minutes
#   ONLY=crossings scripts/model3-report.sh [OUT]  # stage 6 alone (the crossings study)
#
# The crossings study (stage 6) reads its sizes, seeds, cap and designs from the environment:
# CROSS_N (default 128,256,512,1024,2048), CROSS_SEEDS (10), CROSS_CAP (300 crossings, i.e.
# 300 n generations, n^3 cell updates per crossing on the random-cell schedule) and
# CROSS_DESIGNS (every named rule); CROSS_FROM names a growth runs file whose kept-rule runs
# join the table (default OUT/growth_runs_row.csv, stage 4's). Each design and n is a file of its own under
# OUT/model3_crossings, kept when present, so a study can be run piecewise. The coverage rule:
# a design is carried to a larger n only while it solved at least one of its runs at each
# smaller n below 512, and at least 8 in 10 of them at each from 512 up (the rule of the table,
# model3_designs.rs's `carried`; a file of fewer runs than CROSS_SEEDS does not stop it);
# CROSS_ALL=1 runs the designs it stops anyway.
#
# OUT receives the files the report cites, under the names of docs/figures (runs CSVs, traces,
# the growth CSV and SVG), one Markdown file per table of runs (`*.md`) and the growth
# command's printed tables (`growth_row_local.txt`); `diff -r` against
# docs/figures shows what changed. Each stage skips when its output exists, so an interrupted
# run resumes where it stopped (delete a file to redo its stage).
#
# The full run is long: 3 to 4 hours of wall time on the 2-core project machine (2026-11-28),
# two thirds of it the three traces at n = 4 096 (445 000 generations of 15 to 25 ms); QUICK=1
# takes about a minute after the build. The timed CLI runs need GNU time (Debian: `time`). Generations, moves and solutions are exact on any machine
# (the runs are seeded); CPU seconds are this machine's.
set -euo pipefail

# The whole script is one function, read before it runs: editing the file during a run
# (hours) cannot change what the run does.
main() {
  cd "$(dirname "$0")/.."

  out=${1:-target/model3-report}
  mkdir -p "$out/model3_traces"
  quick=${QUICK:-0}
  only=${ONLY:-}

  command -v /usr/bin/time >/dev/null || { echo "model3-report: needs /usr/bin/time (Debian: apt install time)" >&2; exit 2; }
  # Two builds: with --example, cargo builds only the targets named.
  [[ $only == crossings ]] || cargo build --release --locked -p damier-cli --bin damier
  cargo build --release --locked -p damier --example model3_designs
  target=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
  damier=$target/release/damier
  designs=$target/release/examples/model3_designs

  say() { printf '%s model3-report: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

  # runs FILE DESIGN SIZES SEEDS CAP: the example's runs, appended to FILE (one header).
  runs() {
    local file=$1
    shift
    say "runs $* -> $file"
    if [[ -s $file ]]; then
      "$designs" "$@" | tail -n +2 >>"$file"
    else
      "$designs" "$@" >"$file"
    fi
  }

  # table FILE MODE ARGS...: the example's Markdown table into FILE, through a part file (a
  # stage keeps a file that exists).
  table() {
    local file=$1
    shift
    "$designs" "$@" >"$file.part"
    mv "$file.part" "$file"
  }

  # stage FILE: true when FILE must be made (absent or empty), else says it is kept.
  stage() {
    if [[ -s $1 ]]; then
      say "kept $1"
      return 1
    fi
  }

  # The measured sizes, or small ones for QUICK=1 (the same commands, so the same code paths).
  if [[ $quick == 1 ]]; then
    small=8,16 small_seeds=2 small_cap=20000 async_n=6,8
    i40_small=16,20 i40_rare=16,20,24 i40_mid=32 i40_large=48 i40_seeds=2 i40_cap=200000
    t_small=32 t_mid=64 t_large=96 t_huge=128 t_every=500 t_total=3000
    tot_v1=3000 tot_s0=3000 tot_p300=3000 tot_rest=3000 tot_2048=3000 tot_kept4096=3000 tot_slow=3000
    growth_small=16,32 growth_1024=48 growth_2048=64 growth_seeds=2 local_n=16,32,64,128
    cli_n=64 cli_seeds="1 2"
  else
    small=16,32,64,128,256 small_seeds=5 small_cap=300000 async_n=8,16,32,64
    i40_small=16,32,64,128,256 i40_rare=16,24,32,64,128,256 i40_mid=512 i40_large=1000 i40_seeds=10 i40_cap=200000
    t_small=512 t_mid=1000 t_large=2048 t_huge=4096 t_every=1000 t_total=400000
    # The runs that never solve stop where the committed traces stop.
    tot_v1=53000 tot_s0=200000 tot_p300=100000 tot_rest=80000 tot_2048=48000 tot_kept4096=78000 tot_slow=188000
    growth_small=16,32,64,128,256,512 growth_1024=1024 growth_2048=2048 growth_seeds=10
    local_n=16,32,64,128,256,512,1024,2048,4096,10000
    cli_n=1000 cli_seeds="1 2 3 4 5 6 7 8 9 10"
  fi

  [[ $only == crossings ]] && { crossings; say "done: $out"; return; }

  # 1. The design family at small n (the designs table): 5 seeds, at most 300 000 generations
  #    (the random-cell schedule's cap is in cell updates), the absorbing check on.
  f=$out/model3_designs.csv
  if stage "$f"; then
    tmp=$f.part
    rm -f "$tmp"
    for d in hide=0,wave=0,act=0.1,plat=0.1 hide=0,wave=1,act=0.1,plat=0.1 \
      hide=0,wave=1,act=0.01,plat=0.1 hide=1,act=0.1,plat=0.1 hide=1,act=0.01,plat=0.1 \
      hide=1,act=0.1,south=0.01,plat=0.1 hide=1,act=0.1,south=0.01,plat=0.1,cap=1 \
      hide=1,act=0.1,south=0.01,plat=0.1,wave=0; do
      runs "$tmp" "$d" "$small" "$small_seeds" "$small_cap"
    done
    runs "$tmp" hide=1,act=0.1,south=0.01,plat=0.1,async=1 "$async_n" "$small_seeds" 20000000000
    mv "$tmp" "$f"
  fi
  stage "$out/model3_designs.md" && table "$out/model3_designs.md" table "$f"

  # 2. The rule at n = 1 000 (issue 40): the kept rule and its neighbours, 10 seeds up to
  #    n = 1 000, no absorbing check (O(n^2) a generation).
  f=$out/model3_designs_issue40.csv
  if stage "$f"; then
    tmp=$f.part
    rm -f "$tmp"
    export ABSORB=0
    kept=hide=1,act=0.1,south=0.003,plat=0.1
    runs "$tmp" "$kept" "$i40_small" "$i40_seeds" 3000000
    runs "$tmp" "$kept" "$i40_mid" "$i40_seeds" 1000000
    runs "$tmp" "$kept" "$i40_large" "$i40_seeds" "$i40_cap"
    rare=hide=1,act=0.1,south=0.001,plat=0.1
    runs "$tmp" "$rare" "$i40_rare" "$i40_seeds" 3000000
    runs "$tmp" "$rare" "$i40_mid" "$i40_seeds" 1000000
    runs "$tmp" "$rare" "$i40_large" "$i40_seeds" "$i40_cap"
    runs "$tmp" hide=1,act=0.1,south=0.001,plat=0.3 "$i40_large" 1-5 "$i40_cap"
    runs "$tmp" hide=1,act=0.1,south=0.001,plat=0.03 "$i40_large" 1-2 "$i40_cap"
    runs "$tmp" hide=1,act=0.1,south=0.01,plat=0.01,pat=15,patq=0.01,keep=1 "$i40_large" 1-5 "$i40_cap"
    unset ABSORB
    mv "$tmp" "$f"
  fi
  stage "$out/model3_designs_issue40.md" && table "$out/model3_designs_issue40.md" table "$f"

  # 3. Traces (seed 1; a line every K generations): how each design's conflicts fall, or not.
  trace() {
    local name=$1 design=$2 n=$3 every=$4 total=$5
    local f=$out/model3_traces/$name.csv
    if stage "$f"; then
      say "trace $design n=$n -> $f"
      ABSORB=0 "$designs" trace "$design" "$n" 1 "$every" "$total" >"$f.part"
      mv "$f.part" "$f"
    fi
  }
  half=$((t_every / 2))
  trace v1_n512_seed1 hide=1,act=0.1,south=0.01,plat=0.1 "$t_small" "$half" "$t_total"
  trace v1_n1000_seed1 hide=1,act=0.1,south=0.01,plat=0.1 "$t_mid" "$t_every" "$tot_v1"
  trace kept_n1000_seed1 hide=1,act=0.1,south=0.003,plat=0.1 "$t_mid" "$t_every" "$t_total"
  trace south001_n1000_seed1 hide=1,act=0.1,south=0.001,plat=0.1 "$t_mid" "$t_every" "$t_total"
  trace south0_n1000_seed1 hide=1,act=0.1,south=0,plat=0.1 "$t_mid" $((2 * t_every)) "$tot_s0"
  trace patience300_plat0_n1000_seed1 hide=1,act=0.1,south=0.1,plat=0,pat=15,patq=0.05 \
    "$t_mid" "$half" "$tot_p300"
  trace patience_rest_n1000_seed1 hide=1,act=0.1,south=0.1,plat=0.5,pat=15,patq=0.01,rest=15,restq=0.05 \
    "$t_mid" "$half" "$tot_rest"
  trace patience_keep_n1000_seed1 hide=1,act=0.1,south=0.01,plat=0.5,pat=15,patq=0.01,keep=1 \
    "$t_mid" "$half" "$t_total"
  patience=hide=1,act=0.1,south=0.01,plat=0.01,pat=15,patq=0.01,keep=1
  trace patience_keep_plat001_n1000_seed1 "$patience" "$t_mid" "$t_every" "$t_total"
  trace patience_keep_plat001_n2048_seed1 "$patience" "$t_large" $((2 * t_every)) "$t_total"
  trace south001_n2048_seed1 hide=1,act=0.1,south=0.001,plat=0.1 "$t_large" $((2 * t_every)) "$tot_2048"
  # (The committed kept_n4096_seed1.csv holds the CLI's progress lines of the same trajectory,
  # at other generations: its table cells then name the generation they come from.)
  trace kept_n4096_seed1 hide=1,act=0.1,south=0.003,plat=0.1 "$t_huge" $((2 * t_every)) "$tot_kept4096"
  trace patience_kept_n4096_seed1 "$patience" "$t_huge" $((2 * t_every)) "$t_total"
  trace slow10_n4096_seed1 hide=1,act=0.01,south=0.001,plat=0.1 "$t_huge" $((2 * t_every)) "$tot_slow"
  if stage "$out/model3_traces_n4096.md"; then
    t=$out/model3_traces
    if [[ $quick == 1 ]]; then gens=500,1000,2000,3000; else gens=2000,10000,26000,50000,78000,104000,124000,150000,176000,178000,188000; fi
    table "$out/model3_traces_n4096.md" crowded "$gens" "$t/kept_n4096_seed1.csv" \
      "$t/patience_kept_n4096_seed1.csv" "$t/slow10_n4096_seed1.csv"
  fi

  # 4. Model 3 against min-conflicts: the growth study, its fits and figure (one thread per
  #    run, so that CPU seconds are one core's).
  g() { "$damier" automaton growth --model row --local-n "" --threads 1 --row-max-steps 400000 "$@"; }
  stage "$out/rows-small.csv" && g --row-n "$growth_small" --samples "$growth_seeds" --runs-out "$out/rows-small.csv" >/dev/null
  stage "$out/rows-1024.csv" && g --row-n "$growth_1024" --samples "$growth_seeds" --runs-out "$out/rows-1024.csv" >/dev/null
  stage "$out/rows-2048.csv" && g --row-n "$growth_2048" --samples 1 --runs-out "$out/rows-2048.csv" >/dev/null
  if stage "$out/growth_runs_local_large.csv"; then
    "$damier" automaton growth --model row --row-n "" --local-n "$local_n" --samples 10 --threads 1 \
      --runs-out "$out/growth_runs_local_large.csv" >/dev/null
  fi
  if stage "$out/growth_runs_row.csv"; then
    { cat "$out/rows-small.csv"; tail -n +2 "$out/rows-1024.csv"; tail -n +2 "$out/rows-2048.csv"; } \
      >"$out/growth_runs_row.csv"
  fi
  # The tables (means with intervals, medians, both fits) as the command prints them.
  if stage "$out/growth_row_local.txt"; then
    "$damier" automaton growth --from "$out/growth_runs_row.csv" --from "$out/growth_runs_local_large.csv" \
      --row-max-steps 400000 --csv "$out/growth_row_local.csv" --plot "$out/growth_row_local.svg" \
      >"$out/growth_row_local.txt.part"
    mv "$out/growth_row_local.txt.part" "$out/growth_row_local.txt"
  fi

  # The figure of every model: models 1 and 2's runs are those committed (their own study,
  # under "The automaton at scale" in docs/automaton.md, takes days of CPU), model 3's these.
  if stage "$out/growth.txt"; then
    "$damier" automaton growth --from docs/figures/growth_runs_automaton.csv \
      --from docs/figures/growth_runs_local.csv --from "$out/growth_runs_row.csv" \
      --pair-max-steps 120000000000 --cell-max-steps 720000000000 --row-max-steps 400000 \
      --csv "$out/growth.csv" --plot "$out/growth.svg" >"$out/growth.txt.part"
    mv "$out/growth.txt.part" "$out/growth.txt"
  fi

  # 5. The target at n = 1 000 from the CLI: wall and CPU seconds of each seed, on every core.
  f=$out/model3_cli_n$cli_n.csv
  if stage "$f"; then
    echo "seed,generations,wall_s,user_s,system_s" >"$f.part"
    for s in $cli_seeds; do
      say "damier automaton run --model row -n $cli_n --seed $s"
      /usr/bin/time -o "$f.time" -f "%e,%U,%S" "$damier" automaton run --model row -n "$cli_n" \
        --seed "$s" --quiet --json >"$f.json"
      steps=$(sed -n 's/^ *"steps": \([0-9]*\),$/\1/p' "$f.json")
      echo "$s,$steps,$(cat "$f.time")" >>"$f.part"
    done
    rm -f "$f.json" "$f.time"
    mv "$f.part" "$f"
  fi
  crossings
  say "done: $out"
}

# Fewest runs in a file for `stalled` to stop on: the study's 10 seeds, whatever CROSS_SEEDS
# asks (model3_designs.rs's CARRY_MIN_RUNS; a file of fewer runs, a study stopped early, says
# too little to stop on).
CARRY_MIN_RUNS=10

# Whether the coverage rule stops design $2 at $3: it has, under directory $1, a file of at
# least CARRY_MIN_RUNS runs at some n below $3 of which it solved (the `solved` column, the
# sixth, `true`) none below n = 512, fewer than 8 in 10 from 512 up (model3_designs.rs's
# `carried`).
stalled() {
  local f m
  for f in "$1/${2}"_n*.csv; do
    [[ -e $f ]] || continue
    m=${f##*_n}
    m=${m%.csv}
    [[ $m =~ ^[0-9]+$ ]] && ((m < $3)) || continue
    [[ $(tail -n +2 "$f" | wc -l) -ge $CARRY_MIN_RUNS ]] || continue
    awk -F, -v n="$m" 'NR > 1 { runs++; if ($6 == "true") solved++ }
      END { exit (n < 512 ? solved > 0 : 5 * solved >= 4 * runs) ? 1 : 0 }' "$f" && return 0
  done
  return 1
}

# 6. Crossings against n (issue 53): each named rule's board crossings (generations / n), every
#    run capped at CROSS_CAP crossings (a capped run counts at its cap and its cell reads "≥"),
#    no absorbing check. Reads main's variables (out, quick, designs, say, stage, runs, table).
crossings() {
  local all="kept v1 patience slow rare-south strict patience-reset patience-rest gradient memoryless"
  all+=" memoryless-slow committed committed-slow yes-no no-waves random-cells backoff backoff-walks"
  local ns=${CROSS_N:-128,256,512,1024,2048} seeds=${CROSS_SEEDS:-10} cap=${CROSS_CAP:-300}
  local list=${CROSS_DESIGNS:-$all} d n f per
  [[ $quick == 1 ]] && ns=${CROSS_N:-16,32} seeds=${CROSS_SEEDS:-2}
  mkdir -p "$out/model3_crossings"
  for d in $list; do
    for n in $(tr , '\n' <<<"$ns" | sort -n); do
      f=$out/model3_crossings/${d}_n$n.csv
      # The coverage rule: a design that solved too few runs at a smaller n stops there.
      if [[ ${CROSS_ALL:-0} != 1 ]] && stalled "$out/model3_crossings" "$d" "$n"; then
        say "crossings: $d not run at n = $n: at a smaller n it solved no run (below 512) or fewer than 8 in 10 (from 512); CROSS_ALL=1 runs it"
        continue
      fi
      # The random-cell schedule counts cell updates: n^2 of them a generation.
      per=1
      [[ $d == random-cells ]] && per=$((n * n))
      if stage "$f"; then
        # A part file left by a stopped run is started afresh, not appended to.
        rm -f "$f.part"
        ABSORB=0 runs "$f.part" "$d" "$n" "$seeds" $((cap * n * per))
        mv "$f.part" "$f"
      fi
    done
  done
  # Every file present, in the order of the named rules then n (one header).
  local all_files=() csv=$out/model3_crossings.csv
  for d in $all; do
    for f in $(ls "$out/model3_crossings/${d}"_n*.csv 2>/dev/null | sort -V); do
      all_files+=("$f")
    done
  done
  [[ ${#all_files[@]} -gt 0 ]] || return 0
  { head -1 "${all_files[0]}"; for f in "${all_files[@]}"; do tail -n +2 "$f"; done; } >"$csv"
  # The growth study's runs (stage 4: the kept rule, 10 seeds to n = 1 024 and one at 2 048)
  # join the table where a size was not run here; a run met twice must agree (same seed).
  local from=${CROSS_FROM-$out/growth_runs_row.csv}
  [[ -s $from ]] || from=
  table "$out/model3_crossings.md" crossings "$csv" ${from:+"$from"}
}

main "$@"; exit
