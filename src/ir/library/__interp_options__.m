function [method, extrap, data] = __interp_options__(most, varargin)
% __INTERP_OPTIONS__  For msad's interp1 and interp2: their arguments as Octave reads them. The values
%   before the first text (at most MOST) are the data; text is the method (lower case, a leading '*'
%   dropped), or 'extrap', which sets EXTRAP to 'extrap'; a value after them is the value outside
%   (EXTRAP, default NaN).
  method = 'linear';
  extrap = NaN;
  data = {};
  text_seen = false;
  for k = 1:numel(varargin)
    arg = varargin{k};
    text_seen = text_seen || ischar(arg);
    if ischar(arg) && strcmpi(arg, 'extrap')
      extrap = 'extrap';
    elseif ischar(arg)
      method = lower(arg);
      if strncmp(method, '*', 1)
        method = method(2:end);
      end
    elseif ~text_seen && numel(data) < most
      data{end + 1} = arg;
    else
      extrap = arg;
    end
  end
end
