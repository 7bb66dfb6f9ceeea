function x = tril(x, varargin)
%TRIL  Lower triangular part of an fmad matrix (same arguments as the builtin).
  x = triangular_part(@tril, x, varargin);
end
