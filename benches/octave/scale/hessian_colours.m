function [colours, bound, first] = hessian_colours(fn, x, varargin)
% HESSIAN_COLOURS  A first Hessian call of fn at x (extra arguments after x), timed from a cleared
%   cache, with the colours msad's verbose log reports and the densest row of H's pattern (no column
%   colouring can use fewer colours).
  clear msad_eval;
  tic;
  log = evalc('[~, ~, ~] = msad_eval(fn, x, struct(''verbose'', true), varargin{:});');
  first = toc;
  counts = regexp(log, '(\d+) colours \(row bound (\d+)\)', 'tokens', 'once');
  colours = str2double(counts{1});
  bound = str2double(counts{2});
end
