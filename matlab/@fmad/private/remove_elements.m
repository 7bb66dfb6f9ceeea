function a = remove_elements(a, subs)
% a(subs{:}) = [] (deletion needs a literal [] for builtin arrays).
  if isa(a, 'fmad')
    a = subsasgn(a, struct('type', '()', 'subs', {subs}), []);
  else
    a(subs{:}) = [];
  end
end
