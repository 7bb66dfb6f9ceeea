function r = conf_try_nested(x)
% conformance: program scalar row col mat
% try in a while loop left by break from the catch block, try inside catch, an error raised in a
% branch of an if inside try after assignments in that branch, and err used after the try.
  k = 0;
  acc = 0;
  while true
    k = k + 1;
    try
      acc = acc + x(k) * k;
    catch first
      break
    end
  end
  a = 1;
  try
    if numel(x) > 2
      a = 2;
      error('nested:branch', 'branch %d', numel(x));
    end
    a = a + 10;
  catch
    try
      a = a + x(numel(x) + 1);
    catch second
      a = a * 100;
    end
  end
  r = [k, acc, a, double(first.identifier)];
end
