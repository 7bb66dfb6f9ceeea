function test_msad_range_subscripts()
% Ranges as subscripts (msad indexes by first, step, count without building them): values equal
% Octave's, J matches central differences, and bad ranges raise Octave's identifiers with the same
% message (its first line; the next ones quote the source) as the same positions built as a list.
  x = [0.7; -1.3; 0.4; 2.1; -0.2; 1.1; 0.9; -0.6; 1.7; 0.3; -2.2; 0.5];
  expected = range_subscripts(x);
  reference = fd_jacobian(@range_subscripts, x);
  for mode = {'full', 'sparse', 'reverse'}
    opts = struct('jacobian', mode{1});
    if strcmp(mode{1}, 'reverse')
      % g = @(i) x(i) .^ 2 captures x: reverse mode follows the handle's captured values.
      opts = struct('mode', 'reverse');
    end
    [f, J] = msad_eval(@range_subscripts, x, opts);
    check_value(f, expected, 0, ['range_subscripts value, ' mode{1}]);
    check_jacobian(J, reference, 1e-7, ['range_subscripts Jacobian, ' mode{1}]);
  end
  bad = {@(x) x(0:2), @(x) x(-1:-1:-3), @(x) x(10:14), ...
         @(x) x(14:-1:10), @(x) x(1:2, 2:5), @(x) sum(x(3:-1:0))};
  asList = {@(x) x([0 1 2]), @(x) x([-1 -2 -3]), ...
            @(x) x([10 11 12 13 14]), @(x) x([14 13 12 11 10]), @(x) x([1 2], [2 3 4 5]), ...
            @(x) sum(x([3 2 1 0]))};
  for k = 1:numel(bad)
    octaveId = error_of(@() bad{k}(x));
    [msadId, msadMessage] = error_of(@() msad_eval(bad{k}, x));
    [listId, listMessage] = error_of(@() msad_eval(asList{k}, x));
    assert(strcmp(msadId, octaveId), 'bad range %d: identifier %s, Octave %s', k, msadId, octaveId);
    assert(strcmp(msadId, listId) && strcmp(msadMessage, listMessage), ...
           'bad range %d: "%s" (%s), as a list "%s" (%s)', k, msadMessage, msadId, listMessage, listId);
  end
end

function [identifier, message] = error_of(f)
  try
    f();
  catch err
    identifier = err.identifier;
    message = strtok(err.message, "\n");
    return;
  end
  error('no error raised');
end
