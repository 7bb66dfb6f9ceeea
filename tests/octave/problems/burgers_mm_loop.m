function dydt = burgers_mm_loop(y)
% BURGERS_MM_LOOP  Burgers' equation on a moving mesh: method-of-lines rhs, scalar loops.
%   Same function as burgers_mm_vec (see its help for the formulation):
%   y = [u; x], e = 1e-4, tau = 1e-2, u(0) = u(1) = 0, mesh fixed at 0 and 1.
  epsilon = 1e-4;
  tau = 1e-2;
  N = numel(y) / 2;
  dydt = zeros(size(y));
  for i = 1:N
    u = y(i);
    x = y(N + i);
    if i == 1
      uLeft = 0;
      xLeft = 0;
    else
      uLeft = y(i - 1);
      xLeft = y(N + i - 1);
    end
    if i == N
      uRight = 0;
      xRight = 1;
    else
      uRight = y(i + 1);
      xRight = y(N + i + 1);
    end
    hLeft = x - xLeft;
    hRight = xRight - x;
    lengthLeft = sqrt(hLeft^2 + (u - uLeft)^2);
    lengthRight = sqrt(hRight^2 + (uRight - u)^2);
    dxdt = (N + 1)^2 / tau * (lengthRight - lengthLeft);
    ux = (uRight - uLeft) / (hLeft + hRight);
    uxx = 2 * ((uRight - u) / hRight - (u - uLeft) / hLeft) / (hLeft + hRight);
    fluxx = (uRight^2 - uLeft^2) / (2 * (hLeft + hRight));
    dydt(i) = epsilon * uxx - fluxx + ux * dxdt;
    dydt(N + i) = dxdt;
  end
end
