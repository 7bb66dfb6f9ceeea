function msad_hessian_call(f, x, varargin)
% MSAD_HESSIAN_CALL  One msad_eval call asking for value, gradient and Hessian (for timing, as
%   msad_jacobian_call); further arguments (opts) pass on.
  [~, ~, ~] = msad_eval(f, x, varargin{:});
end
