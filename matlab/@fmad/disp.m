function disp(x)
%DISP  Display the value and the internal derivatives of an fmad object.
  fprintf('  fmad object: value of size %s, %d direction(s)\n', ...
          size_text(size(x.value)), size(x.derivs, 2));
  fprintf('value =\n');
  disp(x.value);
  fprintf('derivatives (internal form, numel x nd) =\n');
  disp(x.derivs);
end

function t = size_text(sz)
  t = sprintf('%dx', sz);
  t = t(1:end-1);
end
