function J = MADuncompressJac(compressed, pattern, colours)
%MADUNCOMPRESSJAC  Sparse Jacobian from a compressed one.
%   J = MADUNCOMPRESSJAC(JC, PATTERN, COLOURS) with JC = J * MADgetseed(PATTERN,
%   COLOURS) (getinternalderivs of an fmad result seeded with that matrix)
%   returns the sparse m x n Jacobian: J(i,j) = JC(i, COLOURS(j)) for each
%   entry (i,j) of PATTERN. A nonzero of JC in a row and colour where the
%   pattern has no entry means the pattern missed an entry: this warns
%   (identifier MADuncompressJac:patternMismatch).
%
%   This msad helper completes MADcolor/MADgetseed (MAD's compressed mode).
%
%   See also MADcolor, MADgetseed, fmad, getinternalderivs.
  [m, n] = size(pattern);
  if size(compressed, 1) ~= m || numel(colours) ~= n
    error('MADuncompressJac:badInput', ...
          'MADuncompressJac: a %dx%d compressed Jacobian for a %dx%d pattern with %d colours', ...
          size(compressed, 1), size(compressed, 2), m, n, numel(colours));
  end
  [rows, cols] = find(pattern);
  position = rows + m * (reshape(colours(cols), [], 1) - 1);   % in the compressed matrix
  J = sparse(rows, cols, full(compressed(position)), m, n);
  outside = compressed;
  outside(position) = 0;
  if any(outside(:))
    warning('MADuncompressJac:patternMismatch', ...
            'MADuncompressJac: the compressed Jacobian has entries outside the pattern');
  end
end
