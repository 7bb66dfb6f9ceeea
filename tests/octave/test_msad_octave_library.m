function test_msad_octave_library()
% Functions from Octave's own .m library (no primitive in msad) are parsed and differentiated like
% user code: values equal to Octave's, J against the complex step or central differences. A name
% msad cannot resolve fails only when a call of it runs (print_usage, unsupported builtins on
% argument-checking paths), and assignments inside conditions, Octave's `(dim = ...) || (dim = 1)`,
% are lowered.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1; 0.4];
  complex_safe = {@(x) deg2rad(x), @(x) rad2deg(x .^ 2), @(x) vander(x), @(x) sinc(x), ...
                  @(x) octave_idioms(x), @(x) octave_idioms(x.'), @(x) octave_idioms(reshape(x, 2, 2), 2)};
  needs_differences = {@(x) range(x), @(x) cosd(x * 50), @(x) sind(x * 50), @(x) nthroot(x, 3), ...
                       @(x) cbrt(x), @(x) real(x) .* conj(x) + imag(x)};
  check_forms(complex_safe, needs_differences, x);
  % Statistics on msad's sumsq, bsxfun and nth_element (sumsq's conj defeats the complex step).
  complex_safe = {@(x) center(x), @(x) bsxfun(@times, x, x.'), @(x) bsxfun(@minus, x, mean(x)), @(x) postpad(x, 6)};
  needs_differences = {@(x) sumsq(x), @(x) sumsq(reshape(x, 2, 2), 2), @(x) meansq(x), @(x) var(x), @(x) std(x), ...
                       @(x) median(x), @(x) median(x(1:3)), @(x) nth_element(x, 2:3), @(x) sum(x, 'native')};
  check_forms(complex_safe, needs_differences, x);
  % var(x) = sumsq(x - mean(x)) / (n - 1): its Hessian is 2 (I - 1/n) / (n - 1).
  [~, ~, H] = msad_eval(@(x) var(x), x);
  n = numel(x);
  assert(norm(full(H) - 2 * (eye(n) - 1 / n) / (n - 1), Inf) < 1e-13, 'Hessian of var');
  % The undefined name errors when its call runs, as in Octave, with its position.
  try
    msad_eval(@(x) octave_idioms(x, 3), x);
    error('test:noError', 'octave_idioms(x, 3) should fail');
  catch err
    assert(strcmp(err.identifier, 'Octave:undefined-function'), 'identifier %s: %s', err.identifier, err.message);
    assert(~isempty(strfind(err.message, 'octave_idioms.m:12:')), 'no position in: %s', err.message);
  end
end

