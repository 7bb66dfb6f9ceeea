function z = with_parts(template, value, derivs)
% A new fmad object with the given parts. Copying an existing object is far
% cheaper than class() and private functions may not call class() anyway.
  z = template;
  z.value = value;
  z.derivs = derivs;
end
