function run = run_ode(solver, label, rhs, tspan, y0, options)
% RUN_ODE  One timed ODE solve with its work counted.
%   run = run_ode(solver, label, rhs, tspan, y0, options) solves with
%   solver (@ode15s, @ode23s, ...) and returns the struct fields label,
%   seconds (the whole solve), counts (steps = successful + failed steps as
%   the solver reports them; Jacobian calls when options.Jacobian is a
%   function, else NaN: the solver's own finite differences are not
%   counted) and solution (y at tspan(end)).
  call_count();
  jacobianCalls = NaN;
  if is_function_handle(options.Jacobian)
    options.Jacobian = counted_ode(options.Jacobian, 'jacobian');
    jacobianCalls = 0;
  end
  options = odeset(options, 'Stats', 'on');
  started = tic;
  statistics = evalc('solution = solver(rhs, tspan, y0, options);');
  seconds = toc(started);
  counts.steps = printed_count(statistics, 'successful steps') + printed_count(statistics, 'failed attempts');
  counts.jacobian_calls = jacobianCalls + call_count('jacobian');
  run = struct('label', label, 'seconds', seconds, 'counts', counts, 'solution', solution.y(:, end));
end

function n = printed_count(statistics, what)
  % ode15s prints "97 successful steps", ode23s "Number of successful steps: 97".
  lines = strsplit(statistics, "\n");
  line = lines{find(~cellfun(@isempty, strfind(lines, what)), 1)};
  n = str2double(regexp(line, '\d+', 'match', 'once'));
end
