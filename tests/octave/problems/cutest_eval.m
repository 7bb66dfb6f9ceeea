function fgH = cutest_eval(pname, fname, x, eldom, nout)
% CUTEST_EVAL  The objective of a CUTEst-style problem in the element-function layout (as S2MPJ
% writes them): the sum over elements of the element function FNAME, which the problem PNAME (a
% handle to itself) computes from the element's variables x(eldom{iel}); the result is a cell of
% NOUT outputs, the value first.
f = 0;
for iel = 1:length(eldom)
  f = f + feval(pname, fname, iel, x(eldom{iel}));
end
fgH = cell(nout, 1);
fgH{1} = f;
end
