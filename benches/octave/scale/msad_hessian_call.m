function msad_hessian_call(h, x)
% MSAD_HESSIAN_CALL  One msad_eval call asking for value, gradient and Hessian (for timing).
  [~, ~, ~] = msad_eval(h, x);
end
