function r = conf_try_report(x)
% conformance: program scalar row
% Octave 7's caught error is a struct: it has no getReport, and its stack names this function.
  try
    error('conf:report', 'bad value %g', x(1));
  catch err
    try
      r = err.getReport();
    catch inner
      r = [inner.message '|' err.stack(1).name '|' num2str(numel(err.stack) > 0)];
    end
  end
end
