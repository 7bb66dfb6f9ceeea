function v = getvalue(x)
%GETVALUE  Value of an fmad object.
%   V = GETVALUE(X) returns the value array of X (itself an fmad object when
%   X is nested for second derivatives).
%
%   See also fmad, getderivs, getinternalderivs.
  v = x.value;
end
