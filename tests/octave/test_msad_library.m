function test_msad_library()
% msad's own MATLAB implementations (src/ir/library): trapz in all its call forms, values equal to
% Octave's trapz and J against the complex step, differentiated in y and in the points x.
  rand('state', 3);
  Y = rand(4, 3);
  points = cumsum(rand(4, 1));
  forms = {@(v) trapz(v .^ 2), @(v) trapz([0 1 3 4], v .^ 2), @(v) trapz(v, sin(v)), ...
           @(v) trapz(reshape(v, 4, 3)), @(v) trapz(reshape(v, 4, 3), 2), ...
           @(v) trapz(points, reshape(v, 4, 3)), @(v) trapz(points.', reshape(v, 4, 3).', 2), ...
           @(v) trapz(v(1)), @(v) trapz(1:2, reshape(v, 2, 3, 2), 3), @(v) trapz(reshape(v, 4, 3), Y, 1)};
  inputs = {[1; 2; 3; 4], [1; 2; 3; 4], [0.1; 0.5; 0.9; 2], Y(:), Y(:), Y(:), Y(:), 3, Y(:), Y(:)};
  for k = 1:numel(forms)
    label = func2str(forms{k});
    [f, J] = msad_eval(forms{k}, inputs{k});
    expected = forms{k}(inputs{k});
    assert(isequal(size(f), size(expected)), '%s: size %s, Octave %s', label, mat2str(size(f)), mat2str(size(expected)));
    check_value(f, expected, 1e-15, label);
    % A scalar f gets its gradient as a column.
    check_jacobian(reshape(full(J), numel(f), []), cs_jacobian(forms{k}, inputs{k}), 1e-12, label);
  end
end
