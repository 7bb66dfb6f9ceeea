function test_msad_hessian_containers()
% Hessians through cells and struct fields holding x-dependent values (`c = {x}; v = c{1}`,
% `s.a = x; v = s.a`), in every mode: value, gradient and H equal those of the same code with plain
% variables, central differences (of the function and of the gradient) and the exact H.
  x = [0.5; -1.5; 2];
  exact = diag(6 * x) + [0 1 0; 1 0 0; 0 0 0];
  for kind = {'cell', 'struct', 'variables'}
    for mode = {'auto', 'forward', 'reverse'}
      label = sprintf('%s, %s', kind{1}, mode{1});
      [f, g, H] = msad_eval(@cubes_in_containers, x, struct('mode', mode{1}), kind{1});
      check_value(f, cubes_in_containers(x, kind{1}), 0, [label ': value']);
      check_jacobian(g', fd_jacobian(@(y) cubes_in_containers(y, kind{1}), x), 1e-8, [label ': gradient']);
      check_jacobian(H, fd_jacobian(@(y) gradient_of(y, kind{1}), x), 1e-7, [label ': H']);
      check_jacobian(H, exact, 1e-14, [label ': H exact']);
    end
  end
end

function g = gradient_of(x, kind)
  [~, g] = msad_eval(@cubes_in_containers, x, struct(), kind);
end
