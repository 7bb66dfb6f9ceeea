function test_package()
% `make package`'s tarball installs with pkg into a fresh prefix (its src/Makefile builds the MEX
% with cargo, reusing this checkout's target folder) and msad_eval then works after pkg load msad.
  repoRoot = pwd();
  scratch = tempname();
  mkdir(scratch);
  cleanup = onCleanup(@() remove_folder(scratch));
  [status, output] = system(sprintf('bash scripts/package.sh "%s" 2>&1', scratch));
  assert(status == 0, 'scripts/package.sh failed:\n%s', output);
  tarball = strtrim(output);
  assert(~isempty(regexp(tarball, 'msad-[0-9.]+\.tar\.gz$', 'once')), 'no tarball named: %s', output);
  listing = evalc(sprintf('disp(untar(''%s'', ''%s''))', tarball, fullfile(scratch, 'listing')));
  for required = {'DESCRIPTION', 'INDEX', 'COPYING', 'inst/msad_eval.m', 'inst/msad_odejac.m', 'src/Makefile', 'src/Cargo.toml'}
    assert(~isempty(strfind(listing, required{1})), 'the package lacks %s', required{1});
  end

  % Without cargo, the package's build stops with a message that says what to install.
  crate = fullfile(scratch, 'listing', regexp(tarball, 'msad-[0-9.]+(?=\.tar)', 'match', 'once'), 'src');
  [status, output] = system(sprintf('cd "%s" && env PATH=/usr/bin:/bin HOME="%s" make 2>&1', crate, scratch));
  assert(status ~= 0 && ~isempty(strfind(output, 'msad: cargo was not found: install Rust')), ...
         'make without cargo: status %d, output:\n%s', status, output);

  index = fileread(fullfile('package', 'INDEX'));
  for file = dir(fullfile('matlab', '*.m'))'
    [~, name] = fileparts(file.name);
    assert(~isempty(regexp(index, ['\n ' name '\n'], 'once')), 'package/INDEX does not list %s', name);
  end

  targetDir = getenv('CARGO_TARGET_DIR');
  if isempty(targetDir)
    targetDir = fullfile(repoRoot, 'target');
  end
  prefix = fullfile(scratch, 'prefix');
  % A separate Octave: the installed MEX must not load into this session beside matlab/'s. Both
  % package lists are scratch files: as root, pkg would otherwise record the package globally.
  script = fullfile(scratch, 'install_and_use.m');
  fid = fopen(script, 'w');
  fprintf(fid, '%s\n', ...
    sprintf('pkg prefix ''%s'' ''%s'';', prefix, prefix), ...
    sprintf('pkg local_list ''%s'';', fullfile(scratch, 'local_packages')), ...
    sprintf('pkg global_list ''%s'';', fullfile(scratch, 'global_packages')), ...
    sprintf('pkg install -local ''%s'';', tarball), ...
    'assert(numel(pkg(''list'')), 1);', ...
    'pkg load msad;', ...
    'source = which(''msad_eval'');', ...
    sprintf('assert(strncmp(source, ''%s'', %d), ''msad_eval is %%s'', source);', prefix, numel(prefix)), ...
    '[f, J] = msad_eval(@(x) [x(1)^2 * x(2); sin(x(2))], [3; 0.5]);', ...
    'assert(f, [4.5; sin(0.5)], 1e-15);', ...
    'assert(J, [3, 9; 0, cos(0.5)], 1e-15);', ...
    '[~, g] = feval(msad_fgrad(@(x) sum(x.^3)), [1; 2]);', ...
    'assert(g, [3; 12], 1e-14);', ...
    'disp(''package works'');');
  fclose(fid);
  command = sprintf('CARGO_TARGET_DIR="%s" bash scripts/octave.sh "%s" 2>&1', targetDir, script);
  [status, output] = system(command);
  assert(status == 0 && ~isempty(strfind(output, 'package works')), 'installing the package failed:\n%s', output);
end

function remove_folder(folder)
  confirm_recursive_rmdir(false, 'local');
  rmdir(folder, 's');
end
