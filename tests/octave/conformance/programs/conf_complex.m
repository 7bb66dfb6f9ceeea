function y = conf_complex(x)
% conformance: complex scalar negscalar row mat special
% Complex arrays built by assignment (growth, deletion, real values into complex arrays), loops over
% their columns, products and reductions, and what narrows back to real.
  z = sqrt(x(:) - 1);
  z(end + 2) = 2i;
  w = zeros(size(z));
  for k = 1:numel(z)
    w(k) = z(k) * conj(z(k)) + 1i * k;
  end
  w(1) = [];
  total = 0;
  for c = [w(:).'; 1:numel(w)]
    total = total + c(1) * c(2);
  end
  r = w - 1i * imag(w);
  y = [total; sum(abs(w)); prod(w(1:min(3, end))); numel(r); isreal(r); iscomplex(w); real(r(:)); ...
       max(w); min([w; -w]); mean(w .^ 2)];
end
