function yi = __pp_eval__(breaks, coefs, xi)
% __PP_EVAL__  Values at xi of the piecewise polynomial with these breaks and coefficients (one row
%   per piece, highest power first, in powers of x - breaks(piece)), written for msad: the piece is
%   chosen by comparisons (constant between breaks) and the value is Horner's scheme, so derivatives
%   flow to the coefficients and to xi. Points outside the breaks take the end pieces.
  inner = breaks(2:end - 1);
  q = xi(:);
  piece = sum(q >= inner(:).', 2) + 1;
  % NaN points take the last piece, where Octave's lookup places them.
  piece(isnan(q)) = numel(breaks) - 1;
  starts = breaks(piece);
  dx = q - starts(:);
  yi = coefs(piece, 1);
  for k = 2:size(coefs, 2)
    yi = yi .* dx + coefs(piece, k);
  end
  yi = reshape(yi, size(xi));
end
