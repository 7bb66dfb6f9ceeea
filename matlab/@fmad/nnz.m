function r = nnz(varargin)
%NNZ  Number of nonzero elements of the value of an fmad object.
  args = base_values(varargin);
  r = nnz(args{:});
end
