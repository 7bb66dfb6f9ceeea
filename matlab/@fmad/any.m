function r = any(x, varargin)
%ANY  any() of the value of an fmad object.
  r = any(base_value(x), varargin{:});
end
