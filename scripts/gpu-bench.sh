#!/usr/bin/env bash
# The GPU engine's benchmark on a machine with a GPU (docs/gpu.md, "Benchmark"): the adapter
# and driver, q(n) wall times, the GPU's time per solution on random tasks of large n, and the
# CPU engine on the same tasks with every core. Installs nothing and reaches no network: it
# needs only the release binary (built with `--features gpu`) and the Vulkan loader
# (libvulkan.so.1, Debian's libvulkan1), either installed or carried in the same folder as
# this script or the binary.
#
#   scripts/gpu-bench.sh                      # the defaults below, under 8 minutes
#   QUICK=1 scripts/gpu-bench.sh              # a quick run (lavapipe: n = 10..12, 13 and 14;
#                                             # model 3: n = 16 solved, 200 generations at 64, 200)
#
# The join kernel (the default) is timed at every size; the search kernel, 2.7 to 19 times
# slower on an H200 (docs/gpu.md), only at the small sizes, for the comparison. Each step is
# stopped at STEP_S, and a kernel stopped on a q(n) skips the larger q(n).
#
# Environment:
#   DAMIER        the binary [default: ./damier beside this script, else target/release/damier]
#   KERNELS       the kernels timed, in order [default: join search]
#   Q_SIZES       n whose q(n) the join kernel counts and checks [default: 18 19 20 21]
#   SEARCH_Q_SIZES  the same for the search kernel [default: 18]
#   EST_SIZES     n whose random tasks the join kernel and the CPU time [default: 23..28]
#   SEARCH_EST_SIZES  the same for the search kernel [default: 23 24]
#   TASKS         random tasks per n [default: 2 per host thread up to n = 24, then 1 per
#                 thread: a sample smaller than the pool leaves sealing threads idle]
#   CPU_MAX_N     largest n timed on the CPU too [default: 27]
#   ROW_SIZES     n at which model 3 of the automaton runs ROW_GENERATIONS generations on the
#                 GPU and on every CPU core, its moves compared [default: 4096 10000]
#   ROW_GENERATIONS  generations of each model 3 run [default: 2000]
#   BUDGET_S      wall-clock budget of the whole run, seconds [default: 470]
#   STEP_S        longest step (one count or one bench), seconds [default: 120]
#   VK_ICD_FILENAMES  the Vulkan driver (ICD) file; found or written when unset (below)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS
budget=${BUDGET_S:-470}
step_s=${STEP_S:-120}
kernels=${KERNELS:-join search}
if [ -n "${QUICK:-}" ]; then
  q_default="10 11 12" sq_default="10" est_default="13 14" sest_default="13"
  row_default="64 200" rowgen_default=200
else
  q_default="18 19 20 21" sq_default="18" est_default="23 24 25 26 27 28" sest_default="23 24"
  row_default="4096 10000" rowgen_default=2000
fi
row_sizes=${ROW_SIZES:-$row_default}
row_generations=${ROW_GENERATIONS:-$rowgen_default}
q_sizes=${Q_SIZES:-$q_default}
search_q_sizes=${SEARCH_Q_SIZES:-$sq_default}
est_sizes=${EST_SIZES:-$est_default}
search_est_sizes=${SEARCH_EST_SIZES:-$sest_default}
cpu_max_n=${CPU_MAX_N:-27}

damier=${DAMIER:-}
if [ -z "$damier" ]; then
  for c in "$here/damier" "$here/../target/release/damier"; do
    [ -x "$c" ] && damier=$c && break
  done
fi
[ -n "$damier" ] && [ -x "$damier" ] || { echo "gpu-bench: no damier binary (set DAMIER=...)" >&2; exit 2; }
# A loader carried beside the script or the binary.
for d in "$here" "$(dirname "$damier")"; do
  [ -e "$d/libvulkan.so.1" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
# The NVIDIA driver's ICD file: where the driver package puts it, else one written here that
# names the driver's Vulkan library (containers often carry the library without the file).
if [ -z "${VK_ICD_FILENAMES:-}" ]; then
  for f in /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json \
           /usr/share/vulkan/icd.d/nvidia_icd.x86_64.json \
           /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; do
    [ -e "$f" ] && export VK_ICD_FILENAMES=$f && break
  done
  if [ -z "${VK_ICD_FILENAMES:-}" ] && ldconfig -p 2>/dev/null | grep -q libGLX_nvidia.so.0; then
    icd=$(mktemp --suffix=.json)
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libGLX_nvidia.so.0","api_version":"1.3.0"}}\n' >"$icd"
    export VK_ICD_FILENAMES=$icd
  fi
fi
echo "gpu-bench: damier $("$damier" --version | cut -d' ' -f2), ICD ${VK_ICD_FILENAMES:-(none set: the default search path)}"
nproc_=$(nproc)
echo "gpu-bench: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $nproc_ threads"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

left() { echo $((budget - (SECONDS - start))); }
# Runs "$@" for at most STEP_S and the budget left; says so when stopped. Returns 1 when the
# step was stopped or skipped.
timed() {
  local l
  l=$(left)
  [ "$l" -gt "$step_s" ] && l=$step_s
  if [ "$l" -le 5 ]; then echo "gpu-bench: budget spent, skipped: ${*: -6}"; return 1; fi
  # Ctrl-C first (the count stops cleanly); a count stuck in the driver, which never gets back
  # to its check, is killed 15 s later.
  timeout -k 15 --signal=INT "$l" "$@"
  local rc=$?
  if [ $rc -eq 124 ] || [ $rc -eq 130 ] || [ $rc -eq 137 ]; then echo "gpu-bench: stopped after $l s: ${*: -6}"; return 1; fi
  return 0
}

echo "== adapters"
"$damier" gpu || exit $?
export DAMIER_PROGRESS=none
# OEIS A000170, n = 0..27.
a000170=(1 1 0 0 2 10 4 40 92 352 724 2680 14200 73712 365596 2279184 14772512 95815104
  666090624 4968057848 39029188884 314666222712 2691008701644 24233937684440
  227514171973736 2207893435808352 22317699616364044 234907967154122528)
# The sizes of each kernel: "$1" is the kernel, "$2" the join's list, "$3" the search's.
sizes_of() { if [ "$1" = search ]; then echo "$3"; else echo "$2"; fi; }
echo "== q(n) on the GPU, kernels: $kernels; wall time, the total checked against OEIS A000170"
stopped=" "
for n in $(tr ' ' '\n' <<<"$q_sizes $search_q_sizes" | sort -nu); do
  for kernel in $kernels; do
    [[ " $(sizes_of "$kernel" "$q_sizes" "$search_q_sizes") " == *" $n "* ]] || continue
    if [[ "$stopped" == *" $kernel "* ]]; then echo "n = $n, $kernel: skipped (stopped on a smaller n)"; continue; fi
    out=$(timed "$damier" queens count "$n" --device gpu --gpu-kernel "$kernel" --json) || stopped+="$kernel "
    out=$(tr -d " \n" <<<"$out")
    total=$(sed -n 's/.*"total":\([0-9]*\).*/\1/p' <<<"$out")
    seconds=$(sed -n 's/.*"seconds":\([0-9.e+-]*\).*/\1/p' <<<"$out")
    if [ -z "$total" ]; then
      echo "n = $n, $kernel: no total ($out)"
    elif [ "$total" = "${a000170[$n]:-}" ]; then
      echo "n = $n, $kernel: q = $total (A000170: agrees), $seconds s"
    else
      echo "n = $n, $kernel: q = $total: MISMATCH with A000170 (${a000170[$n]:-unknown}), $seconds s"
    fi
  done
done
# Model 3 of the automaton (docs/automaton.md): its fields on the GPU, its queens on the host,
# the same trajectory as on the CPU (so the moves after as many generations agree); first the
# n = 1 000 run of seed 1 to its solution, whose generations the report gives (21 599).
row_run() {
  local out
  out=$(timed "$damier" automaton run --model row --quiet --json "$@") || return 1
  out=$(tr -d " \n" <<<"$out")
  local steps moves secs
  steps=$(sed -n 's/.*"steps":\([0-9]*\).*/\1/p' <<<"$out")
  moves=$(sed -n 's/.*"moves":\([0-9]*\).*/\1/p' <<<"$out")
  secs=$(sed -n 's/.*"seconds":\([0-9.e+-]*\).*/\1/p' <<<"$out")
  # A run that failed (its error is on stderr) prints no JSON.
  [ -n "$steps" ] && [ -n "$moves" ] || return 1
  echo "$steps $moves $secs"
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
      line+=" $dev $secs s ($moves moves);"
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
echo "== random tasks: GPU time per solution by kernel, and the CPU engine on the same tasks with $nproc_ threads"
for n in $(tr ' ' '\n' <<<"$est_sizes $search_est_sizes" | sort -nu); do
  case $n in 2[0-4]|1?) k=$((2 * nproc_)) ;; *) k=$nproc_ ;; esac
  k=${TASKS:-$k}
  cpu=()
  [ "$n" -gt "$cpu_max_n" ] && cpu=(--no-cpu)
  for kernel in $kernels; do
    [[ " $(sizes_of "$kernel" "$est_sizes" "$search_est_sizes") " == *" $n "* ]] || continue
    # The CPU's time once per n: with the first kernel.
    timed "$damier" gpu --bench "$n" --tasks "$k" --seed "$n" --gpu-kernel "$kernel" "${cpu[@]}"
    cpu=(--no-cpu)
  done
done
echo "gpu-bench: done in $((SECONDS - start)) s"
