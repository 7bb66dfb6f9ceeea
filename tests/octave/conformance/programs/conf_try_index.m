function r = conf_try_index(x)
% conformance: program scalar row col mat empty00
% try/catch around indexing past the end: the catch sees Octave's identifier, and assignments made
% before the error persist.
  a = 1;
  try
    a = 2 * x;
    b = x(4);
    r = [a(:)' b];
  catch err
    r = [a(:)' double(err.identifier)];
  end
end
