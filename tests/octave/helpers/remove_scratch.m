function remove_scratch(dir)
% REMOVE_SCRATCH  Takes a test's scratch folder off the path and deletes it with its files.
  rmpath(dir);
  confirm_recursive_rmdir(false, 'local');
  rmdir(dir, 's');
end
