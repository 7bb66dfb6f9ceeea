classdef A < handle
 properties
  x = 1;
 end
 methods
  function f(o)
  end
 end
end
