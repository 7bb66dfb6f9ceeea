function msad_jacobian_call(f, x, varargin)
% MSAD_JACOBIAN_CALL  One msad_eval call asking for value and Jacobian (for timing: a call through
%   @() msad_eval(f, x) has nargout 0 and computes the value only); further arguments (opts) pass on.
  [~, ~] = msad_eval(f, x, varargin{:});
end
