#!/usr/bin/env bash
# The GPU engine's benchmark on a machine with a GPU (docs/gpu.md, "Benchmark"): the adapter
# and driver, q(n) wall times, the GPU's time per solution on random tasks of large n, and the
# CPU engine on the same tasks with every core. Installs nothing and reaches no network: it
# needs only the release binary (built with `--features gpu`) and the Vulkan loader
# (libvulkan.so.1, Debian's libvulkan1), either installed or carried in the same folder as
# this script or the binary.
#
#   scripts/gpu-bench.sh                      # the defaults below, at most 400 s in all
#   QUICK=1 scripts/gpu-bench.sh              # a quick run (lavapipe: n = 10..12, 13 and 14;
#                                             # model 3: n = 16 solved, 200 generations at 64, 200)
#
# The whole run is hard-capped at BUDGET_S (400 s: a run and a rerun fit in 15 minutes of GPU
# time): every step runs under `timeout` inside what is left of it (Ctrl-C first, a
# kill 10 s later, both inside the budget), and a step that would not fit is skipped. Without
# an adapter it stops at once (exit 2) with one line on stderr saying where it looked.
#
# Order (what matters most first, so that a spent budget cuts the least useful steps): the
# adapter; q(18..20) by the join kernel (the default); random tasks of n = 23..28 by the join
# kernel with the breakdown of where the time goes (`damier gpu --bench`: sealing CPU
# seconds, bytes uploaded, the GPU's busy fraction, the host's wait) beside the CPU engine on
# every core; q(21); then model 3 of the automaton. A kernel stopped on a q(n) skips the
# larger q(n).
#
# Environment:
#   DAMIER        the binary [default: ./damier beside this script, else target/release/damier]
#   KERNELS       the kernels timed [default: join (the only one since the search kernel was
#                 retired, 2026-12-06); none: model 3 alone]
#   Q_SIZES       n whose q(n) the join kernel counts and checks [default: 18 19 20, and 21
#                 after the random tasks]
#   EST_SIZES     n whose random tasks the join kernel and the CPU time [default: 21, 23..28]
#   WIDE_N        n whose random tasks the join kernel times again with twice as many sealing
#                 workers as threads (RAYON_NUM_THREADS), to see whether the GPU then waits
#                 less [default: 23; empty: skipped]
#   KERNEL_N      n whose random tasks the join kernel times again on its portable path
#                 (--gpu-portable), with its blocks in global memory (--gpu-workgroup-bytes
#                 0) and with its tiles' sums added by atomics into 32 shared partial sums
#                 (--gpu-shared-sums, the way before the slot per tile and its reduce pass)
#                 [default: 23; empty: skipped]
#   AHEAD_N       n whose random tasks the join kernel times again with each sealing worker
#                 waiting for its batch (--gpu-ahead 0, the pipeline before sealing ahead) and
#                 sealing 3 batches ahead (--gpu-ahead 3; 1 is the default) [default: 23;
#                 empty: skipped]
#   TASKS         random tasks per n [default: 2 per host thread up to n = 24, 1 per thread
#                 at 25 and 26, one task at 27 and 28]
#   CPU_MAX_N     largest n timed on the CPU too [default: 27]
#   ROW_SIZES     n at which model 3 of the automaton runs ROW_GENERATIONS generations on the
#                 GPU and on every CPU core, its moves compared [default: 4096 10000]
#   ROW_GENERATIONS  generations of each model 3 run [default: 2000]
#   ROW_SOLVE_SIZES  n at which model 3 runs to a solution, seeds ROW_SOLVE_SEEDS, under the
#                 rule ROW_RULE, at most ROW_SOLVE_CAP generations and STEP_S seconds each
#                 (issue 53's targets: 4 096 in 2 minutes, 10 000 in 10; a run stopped at
#                 STEP_S, 120 s by default, missed the first) [default: 4096; QUICK: 12]
#   ROW_SOLVE_SEEDS  [default: 1 2 3]
#   ROW_RULE      model 3's rules of the solving runs (`automaton run --rule`), one or more
#                 separated by spaces, each run on every size and seed [default: patience, the
#                 rule that solved n = 4 096 on the CPU; rare-south has the lowest median at
#                 n = 2 048 there (docs/automaton.md): ROW_RULE="patience rare-south" compares
#                 them, at twice the time]
#   ROW_SOLVE_CAP  generation cap of a solving run [default: 2000000]
#   BUDGET_S      wall-clock cap of the whole run, seconds [default: 400]
#   STEP_S        longest step (one count or one bench), seconds [default: 120]
#   VK_DRIVER_FILES, VK_ICD_FILENAMES  the Vulkan driver (ICD) file: either is honoured (and
#                 copied to the other, for old and new loaders); found or written when unset
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS
budget=${BUDGET_S:-400}
step_s=${STEP_S:-120}
# Seconds between a step's Ctrl-C and its kill.
grace=10
kernels=${KERNELS:-join}
if [ -n "${QUICK:-}" ]; then
  q_default="10 11" q_late_default="12" est_default="13 14"
  row_default="64 200" rowgen_default=200 rsolve_default=12
else
  q_default="18 19 20" q_late_default="21" est_default="21 23 24 25 26 27 28"
  row_default="4096 10000" rowgen_default=2000 rsolve_default=4096
fi
row_sizes=${ROW_SIZES:-$row_default}
row_generations=${ROW_GENERATIONS:-$rowgen_default}
row_solve_sizes=${ROW_SOLVE_SIZES:-$rsolve_default}
row_solve_seeds=${ROW_SOLVE_SEEDS:-1 2 3}
row_rules=${ROW_RULE:-patience}
row_solve_cap=${ROW_SOLVE_CAP:-2000000}
if [ -n "${Q_SIZES:-}" ]; then q_sizes=$Q_SIZES q_late=""; else q_sizes=$q_default q_late=$q_late_default; fi
est_sizes=${EST_SIZES:-$est_default}
cpu_max_n=${CPU_MAX_N:-27}

damier=${DAMIER:-}
if [ -z "$damier" ]; then
  for c in "$here/damier" "$here/../target/release/damier"; do
    [ -x "$c" ] && damier=$c && break
  done
fi
[ -n "$damier" ] && [ -x "$damier" ] || { echo "gpu-bench: no damier binary (set DAMIER=...)" >&2; exit 2; }
# Libraries carried beside the script or the binary (the Vulkan loader), and the NVIDIA
# driver's where some GPU containers have it mounted.
for d in "$here" "$(dirname "$damier")" /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  if [ -e "$d/libvulkan.so.1" ] || [ -e "$d/libGLX_nvidia.so.0" ]; then
    export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
done
# Whether the dynamic linker finds library $1 (the system's cache or LD_LIBRARY_PATH).
has_lib() {
  ldconfig -p 2>/dev/null | grep -q "$1" && return 0
  local d IFS=:
  for d in ${LD_LIBRARY_PATH:-}; do [ -e "$d/$1" ] && return 0; done
  return 1
}
# The driver file: VK_DRIVER_FILES (loaders since 1.3.207) or VK_ICD_FILENAMES (older ones), each
# copied to the other; else the NVIDIA ICD file where the driver package or a GPU container
# puts it, else one written here that names the driver's Vulkan library (containers often carry
# the library without the file).
icd=${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-}}
if [ -z "$icd" ]; then
  for f in /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json \
           /usr/local/share/vulkan/icd.d/nvidia_icd*.json \
           /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd*.json \
           /usr/local/nvidia/etc/vulkan/icd.d/nvidia_icd*.json \
           /usr/local/nvidia/vulkan/icd.d/nvidia_icd*.json; do
    [ -e "$f" ] && icd=$f && break
  done
  if [ -z "$icd" ] && has_lib libGLX_nvidia.so.0; then
    icd=$(mktemp --suffix=.json)
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libGLX_nvidia.so.0","api_version":"1.3.0"}}\n' >"$icd"
  fi
fi
if [ -n "$icd" ]; then export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd; fi
# The NVIDIA Vulkan driver lives in libGLX_nvidia.so.0, which needs GLVND's dispatch library.
if has_lib libGLX_nvidia.so.0 && ! has_lib libGLdispatch.so.0; then
  echo "gpu-bench: libGLdispatch.so.0 not found: the NVIDIA Vulkan driver cannot start without GLVND (Debian's libglvnd0; docs/gpu.md lists what to carry)" >&2
fi
echo "gpu-bench: damier $("$damier" --version | cut -d' ' -f2), ICD ${icd:-(none set: the default search path of the loader)}, budget $budget s"
nproc_=$(nproc)
echo "gpu-bench: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $nproc_ threads"
command -v nvidia-smi >/dev/null && timeout -k 5 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

left() { echo $((budget - (SECONDS - start))); }
# Runs "$@" for at most STEP_S and inside the budget left (its kill included); says so when
# stopped. Returns the step's exit status, 124 when it was stopped or skipped.
timed() {
  local l
  l=$(($(left) - grace))
  [ "$l" -gt "$step_s" ] && l=$step_s
  if [ "$l" -le 5 ]; then echo "gpu-bench: budget spent, skipped: ${*: -6}" >&2; return 124; fi
  # Ctrl-C first (the count stops cleanly); a count stuck in the driver, which never gets back
  # to its check, is killed $grace s later.
  timeout -k "$grace" --signal=INT "$l" "$@"
  local rc=$?
  if [ $rc -eq 124 ] || [ $rc -eq 130 ] || [ $rc -eq 137 ]; then echo "gpu-bench: stopped after $l s: ${*: -6}" >&2; return 124; fi
  return $rc
}

echo "== adapters"
# damier's own line goes into the one line the script stops with (stderr holds that line
# alone); when it finds an adapter, what it said on stderr is passed on.
said=$(mktemp)
adapters=$(timeout -k 5 60 "$damier" gpu 2>"$said")
rc=$?
[ -n "$adapters" ] && echo "$adapters"
if [ $rc -ne 0 ]; then
  # damier's own line (the Vulkan loader's lines, printed before it when an ICD is broken,
  # would crowd it out of a cut), else the last line said.
  why=$(grep -m1 '^damier: ' "$said" || tail -n1 "$said"); rm -f "$said"
  echo "gpu-bench: no usable GPU adapter (damier gpu exited $rc${why:+: ${why% }}; ICD ${icd:-none found}; LD_LIBRARY_PATH ${LD_LIBRARY_PATH:-unset}): stopped" >&2
  exit $rc
fi
cat "$said" >&2; rm -f "$said"
if grep -q '^\* .*, cpu;' <<<"$adapters"; then
  echo "gpu-bench: the adapter counting is a software driver (the CPU cores): its figures are not a GPU's"
fi
export DAMIER_PROGRESS=none
# OEIS A000170, n = 0..27.
a000170=(1 1 0 0 2 10 4 40 92 352 724 2680 14200 73712 365596 2279184 14772512 95815104
  666090624 4968057848 39029188884 314666222712 2691008701644 24233937684440
  227514171973736 2207893435808352 22317699616364044 234907967154122528)
has_kernel() { [[ " $kernels " == *" $1 "* ]]; }
# Seconds as the README's rule for numbers writes them: three significant digits, plain up to
# 99 999 (the JSON gives every digit).
secs() {
  awk -v x="$1" 'BEGIN {
    if (x == 0 || (x >= 0.001 && x < 1000)) { printf "%.3g", x; exit }
    if (x >= 1000 && x < 99999.5) { printf "%.0f", x; exit }
    e = int(log(x) / log(10)); if (10 ^ e > x) e--; printf "%.3ge%d", x / 10 ^ e, e }'
}
# q(n) by kernel "$1" for the sizes "$2", checked against A000170; a kernel stopped at a size
# skips the larger ones.
stopped=" "
q_counts() {
  local kernel=$1 n out total seconds rc
  has_kernel "$kernel" || return 0
  for n in $2; do
    if [[ "$stopped" == *" $kernel "* ]]; then echo "n = $n, $kernel: skipped (stopped on a smaller n)"; continue; fi
    out=$(timed "$damier" queens count "$n" --device gpu --gpu-kernel "$kernel" --json)
    rc=$?
    [ $rc -eq 0 ] || stopped+="$kernel "
    out=$(tr -d " \n" <<<"$out")
    total=$(sed -n 's/.*"total":\([0-9]*\).*/\1/p' <<<"$out")
    seconds=$(sed -n 's/.*"seconds":\([0-9.e+-]*\).*/\1/p' <<<"$out")
    if [ -z "$total" ]; then
      echo "n = $n, $kernel: no total (exit $rc${out:+: $out})"
    elif [ "$total" = "${a000170[$n]:-}" ]; then
      echo "n = $n, $kernel: q = $total (A000170: agrees), $(secs "$seconds") s"
    else
      echo "n = $n, $kernel: q = $total: MISMATCH with A000170 (${a000170[$n]:-unknown}), $(secs "$seconds") s"
    fi
  done
}
# Random tasks of the sizes "$2" on kernel "$1" (`damier gpu --bench`: time per solution and
# where the time goes), and the CPU engine on the same tasks once per n up to CPU_MAX_N.
cpu_done=" "
benches() {
  local kernel=$1 n k cpu
  has_kernel "$kernel" || return 0
  for n in $2; do
    case $n in 1?|2[0-4]) k=$((2 * nproc_)) ;; 2[56]) k=$nproc_ ;; *) k=1 ;; esac
    k=${TASKS:-$k}
    cpu=()
    if [ "$n" -gt "$cpu_max_n" ] || [[ "$cpu_done" == *" $n "* ]]; then cpu=(--no-cpu); else cpu_done+="$n "; fi
    timed "$damier" gpu --bench "$n" --tasks "$k" --seed "$n" --gpu-kernel "$kernel" "${cpu[@]}"
  done
}
echo "== q(n) by the join kernel: wall time, the total checked against OEIS A000170"
q_counts join "$q_sizes"
echo "== random tasks by the join kernel: GPU time per solution and where it goes; the CPU engine on the same tasks with $nproc_ threads"
benches join "$est_sizes"
wide_n=${WIDE_N-$(cut -d' ' -f2 <<<"$est_default")}
if [ -n "$wide_n" ] && has_kernel join; then
  echo "== random tasks of n = $wide_n by the join kernel with $((2 * nproc_)) sealing workers (twice the threads)"
  k=${TASKS:-$((2 * nproc_))}
  RAYON_NUM_THREADS=$((2 * nproc_)) timed "$damier" gpu --bench "$wide_n" --tasks "$k" --seed "$wide_n" --no-cpu
fi
ahead_n=${AHEAD_N-$(cut -d' ' -f2 <<<"$est_default")}
if [ -n "$ahead_n" ] && has_kernel join; then
  echo "== random tasks of n = $ahead_n by the join kernel, each sealing worker 0 then 3 batches ahead (1 above)"
  k=${TASKS:-$((2 * nproc_))}
  for a in 0 3; do
    timed "$damier" gpu --bench "$ahead_n" --tasks "$k" --seed "$ahead_n" --no-cpu --gpu-ahead "$a"
  done
fi
kernel_n=${KERNEL_N-$(cut -d' ' -f2 <<<"$est_default")}
if [ -n "$kernel_n" ] && has_kernel join; then
  echo "== random tasks of n = $kernel_n by the join kernel's portable path (no 64-bit keys, no subgroups), then with every block read from global memory, then with the tiles' sums added by atomics into 32 shared partial sums (the default above: the adapter's features, workgroup memory, a slot per tile and a reduce pass)"
  k=${TASKS:-$((2 * nproc_))}
  timed "$damier" gpu --bench "$kernel_n" --tasks "$k" --seed "$kernel_n" --no-cpu --gpu-portable
  timed "$damier" gpu --bench "$kernel_n" --tasks "$k" --seed "$kernel_n" --no-cpu --gpu-workgroup-bytes 0
  timed "$damier" gpu --bench "$kernel_n" --tasks "$k" --seed "$kernel_n" --no-cpu --gpu-shared-sums
fi
if [ -n "$q_late" ]; then
  echo "== q(n) by the join kernel, the larger sizes"
  q_counts join "$q_late"
fi
# Model 3 of the automaton (docs/automaton.md): wholly on the GPU (fields and queens, many
# generations a submission), the same trajectory as on the CPU (so the moves after as many
# generations agree); first the n = 1 000 run of seed 1 to its solution, whose generations
# the report gives (21 599), then generations per second, then runs to a solution.
row_run() {
  local out
  # Exit 1: not solved within --max-steps, a run all the same.
  out=$(timed "$damier" automaton run --model row --quiet --json "$@")
  [ $? -le 1 ] || return 1
  out=$(tr -d " \n" <<<"$out")
  local steps moves secs
  steps=$(sed -n 's/.*"steps":\([0-9]*\).*/\1/p' <<<"$out")
  moves=$(sed -n 's/.*"moves":\([0-9]*\).*/\1/p' <<<"$out")
  secs=$(sed -n 's/.*"seconds":\([0-9.e+-]*\).*/\1/p' <<<"$out")
  # A run that failed (its error is on stderr) prints no JSON.
  [ -n "$steps" ] && [ -n "$moves" ] || return 1
  echo "$steps $moves $(secs "$secs")"
}
echo "== model 3 of the automaton: generations on the GPU and on $nproc_ CPU threads, the same trajectory"
# n, then the generations and moves of seed 1's run on the CPU (docs/figures/model3_designs_issue40.csv)
if [ -n "${QUICK:-}" ]; then solve=(16 2697 113); else solve=(1000 21599 876054); fi
if r=$(row_run -n "${solve[0]}" --seed 1 --device gpu); then
  read -r steps moves secs <<<"$r"
  verdict=agrees
  [ "$steps $moves" = "${solve[1]} ${solve[2]}" ] || verdict=MISMATCH
  echo "n = ${solve[0]} seed 1, gpu: solved at generation $steps, $moves moves, $secs s (the CPU's: ${solve[1]}, ${solve[2]}: $verdict)"
else
  echo "n = ${solve[0]} seed 1, gpu: stopped or failed"
fi
for n in $row_sizes; do
  line="n = $n, $row_generations generations:"
  seen=()
  for dev in gpu cpu; do
    if r=$(row_run -n "$n" --seed 1 --device "$dev" --max-steps "$row_generations"); then
      read -r steps moves secs <<<"$r"
      rate=$(awk -v g="$steps" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", g / s; else print "?" }')
      line+=" $dev $secs s, $rate generations/s ($moves moves);"
      seen+=("$moves")
    else
      line+=" $dev stopped or failed;"
    fi
  done
  if [ ${#seen[@]} -eq 2 ]; then
    if [ "${seen[0]}" = "${seen[1]}" ]; then line+=" moves agree"; else line+=" MISMATCH"; fi
  fi
  echo "$line"
done
for n in $row_solve_sizes; do
  for rule in $row_rules; do
    for seed in $row_solve_seeds; do
      if r=$(row_run -n "$n" --seed "$seed" --rule "$rule" --device gpu --max-steps "$row_solve_cap"); then
        read -r steps moves secs <<<"$r"
        if [ "$steps" -lt "$row_solve_cap" ]; then what="solved at generation $steps"; else what="not solved in $steps generations"; fi
        rate=$(awk -v g="$steps" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", g / s; else print "?" }')
        echo "n = $n seed $seed, rule $rule, gpu: $what, $moves moves, $secs s ($rate generations/s)"
      else
        echo "n = $n seed $seed, rule $rule, gpu: stopped or failed (STEP_S = $step_s s, or the budget)"
      fi
    done
  done
done
echo "gpu-bench: done in $((SECONDS - start)) s"
