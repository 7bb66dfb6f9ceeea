function r = complex(varargin) %#ok<STOUT>
%COMPLEX  Not supported on fmad objects: fmad differentiates real values.
  unsupported('complex', 'fmad has no rules for complex values built from active ones');
end
