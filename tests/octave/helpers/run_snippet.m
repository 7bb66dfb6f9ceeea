function run_snippet(code, where)
% RUN_SNIPPET  Runs documentation code in a fresh workspace, in a scratch folder; an error names where.
  scratch = tempname();
  mkdir(scratch);
  here = cd(scratch);
  % A snippet may load packages (optim loads statistics, which shadows mean, std, ...).
  restore = onCleanup(@() leave_scratch(here, scratch, path()));
  try
    evaluate_alone(code);
  catch err
    error('msad:test:snippet', '%s failed: [%s] %s\n%s', where, err.identifier, err.message, code);
  end
end

% The snippet's variables live here, apart from run_snippet's own.
function evaluate_alone(snippet__)
  evalc(snippet__);
end

function leave_scratch(folder, scratch, oldPath)
  path(oldPath);
  cd(folder);
  confirm_recursive_rmdir(false, 'local');
  rmdir(scratch, 's');
end
