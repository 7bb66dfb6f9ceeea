function text = msad_describe(value)
% MSAD_DESCRIBE  Size and kind of a value for error messages, e.g. '3x1 char' or '2x2 sparse double'.
  dims = strjoin(arrayfun(@num2str, size(value), 'UniformOutput', false), 'x');
  kind = class(value);
  if issparse(value)
    kind = ['sparse ', kind];
  elseif isnumeric(value) && ~isreal(value)
    kind = ['complex ', kind];
  end
  text = [dims, ' ', kind];
end
