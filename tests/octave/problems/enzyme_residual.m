function f = enzyme_residual(x)
% ENZYME_RESIDUAL  Residuals of the MINPACK-2 enzyme reaction problem (11 x 4).
%   f = enzyme_residual(x) fits the rational model of an enzyme reaction
%   (Kowalik and Osborne) to 11 measurements (u_i, y_i):
%     f_i = y_i - x1 (u_i^2 + u_i x2) / (u_i^2 + u_i x3 + x4),  i = 1..11.
%   Standard start: enzyme_init(); least-squares minimum sum(f.^2) = 3.07505e-4.
  u = [4; 2; 1; 0.5; 0.25; 0.167; 0.125; 0.1; 0.0833; 0.0714; 0.0625];
  y = [0.1957; 0.1947; 0.1735; 0.1600; 0.0844; 0.0627; 0.0456; 0.0342; 0.0323; 0.0235; 0.0246];
  f = zeros(11, 1);
  for i = 1:11
    numerator = u(i)^2 + u(i) * x(2);
    denominator = u(i)^2 + u(i) * x(3) + x(4);
    f(i) = y(i) - x(1) * numerator / denominator;
  end
end
