function x0 = enzyme_init()
% ENZYME_INIT  Standard starting point of the enzyme reaction problem.
  x0 = [0.25; 0.39; 0.415; 0.39];
end
