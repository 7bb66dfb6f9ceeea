#!/usr/bin/env bash
# fmad on the engine's rules (issue #23 item 5): per-call CPU times of fmad's operations with the .m
# rules of commit BEFORE (default: the commit before on_engine.m came) and with this tree's @fmad
# (which calls msad_apply where that is faster), and whether the two give the same bits; then the
# whole Brusselator (N = 1000, benches/octave/bench_fmad_brusselator.m) with both. The two run in
# turns, ROUNDS times (default 3), and each figure is the best of its rounds, so that a change of
# the machine's load between runs does not pass for a difference. Needs `make build`.
#   bash benches/octave/bench_fmad_engine.sh [BEFORE [ROUNDS]]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:-$(git log --diff-filter=A --format=%H -- matlab/@fmad/private/on_engine.m | tail -1)^}
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$before" matlab benches/octave tests/octave/problems tests/octave/fmad | tar -x -C "$work"
cp matlab/msad_eval.mex "$work/matlab/"       # for the Brusselator bench's msad_eval row
octave() {
    octave-cli --norc --no-gui "$@" 2>&1 | { grep -v 'ignoring const execution_exception& while preparing to exit' || true; }
}
for round in $(seq "$rounds"); do
    for config in 1 2 3 4 5; do
        for side in before after; do
            root=$([[ $side == before ]] && echo "$work/matlab" || echo "$PWD/matlab")
            FMAD_ROOT=$root FMAD_CONFIG=$config FMAD_OUT="$work/$side-$round-$config.mat" octave benches/octave/bench_fmad_engine.m
        done
    done
done
FMAD_WORK=$work FMAD_ROUNDS=$rounds octave --eval '
  work = getenv("FMAD_WORK"); rounds = str2double(getenv("FMAD_ROUNDS"));
  printf("| operation | n | nd | .m rule (us) | msad_apply (us) | ratio | same bits |\n|---|---|---|---|---|---|---|\n");
  for c = 1:5
    for r = 1:rounds
      b(r) = load(sprintf("%s/before-%d-%d.mat", work, r, c));
      a(r) = load(sprintf("%s/after-%d-%d.mat", work, r, c));
    end
    tb = min([b.times], [], 2);
    ta = min([a.times], [], 2);
    [n, nd, storage] = a(1).config{:};
    for k = 1:numel(a(1).names)
      same = isequal(a(1).values{k}, b(1).values{k}) && isequal(a(1).derivs{k}, b(1).derivs{k});
      verdict = "yes";
      if ~same
        verdict = sprintf("no: %.1e", max(norm(full(a(1).values{k}(:) - b(1).values{k}(:)), Inf), ...
                                          norm(full(a(1).derivs{k}(:) - b(1).derivs{k}(:)), Inf)));
      end
      printf("| `%s` | %d | %d %s | %.1f | %.1f | %.2f | %s |\n", a(1).names{k}, n, nd, storage, ...
             1e6 * tb(k), 1e6 * ta(k), tb(k) / ta(k), verdict);
    end
  end'
for round in $(seq "$rounds"); do
    for tree in "$work" "$PWD"; do
        echo
        echo "Brusselator, round $round, with the fmad of $([[ $tree == "$work" ]] && echo "$before (.m rules)" || echo "this tree (msad_apply)"):"
        octave "$tree/benches/octave/bench_fmad_brusselator.m"
    done
done
