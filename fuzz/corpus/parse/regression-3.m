%-@(x) x.^1 + {
block
%}
x = 1 + ... continueu
 2;ocmme % nt
# octave comment
y [= "a\tb\n";
