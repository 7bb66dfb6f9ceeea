function test_msad_hessian_containers()
% A Hessian through cells or structs holding x-dependent values is msad:unsupported in every mode,
% and its advice works: g through the container (two outputs), and H once the values are kept in
% variables, equal central differences (of the function, and of the gradient).
  x = [0.5; -1.5; 2];
  for kind = {'cell', 'struct'}
    for mode = {'auto', 'forward', 'reverse'}
      try
        [~, ~, ~] = msad_eval(@cubes_in_containers, x, struct('mode', mode{1}), kind{1});
        error('test:noError', 'no error for a %s with mode %s', kind{1}, mode{1});
      catch err
        assert(strcmp(err.identifier, 'msad:unsupported') && ~isempty(strfind(err.message, 'in a Hessian')) ...
               && isempty(strfind(err.message, 'opts.mode')) && ~isempty(strfind(err.message, 'cubes_in_containers.m:')), ...
               '%s, %s: %s %s', kind{1}, mode{1}, err.identifier, err.message);
      end
    end
    [f, g] = msad_eval(@cubes_in_containers, x, struct(), kind{1});
    check_value(f, cubes_in_containers(x, kind{1}), 0, [kind{1} ': value']);
    check_jacobian(g', fd_jacobian(@(x) cubes_in_containers(x, kind{1}), x), 1e-8, [kind{1} ': gradient']);
  end
  [f, g, H] = msad_eval(@cubes_in_containers, x, struct(), 'variables');
  check_value(f, cubes_in_containers(x, 'variables'), 0, 'variables: value');
  check_jacobian(H, fd_jacobian(@(y) gradient_of(y), x), 1e-7, 'variables: H');
  check_jacobian(H, diag(6 * x) + [0 1 0; 1 0 0; 0 0 0], 1e-14, 'variables: H exact');
end

function g = gradient_of(x)
  [~, g] = msad_eval(@cubes_in_containers, x, struct(), 'variables');
end
