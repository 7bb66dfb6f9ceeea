function x0 = heart_dipole_init()
% HEART_DIPOLE_INIT  Starting point of heart_dipole_residual (all entries nonzero).
  x0 = [0.299; 0.186; -0.0273; 0.0254; -0.474; 0.474; -0.0892; 0.0892];
end
