function x = triu(x, varargin)
%TRIU  Upper triangular part of an fmad matrix (same arguments as the builtin).
  x = triangular_part(@triu, x, varargin);
end
