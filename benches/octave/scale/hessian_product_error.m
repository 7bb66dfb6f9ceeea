function err = hessian_product_error(fn, x, H)
% HESSIAN_PRODUCT_ERROR  Relative difference between H v and the central difference of msad's
%   gradient along a fixed v: a check of H that needs no hand-coded Hessian.
  v = cos((1:numel(x))');
  h = 1e-6 * max(1, norm(x, inf));
  [~, gp] = msad_eval(fn, x + h * v);
  [~, gm] = msad_eval(fn, x - h * v);
  err = norm(H * v - (gp - gm) / (2 * h)) / norm(H * v);
end
