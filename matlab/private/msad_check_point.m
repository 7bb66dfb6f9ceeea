function msad_check_point(value, name, caller)
% MSAD_CHECK_POINT  Errors with msad:badInput unless value can be differentiated against.
%   msad_check_point(value, name, caller): value must be a real, full double
%   array (msad differentiates real code). name is how the user knows the
%   argument ('x', 'y'), so the message points at the user's own call rather
%   than at msad_eval's argument list.
  if ~isa(value, 'double') || ~isreal(value) || issparse(value)
    error('msad:badInput', '%s: %s must be a real full double array, not a %s', caller, name, msad_describe(value));
  end
end
