fu |''''|= 1;
 funo.^notry
 a
ca h===t