function test_msad_captured_objects()
% Captured values msad does not model (containers.Map, classdef objects) are refused only where the
% code reads them: a closure that merely captured one (Octave captures every variable the text names
% at creation) works; reading it is msad:unsupported naming the variable and its class.
% Arrays grown in loops without preallocation give Octave's values and exact Jacobians.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1; 0.4];
  map = containers.Map();
  map('a') = 2;
  flag = true;
  % `map` is captured (the text names it) but only read on a path not taken.
  f = @(y) y .^ 2 * 3 + (flag || map('a'));
  [v, J] = msad_eval(f, x);
  assert(isequal(v, f(x)), 'unused map: value');
  check_jacobian(J, diag(6 * x), 1e-14, 'unused map');
  used = @(y) y * map('a');
  expect_error(@() msad_eval(used, x), 'msad:unsupported', 'containers.Map');

  % A value-class object's public properties can be read (obj.Prop, obj.Prop(k)) and so can its
  % class (class(obj), isobject(obj)); using the object otherwise is refused where it runs; so is a
  % handle-class object, whose properties may change while the closure stays the same.
  point = ValuePoint();
  point.Scale = 3;
  reads = @(y) point.Scale * y .^ 2 + point.Shift(1:numel(y)) .* y;
  x3 = x(1:3);
  for options = {struct(), struct('mode', 'forward'), struct('mode', 'reverse')}
    [v, J] = msad_eval(reads, x3, options{1});
    check_value(v, reads(x3), 1e-15, 'object properties: value');
    check_jacobian(J, diag(6 * x3 + [1; 2; 3]), 1e-14, 'object properties: J');
  end
  [~, g, H] = msad_eval(@(y) sum(reads(y)), x3);
  check_jacobian(H, 6 * eye(3), 1e-14, 'object properties: H');
  point.Scale = -1;
  reads_again = @(y) point.Scale * y .^ 2 + point.Shift(1:numel(y)) .* y;
  check_value(msad_eval(reads_again, x(1:3)), reads_again(x(1:3)), 1e-15, 'changed object');
  % A captured struct or cell holding an object is refused only where the code reads it.
  holder.map = map;
  holder.k = 2;
  unused_holder = @(y) y * 2 + (flag || holder.k);
  check_value(msad_eval(unused_holder, x), unused_holder(x), 0, 'unread struct holding a Map');
  expect_error(@() msad_eval(@(y) y * holder.k, x), 'msad:unsupported', 'holder');
  boxed = {point, 3};
  unused_box = @(y) y * 2 + (flag || boxed{2});
  check_value(msad_eval(unused_box, x), unused_box(x), 0, 'unread cell holding an object');
  expect_error(@() msad_eval(@(y) y * boxed{2}, x), 'msad:unsupported', 'boxed');
  % A method call on a captured object is refused where it runs, naming the method.
  by_method = @(y) point.scaled(y);
  expect_error(@() msad_eval(by_method, x3), 'msad:unsupported', 'scaled');
  by_function = @(y) scaled(point, y);
  expect_error(@() msad_eval(by_function, x3), 'msad:unsupported', 'scaled');
  unused_method = @(y) point.Scale * y + 0 * (false && point.scaled(1));
  check_value(msad_eval(unused_method, x3), unused_method(x3), 0, 'method on a path not taken');
  % A method with the name of a function on the path (shifted.m): Octave runs the method, msad
  % refuses the call (the object is an argument) rather than run the function.
  assert(isequal(shifted(point, x3), x3 + point.Shift), 'Octave runs the method');
  expect_error(@() msad_eval(@(y) shifted(point, y), x3), 'msad:unsupported', 'ValuePoint');
  expect_error(@() msad_eval(@(y) point.shifted(y), x3), 'msad:unsupported', 'shifted');
  % class(obj) and isobject(obj), as dispatch code asks them, give Octave's answers.
  dispatch = @(y) (isobject(point) && strcmp(class(point), 'ValuePoint')) * point.Scale * y .^ 2 ...
                  + (isobject(y) + 1) * y - ~isobject(point);
  check_value(msad_eval(dispatch, x3), dispatch(x3), 0, 'class and isobject: value');
  for options = {struct('mode', 'forward'), struct('mode', 'reverse')}
    [~, J] = msad_eval(dispatch, x3, options{1});
    check_jacobian(J, cs_jacobian(dispatch, x3), 1e-13, ['class and isobject: J ' options{1}.mode]);
  end
  [~, ~, H] = msad_eval(@(y) sum(dispatch(y) .^ 2), x3);
  check_jacobian(H, gradient_differences(@(y) sum(dispatch(y) .^ 2), x3), 1e-6, 'class and isobject: H');
  expect_error(@() msad_eval(@(y) y * numel(class(map)), x), 'msad:unsupported', 'containers.Map');
  counter = HandlePoint();
  by_reference = @(y) counter.Scale * y;
  expect_error(@() msad_eval(by_reference, x), 'msad:unsupported', 'HandlePoint');

  value = grow_loops(x);
  [v, J] = msad_eval(@grow_loops, x);
  assert(isequal(size(v), size(value)) && max(abs(v - value)) <= 1e-14 * max(abs(value)), 'growth: value');
  check_jacobian(J, cs_jacobian(@grow_loops, x), 1e-12, 'growth');
  % (Reverse mode refuses struct arrays of x-dependent values: README.)
  [~, J] = msad_eval(@grow_loops, x, struct('mode', 'forward', 'sparsity', 'none'));
  check_jacobian(J, cs_jacobian(@grow_loops, x), 1e-12, 'growth (forward)');
  % (So do Hessians, naming the line: test_msad_grow_undefined has Hessians of the other growth forms.)
  grown = @(y) sum(grow_loops(y) .^ 2);
  [~, g] = msad_eval(grown, x);
  check_jacobian(g(:).', cs_jacobian(grown, x), 1e-12, 'growth (gradient)');
  expect_error(@() hessian_of(grown, x), 'msad:unsupported', 'grow_loops.m:15');
end

function H = hessian_of(f, x)
  [~, ~, H] = msad_eval(f, x);
end
