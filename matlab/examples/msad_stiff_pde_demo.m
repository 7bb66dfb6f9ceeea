function summary = msad_stiff_pde_demo(N, pngFile)
% MSAD_STIFF_PDE_DEMO  A stiff PDE with ode15s: msad's sparse Jacobian next to finite differences.
%   msad_stiff_pde_demo() solves the 1-D Brusselator reaction-diffusion system (N = 120 grid
%   points, 240 unknowns, alpha = 1/50: stiff diffusion) on t in [0, 10] with ode15s twice:
%   with ode15s's own finite-difference Jacobian (240 right-hand-side calls per Jacobian) and with
%   the exact sparse Jacobian odeset('Jacobian', msad_odejac(rhs)). It prints the time and the
%   number of steps of each, checks that both solutions agree, and saves the Jacobian's sparsity
%   pattern (from msad_pattern) as msad_stiff_pde_pattern.png with spy (when Octave has a working
%   graphics toolkit; otherwise as an image of the pattern, one pixel per entry, with imwrite).
%
%   summary = msad_stiff_pde_demo(N, pngFile) uses N points ([]: 120) and writes pngFile; summary holds
%   seconds and steps per run, the largest difference of the solutions and the PNG's name.
%
%   See also brusselator_pde, msad_odejac, msad_pattern, ode15s, spy.
  if nargin < 1 || isempty(N)
    N = 120;   % seconds; the finite-difference run grows as N^2 (N = 200: ~10 s more)
  end
  if nargin < 2
    pngFile = 'msad_stiff_pde_pattern.png';
  end
  x = (1:N)' / (N + 1);
  y0 = [1 + sin(2 * pi * x); 3 * ones(N, 1)];
  rhs = @(t, y) brusselator_pde(y, N);
  options = odeset('RelTol', 1e-6, 'AbsTol', 1e-8);

  [finiteDifferences, yFd] = timed_solve('finite differences', rhs, y0, options);
  [exact, yAd] = timed_solve('msad sparse Jacobian', rhs, y0, odeset(options, 'Jacobian', msad_odejac(rhs)));
  difference = max(abs(yAd - yFd));
  fprintf('Brusselator, N = %d (%d unknowns), ode15s on [0, 10]\n', N, 2 * N);
  fprintf('  %-22s %8s %7s\n', 'Jacobian', 'seconds', 'steps');
  for run = [finiteDifferences, exact]
    fprintf('  %-22s %8.2f %7d\n', run.label, run.seconds, run.steps);
  end
  fprintf('  largest difference of the solutions at t = 10: %.1e\n', difference);
  if difference > 1e-4
    error('msad:demo', 'the solutions with and without msad differ by %g', difference);
  end

  P = msad_pattern(@(y) brusselator_pde(y, N), y0);
  save_pattern(P, pngFile);
  fprintf('  Jacobian: %d x %d, %d nonzeros; pattern saved as %s\n', size(P), nnz(P), pngFile);
  if nargout > 0
    summary = struct('finite_differences', finiteDifferences, 'msad', exact, 'difference', difference, 'png', pngFile);
  end
end

function [run, yEnd] = timed_solve(label, rhs, y0, options)
  started = tic;
  [t, y] = ode15s(rhs, [0 10], y0, odeset(options, 'Refine', 1));
  run = struct('label', label, 'seconds', toc(started), 'steps', numel(t) - 1);
  yEnd = y(end, :)';
end

function save_pattern(P, pngFile)
  warning('off', 'all', 'local');   % gnuplot's "discouraged" notice, font warnings
  try
    figureHandle = figure('visible', 'off');
    closeFigure = onCleanup(@() close(figureHandle));
    spy(P);
    title(sprintf('Jacobian sparsity, %d nonzeros', nnz(P)));
    print(figureHandle, '-dpng', pngFile);
  catch
    % No usable graphics toolkit (octave-cli on a server): the pattern as a black-on-white image.
  end
  if ~exist(pngFile, 'file')
    imwrite(uint8(255 * ~full(P)), pngFile);
  end
end
