function r = all(x, varargin)
%ALL  all() of the value of an fmad object.
  r = all(base_value(x), varargin{:});
end
