function display(x)
%DISPLAY  Show an fmad object: its name, value and derivatives.
  name = inputname(1);
  if isempty(name)
    name = 'ans';
  end
  fprintf('%s =\n', name);
  disp(x);
end
