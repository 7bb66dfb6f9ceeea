function z = rem(a, b)
%REM  rem(a, b) = a - fix(a ./ b) .* b for fmad objects: the derivative is
%   da - fix(a ./ b) .* db, piecewise.
  z = binary_elementwise(a, b, 'rem');
end
