function blocks = readme_blocks(file)
% README_BLOCKS  The code of every ```matlab fenced block of a Markdown file, in order.
%   blocks is a struct array with fields code (the block's text) and line (where it starts).
  lines = strsplit(fileread(file), "\n");
  blocks = struct('code', {}, 'line', {});
  first = 0;
  for k = 1:numel(lines)
    line = strtrim(lines{k});
    if first == 0 && strcmp(line, '```matlab')
      first = k + 1;
    elseif first > 0 && strcmp(line, '```')
      blocks(end + 1) = struct('code', strjoin(lines(first:k - 1), "\n"), 'line', first); %#ok<AGROW>
      first = 0;
    end
  end
  assert(first == 0, '%s: the ```matlab block at line %d is not closed', file, first - 1);
end
