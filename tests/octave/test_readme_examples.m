function test_readme_examples()
% Every ```matlab block of README.md runs as written (each in a fresh workspace, in a scratch
% folder), and its asserts hold.
  blocks = readme_blocks('README.md');
  assert(numel(blocks) >= 12, 'README.md has only %d matlab blocks', numel(blocks));
  optimMissing = isempty(pkg('list', 'optim'));
  for block = blocks
    if optimMissing && ~isempty(strfind(block.code, 'pkg load optim'))
      printf('  skipped the README block at line %d: the optim package is not installed\n', block.line);
      continue;
    end
    run_snippet(block.code, sprintf('README.md, the block at line %d', block.line));
  end
end
