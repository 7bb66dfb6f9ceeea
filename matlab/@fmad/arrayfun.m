function varargout = arrayfun(fn, varargin)
%ARRAYFUN  arrayfun(fn, A, B, ...) with fmad arrays: FN runs on the
%   elements (fmad scalars) and the results keep their derivatives; with
%   'UniformOutput', false the results come back in cells. 'ErrorHandler'
%   is not supported.
  [uniform, args] = uniform_option(varargin);
  if ischar(fn)
    fn = str2func(fn);
  end
  sz = size(args{1});
  for k = 2:numel(args)
    if ~isequal(size(args{k}), sz)
      error('fmad:badInput', 'arrayfun: all the input arguments must have the same size');
    end
  end
  count = prod(sz);
  results = cell(max(nargout, 1), count);
  elements = cell(size(args));
  for i = 1:count
    for k = 1:numel(args)
      elements{k} = take(args{k}, i);
    end
    [results{:, i}] = fn(elements{:});
  end
  for j = 1:size(results, 1)
    if ~uniform
      varargout{j} = reshape(results(j, :), sz);
    elseif all(cellfun(@numel, results(j, :)) == 1)
      varargout{j} = reshape([results{j, :}], sz);
    else
      error('fmad:badInput', ['arrayfun: all values must be scalars when ' ...
            'UniformOutput = true; use the ''UniformOutput'', false options']);
    end
  end
end

function [uniform, args] = uniform_option(args)
  % Splits off the trailing name/value options.
  uniform = true;
  while numel(args) >= 2 && ischar(args{end-1})
    if strcmpi(args{end-1}, 'UniformOutput')
      uniform = logical(args{end});
    else
      unsupported(['arrayfun(..., ''' args{end-1} ''')'], 'only ''UniformOutput'' is supported');
    end
    args(end-1:end) = [];
  end
end
