function run = run_ode(solver, label, rhs, tspan, y0, options)
% RUN_ODE  One timed ODE solve with its work counted.
%   run = run_ode(solver, label, rhs, tspan, y0, options) solves with
%   solver (@ode15s, @ode23s, ...) and returns the struct fields label,
%   seconds (the whole solve), counts (steps = successful + failed steps,
%   rhs calls including those of the solver's finite differences, Jacobian
%   calls) and solution (y at tspan(end)).
  call_count();
  countedRhs = counted(rhs, 'rhs', 2);
  if is_function_handle(options.Jacobian)
    options.Jacobian = counted(options.Jacobian, 'jacobian', 2);
  end
  options = odeset(options, 'Stats', 'on');
  started = tic;
  statistics = evalc('solution = solver(countedRhs, tspan, y0, options);');
  seconds = toc(started);
  counts.steps = printed_count(statistics, 'successful steps') + printed_count(statistics, 'failed attempts');
  counts.rhs_calls = call_count('rhs');
  counts.jacobian_calls = call_count('jacobian');
  run = struct('label', label, 'seconds', seconds, 'counts', counts, 'solution', solution.y(:, end));
end

function n = printed_count(statistics, what)
  % ode15s prints "97 successful steps", ode23s "Number of successful steps: 97".
  lines = strsplit(statistics, "\n");
  line = lines{find(~cellfun(@isempty, strfind(lines, what)), 1)};
  n = str2double(regexp(line, '\d+', 'match', 'once'));
end
