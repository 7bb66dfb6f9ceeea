function test_help_examples()
% Every "Example" in the help of matlab/*.m runs as written, and every name after "See also"
% exists (a function, or a file the help names).
  files = dir(fullfile('matlab', '*.m'));
  examples = 0;
  for file = files'
    path = fullfile('matlab', file.name);
    for code = help_examples(path)
      run_snippet(code{1}, sprintf('the example in help %s', file.name));
      examples = examples + 1;
    end
    check_see_also(path);
  end
  assert(examples >= 10, 'only %d help examples found', examples);
end

function check_see_also(path)
  text = fileread(path);
  for names = regexp(text, 'See also ([^\n]*)', 'tokens')
    for name = regexp(strrep(names{1}{1}, '.', ''), '[\w@/]+', 'match')
      inRepository = any(cellfun(@(folder) exist(fullfile('matlab', folder, [name{1} '.m']), 'file'), {'', 'examples', '@fmad'}));
      assert(exist(name{1}) > 0 || inRepository, ...
             '%s: "See also %s" names nothing', path, name{1});
    end
  end
  for file = regexp(text, '(examples/\w+\.m)', 'tokens')
    assert(exist(file{1}{1}, 'file') > 0 || exist(fullfile('matlab', file{1}{1}), 'file') > 0, ...
           '%s names %s, which does not exist', path, file{1}{1});
  end
end
