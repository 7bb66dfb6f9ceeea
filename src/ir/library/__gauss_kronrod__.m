function [q, err] = __gauss_kronrod__(name, f, a, b, varargin)
% __GAUSS_KRONROD__  For msad's integral and quadgk: adaptive (7, 15) Gauss-Kronrod quadrature of
%   f over [a, b], splitting each interval whose error estimate exceeds its share of the tolerance.
  abstol = 1e-10;
  reltol = 1e-6;
  for k = 1:2:numel(varargin)
    switch lower(varargin{k})
      case 'abstol'
        abstol = varargin{k + 1};
      case 'reltol'
        reltol = varargin{k + 1};
      otherwise
        error('msad:unsupported', '%s: msad supports the options AbsTol and RelTol, not %s', name, varargin{k});
    end
  end
  if ~isscalar(a) || ~isscalar(b) || ~isfinite(a) || ~isfinite(b)
    error('msad:unsupported', '%s: msad integrates over finite scalar limits', name);
  end
  % Kronrod nodes on [-1, 1] and their weights; the Gauss weights of the even-numbered nodes.
  half = [0.991455371120812639206854697526329; 0.949107912342758524526189684047851; ...
          0.864864423359769072789712788640926; 0.741531185599394439863864773280788; ...
          0.586087235467691130294144845693013; 0.405845151377397166906606412076961; ...
          0.207784955007898467600689403773245];
  nodes = [-half; 0; flipud(half)];
  kronrod = [0.022935322010529224963732008058970; 0.063092092629978553290700663189204; ...
             0.104790010322250183839876322541518; 0.140653259715525918745189590510238; ...
             0.169004726639267902826583426598550; 0.190350578064785409913256402421014; ...
             0.204432940075298892414161999234649];
  kronrod = [kronrod; 0.209482141084727828012999174891714; flipud(kronrod)];
  gauss = [0.129484966168869693270611432679082; 0.279705391489276667901467771423780; ...
           0.381830050505118944950369775488975];
  gauss = [0; gauss(1); 0; gauss(2); 0; gauss(3); 0; 0.417959183673469387755102040816327; ...
           0; gauss(3); 0; gauss(2); 0; gauss(1); 0];
  edges = a + (b - a) * (0:10) / 10;
  lo = edges(1:end - 1);
  hi = edges(2:end);
  q = 0;
  err = 0;
  for pass = 1:50
    centres = (lo + hi) / 2;
    widths = (hi - lo) / 2;
    values = reshape(f(reshape(centres + widths .* nodes, 1, [])), 15, []);
    estimate = widths .* (kronrod' * values);
    errors = abs(estimate - widths .* (gauss' * values));
    total = q + sum(estimate);
    tolerance = max(abs(total) * reltol, abstol);
    done = errors <= tolerance * abs(widths / ((b - a) / 2));
    q = q + sum(estimate(done));
    err = err + sum(errors(done));
    if all(done)
      return;
    end
    lo = lo(~done);
    hi = hi(~done);
    mid = (lo + hi) / 2;
    [lo, hi] = deal([lo, mid], [mid, hi]);
  end
  error('%s: the error estimate did not meet the tolerance after 50 subdivisions', name);
end
