#!/usr/bin/env bash
# fmad on the engine's rules (issue #23 item 5): per-call times of fmad's operations with the .m rules
# of commit BEFORE (default: the commit before on_engine.m came) and with this tree's @fmad (which
# calls msad_apply), and whether the two give the same bits; then the whole Brusselator (N = 1000) by
# fmad with both (benches/octave/bench_fmad_brusselator.m). Needs `make build`.
#   bash benches/octave/bench_fmad_engine.sh [BEFORE]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:-$(git log --diff-filter=A --format=%H -- matlab/@fmad/private/on_engine.m | tail -1)^}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$before" matlab benches/octave tests/octave/problems tests/octave/fmad | tar -x -C "$work"
run() {
    FMAD_ROOT=$1 FMAD_OUT=$2 octave-cli --norc --no-gui benches/octave/bench_fmad_engine.m 2>&1 |
        { grep -v 'ignoring const execution_exception& while preparing to exit' || true; }
}
run "$work/matlab" "$work/before.mat"
run "$PWD/matlab" "$work/after.mat"
FMAD_BEFORE="$work/before.mat" FMAD_AFTER="$work/after.mat" octave-cli --norc --no-gui --eval '
  b = load(getenv("FMAD_BEFORE")); a = load(getenv("FMAD_AFTER"));
  printf("| operation | n | nd | .m rule (us) | msad_apply (us) | ratio | same bits |\n|---|---|---|---|---|---|---|\n");
  for k = 1:numel(a.names)
    for c = 1:size(a.configs, 1)
      [n, nd, storage] = a.configs{c, :};
      same = isequal(a.values{k, c}, b.values{k, c}) && isequal(a.derivs{k, c}, b.derivs{k, c});
      if same
        verdict = "yes";
      else
        scale = max(1, norm(full(b.derivs{k, c}(:)), Inf));
        verdict = sprintf("no: %.1e", max(norm(full(a.values{k, c}(:) - b.values{k, c}(:)), Inf), ...
                                          norm(full(a.derivs{k, c}(:) - b.derivs{k, c}(:)), Inf) / scale));
      end
      printf("| `%s` | %d | %d %s | %.1f | %.1f | %.2f | %s |\n", a.names{k}, n, nd, storage, ...
             1e6 * b.times(k, c), 1e6 * a.times(k, c), b.times(k, c) / a.times(k, c), verdict);
    end
  end' 2>&1 | { grep -v 'ignoring const execution_exception& while preparing to exit' || true; }
for tree in "$work" "$PWD"; do
    echo "Brusselator with the fmad of $([[ $tree == "$work" ]] && echo "$before (.m rules)" || echo "this tree (msad_apply)"):"
    octave-cli --norc --no-gui "$tree/benches/octave/bench_fmad_brusselator.m" 2>&1 |
        { grep -v 'ignoring const execution_exception& while preparing to exit' || true; }
done
