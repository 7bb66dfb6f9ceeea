try
 a
catch err
 b
end_try_catch
unwind_protect
 a
unwind_protect_cleanup
 b
end_unwind_protect
global g
persistent n = 0
