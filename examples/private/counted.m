function wrapped = counted(fun, name, nInputs)
% COUNTED  fun that adds one to call_count(name) per call.
%   wrapped = counted(fun, name, 1) is @(x), counted(fun, name, 2) is
%   @(t, y): a fixed number of inputs, because Octave's ode15s requires
%   nargin == 2 of a Jacobian handle. All outputs asked for are passed on.
  switch nInputs
    case 1
      wrapped = @(x) count_then_call(fun, name, x);
    case 2
      wrapped = @(t, y) count_then_call(fun, name, t, y);
    otherwise
      error('counted: nInputs must be 1 or 2');
  end
end

function varargout = count_then_call(fun, name, varargin)
  call_count(name, 1);
  [varargout{1:max(1, nargout)}] = fun(varargin{:});
end
