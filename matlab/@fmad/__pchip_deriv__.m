function r = __pchip_deriv__(varargin) %#ok<STOUT>
%__PCHIP_DERIV__  Octave's internal slopes of pchip (interp1 'pchip' and
%   'cubic'): not supported for fmad values.
  unsupported('interp1 with ''pchip'' or ''cubic'' values (pchip)', ...
              'no rule for the pchip slopes; ''linear'' and ''spline'' are supported');
end
