function f
 x = 1;
 function g
  x = 2;
 end
end
function h(a, b = 2)
end
