function msad_check_double(value, name, caller, sparseAllowed)
% MSAD_CHECK_DOUBLE  Errors with msad:badInput unless value is a real double array.
%   msad_check_double(value, name, caller, sparseAllowed): name is how the
%   user knows the value ('x', 'y', 'F(x)'), so the message points at the
%   user's own code rather than at msad_eval's argument list. msad
%   differentiates with respect to full arrays only (sparseAllowed false);
%   a function's value may be sparse.
  storageAccepted = ~issparse(value) || sparseAllowed;
  if ~isa(value, 'double') || ~isreal(value) || ~storageAccepted
    kind = 'full double';
    if sparseAllowed
      kind = 'double';
    end
    error('msad:badInput', '%s: %s must be a real %s array, not a %s', caller, name, kind, msad_describe(value));
  end
end
