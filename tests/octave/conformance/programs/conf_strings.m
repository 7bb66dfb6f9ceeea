function r = conf_strings(x)
% conformance: program scalar row mat
% Strings built and compared inside a program.
  label = sprintf('%d items', numel(x));
  if strcmp(label, '1 items')
    r = double(upper('a'));
  elseif strncmp(label, '5', 1)
    r = [double(label), numel(num2str(x))];
  else
    r = length(strtrim(['  ' label '  ']));
  end
end
