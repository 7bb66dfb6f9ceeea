function msad_hessian_call(h, x, varargin)
% MSAD_HESSIAN_CALL  One msad_eval call asking for value, gradient and Hessian (for timing); extra
%   arguments after x go to h.
  [~, ~, ~] = msad_eval(h, x, struct(), varargin{:});
end
