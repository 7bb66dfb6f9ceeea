function args = base_values(args)
% The arguments of a call with every fmad object replaced by its innermost
% value: for the functions whose result does not depend differentiably on
% their input (integer conversions, bit operations, text).
  for k = 1:numel(args)
    args{k} = base_value(args{k});
  end
end
