function examples = help_examples(file)
% HELP_EXAMPLES  The code of every "Example" paragraph in the help text of an .m file.
%   An example is the lines after a help line starting with "Example", indented deeper than it,
%   up to the first line that is not (an empty line ends it too). Returns a cell of code texts.
  lines = strsplit(fileread(file), "\n");
  examples = {};
  k = 1;
  while k <= numel(lines)
    header = regexp(lines{k}, '^%(\s*)Example', 'tokens', 'once');
    k = k + 1;
    if isempty(header)
      continue;
    end
    code = {};
    while k <= numel(lines)
      body = regexp(lines{k}, '^%(\s*)(\S.*)$', 'tokens', 'once');
      if isempty(body) || numel(body{1}) <= numel(header{1})
        break;
      end
      code{end + 1} = body{2}; %#ok<AGROW>
      k = k + 1;
    end
    examples{end + 1} = strjoin(code, "\n"); %#ok<AGROW>
  end
end
