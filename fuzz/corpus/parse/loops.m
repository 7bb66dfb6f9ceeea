for i = 1:n
  while x, x--; end
  do x++; until x > 3
end
switch s
 case {1, 2}
  a
 otherwise
  b
end
