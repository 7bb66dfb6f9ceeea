function file = msad_export(fun, x, file, varargin)
% MSAD_EXPORT  Write a standalone .m file that computes f and its sparse Jacobian without msad.
%   msad_export(fun, x, file) writes file (a .m name; '.m' is added if missing) with one main
%   function [f, J] = NAME(x), NAME the file's base name: f = fun(x) and J = d f(:) / d x(:) as a
%   sparse numel(f) x numel(x) matrix, for any x with numel(x) elements. The file holds fun's
%   code (and that of the user functions it calls) transformed to forward mode over the compressed
%   directions of the sparsity pattern msad detects at x, readable and independent of msad.
%   msad_export(fun, x, file, p1, p2, ...) exports fun(x, p1, p2, ...): the exported function
%   takes the extra arguments too, NAME(x, p1, p2, ...), and differentiates with respect to x.
%   An anonymous fun's captured variables are written into the file as constants.
%
%   When msad cannot prove one pattern for every x (a loop whose trip count depends on x), the file
%   seeds every column of J separately instead, which is exact at every x.
%
%   Example:
%     f = @(x) [x(1)^2 + x(2); sin(x(2)) .* x(3); sum(x .^ 2)];
%     msad_export(f, [1; 2; 3], fullfile(tempdir, 'f_jac.m'));
%     addpath(tempdir); [y, J] = f_jac([0.5; -1; 2])
%
%   Errors: msad:unsupported (with file, line and column) for code the exported file cannot
%   differentiate yet: calls through function handles, nested functions, nargin/varargin, fields or
%   cells holding differentiated values, and builtins without an exported rule; msad_eval
%   differentiates all of them at run time. msad:badInput for a bad file name.
%
%   See also msad_eval, msad_pattern.
  if nargin < 3 || ~ischar(file) || isempty(file)
    error('msad:badInput', 'msad_export(fun, x, file): file must be the name of the .m file to write');
  end
  fun = msad_check_function(fun, 1 + numel(varargin), 'msad_export', 'fun(x, extra...)');
  msad_check_double(x, 'x', 'msad_export', false);
  [folder, name, ext] = fileparts(file);
  if isempty(ext)
    file = [file '.m'];
  elseif ~strcmp(ext, '.m')
    error('msad:badInput', 'msad_export writes a .m file, not %s', ext);
  end
  code = msad_eval(fun, x, struct('export', name), varargin{:});
  [fid, message] = fopen(file, 'w');
  if fid < 0
    error('msad:badInput', 'msad_export cannot write %s: %s', file, message);
  end
  fputs(fid, code);
  fclose(fid);
  if ~isempty(folder)
    rehash();
  end
end
