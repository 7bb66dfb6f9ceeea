hold on
format long
warning off all;
x -1
