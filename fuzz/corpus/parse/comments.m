%{
block
%}
x = 1 + ... continued
 2; % comment
# octave comment
y = "a\tb\n";
