function check_value(value, expected, tol, label)
% CHECK_VALUE  Throw unless value equals expected in size and to relative tol.
%   The error is measured normwise: max|value - expected| / max|expected|,
%   so exact zeros among the expected entries do not make it ill-defined.
  if nargin < 4
    label = 'value';
  end
  if ~isequal(size(value), size(expected))
    error('check_value:size', '%s: size %s, expected %s', label, ...
          mat2str(size(value)), mat2str(size(expected)));
  end
  scale = max(abs(expected(:)));
  difference = max(abs(value(:) - expected(:)));
  if isempty(difference)
    return;
  end
  relativeError = difference / max(scale, realmin);
  if ~(relativeError <= tol)
    error('check_value:mismatch', '%s: relative error %.3g > tol %.3g', ...
          label, relativeError, tol);
  end
end
