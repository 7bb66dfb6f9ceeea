function check_forms(complex_safe, needs_differences, x)
% CHECK_FORMS  Checks msad_eval on each function handle of two lists at x: the value equals Octave's
%   and J matches the complex-step Jacobian (complex_safe, tol 1e-12) or central differences
%   (needs_differences, tol 1e-7), with automatic options, without sparsity, and in forward mode
%   with a sparse Jacobian. A scalar f's gradient (a column) is compared as a row.
  forms = [complex_safe(:); needs_differences(:)];
  for k = 1:numel(forms)
    f = forms{k};
    label = func2str(f);
    if k <= numel(complex_safe)
      [Jref, tol] = deal(cs_jacobian(f, x), 1e-12);
    else
      [Jref, tol] = deal(fd_jacobian(f, x), 1e-7);
    end
    expected = f(x);
    for opts = {struct(), struct('sparsity', 'none'), struct('mode', 'forward', 'jacobian', 'sparse')}
      [value, J] = msad_eval(f, x, opts{1});
      assert(isequal(size(value), size(expected)), '%s: size %s, Octave %s', label, mat2str(size(value)), mat2str(size(expected)));
      check_value(value, expected, 1e-14, label);
      check_jacobian(reshape(full(J), numel(value), []), Jref, tol, label);
    end
  end
end
