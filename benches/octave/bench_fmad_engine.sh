#!/usr/bin/env bash
# fmad on the engine's rules (issue #23 item 5): per-call CPU times of fmad's operations with the .m
# rules of commit BEFORE (default: the commit before on_engine.m came) and with the @fmad of commit
# AFTER (default: this tree's, which calls msad_apply where that is faster), side by side in one
# Octave process per size, and whether the two give the same bits; then the whole Brusselator
# (N = 1000, benches/octave/bench_fmad_brusselator.m) with both, in turns. ROUNDS times (default 3);
# each figure is the best of its rounds, so that a change of the machine's load between runs does
# not pass for a difference. Needs `make build` (AFTER's @fmad runs this tree's msad_apply.mex).
#   bash benches/octave/bench_fmad_engine.sh [BEFORE [ROUNDS [AFTER]]]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:-$(git log --diff-filter=A --format=%H -- matlab/@fmad/private/on_engine.m | tail -1)^}
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/before"
git archive "$before" matlab benches/octave tests/octave/problems tests/octave/fmad | tar -x -C "$work/before"
cp matlab/msad_eval.mex "$work/before/matlab/"       # for the Brusselator bench's msad_eval row
after_tree=$PWD
if [[ -n ${3:-} ]]; then
    after_tree=$work/after
    mkdir "$after_tree"
    git archive "$3" matlab benches/octave tests/octave/problems tests/octave/fmad | tar -x -C "$after_tree"
    cp matlab/msad_eval.mex matlab/msad_apply.mex "$after_tree/matlab/"
fi
octave() {
    octave-cli --norc --no-gui "$@" 2>&1 | { grep -v 'ignoring const execution_exception& while preparing to exit' || true; }
}
for round in $(seq "$rounds"); do
    for config in 1 2 3 4 5; do
        FMAD_ROOTS="$work/before/matlab:$after_tree/matlab" FMAD_CONFIG=$config FMAD_OUT="$work/$round-$config.mat" \
            octave benches/octave/bench_fmad_engine.m
    done
done
FMAD_WORK=$work FMAD_ROUNDS=$rounds octave --eval '
  work = getenv("FMAD_WORK"); rounds = str2double(getenv("FMAD_ROUNDS"));
  printf("| operation | n | nd | .m rule (us) | msad_apply (us) | ratio | same bits |\n|---|---|---|---|---|---|---|\n");
  for c = 1:5
    for r = 1:rounds
      res(r) = load(sprintf("%s/%d-%d.mat", work, r, c));
    end
    t = min(cat(3, res.times), [], 3);
    [n, nd, storage] = res(1).config{:};
    for k = 1:numel(res(1).names)
      difference = res(1).difference(k);
      verdict = "yes";
      if isinf(difference)
        verdict = "no: another size";
      elseif difference ~= 0   % NaN too
        verdict = sprintf("no: %.1e", difference);
      end
      printf("| `%s` | %d | %d %s | %.1f | %.1f | %.2f | %s |\n", res(1).names{k}, n, nd, storage, ...
             1e6 * t(k, 1), 1e6 * t(k, 2), t(k, 1) / t(k, 2), verdict);
    end
  end'
for round in $(seq "$rounds"); do
    for tree in "$work/before" "$after_tree"; do
        echo
        echo "Brusselator, round $round, with the fmad of $([[ $tree == "$work/before" ]] && echo "$before (.m rules)" || echo "${3:-this tree} (msad_apply)"):"
        octave "$tree/benches/octave/bench_fmad_brusselator.m"
    done
done
