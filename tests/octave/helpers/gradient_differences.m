function H = gradient_differences(s, x)
% GRADIENT_DIFFERENCES  Hessian of the scalar function s at x by central differences of msad's
%   exact gradient (step 1e-6): the reference for msad's own Hessians.
  n = numel(x);
  H = zeros(n);
  h = 1e-6;
  for j = 1:n
    e = zeros(size(x));
    e(j) = h;
    [~, gp] = msad_eval(s, x + e);
    [~, gm] = msad_eval(s, x - e);
    H(:, j) = (gp(:) - gm(:)) / (2 * h);
  end
end
