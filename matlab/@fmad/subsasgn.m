function x = subsasgn(x, s, rhs)
%SUBSASGN  Indexed assignment x(i,...) = rhs with fmad objects.
%   The left side may be a double (MATLAB dispatches here when the right side
%   is an fmad object): it becomes an fmad object with zero derivatives.
%   x(i) = [] deletes elements.
  if ~strcmp(s(1).type, '()')
    error('fmad:badIndex', 'fmad: ''%s'' assignment is not supported', s(1).type);
  end
  subs = s(1).subs;
  if numel(s) > 1
    rhs = subsasgn(subsref(x, s(1)), s(2:end), rhs);
  end
  [rv, rd, rhs_active] = parts(rhs);
  if ~rhs_active && isobject(rhs)
    error('fmad:badInput', 'fmad: cannot assign a %s object into an fmad array', class(rhs));
  end
  if ~isa(x, 'fmad')
    x = with_parts(rhs, x, zeros(numel(x), 0));
  end
  if size(x.derivs, 2) == 0 && rhs_active
    % A constant with no directions yet (a promoted double) adopts them.
    x.derivs = zero_derivs(numel(x.value), size(rd, 2), rd);
  end
  nd = size(x.derivs, 2);
  if rhs_active && size(rd, 2) ~= nd
    error('fmad:badInput', 'fmad: assigning %d directions into an object with %d', ...
          size(rd, 2), nd);
  end
  old_size = size(x.value);
  deleting = ~rhs_active && isempty(rhs) && isa(rhs, 'double') && all(size(rhs) == 0);
  if deleting
    x.value = remove_elements(x.value, subs);
  else
    x.value = put(x.value, rv, subs{:});
  end
  if ~deleting && numel(x.value) == prod(old_size)   % growth adds elements
    rows = linear_rows(old_size, subs);
    x.derivs = put(x.derivs, rhs_rows(rd, rhs_active, numel(rv), numel(rows)), rows, ':');
  else
    % Growth or deletion moves elements: track every position through the
    % same assignment applied to an index array.
    map = reshape(1:prod(old_size), old_size);
    if deleting
      map(subs{:}) = [];
    elseif rhs_active
      map(subs{:}) = -reshape(1:numel(rv), size(rv));
    else
      map(subs{:}) = 0;
    end
    x.derivs = rows_from_map(map, x.derivs, rd, nd);
  end
end

function d = rhs_rows(rd, rhs_active, rhs_count, target_count)
  % Derivative rows written by the assignment (a scalar right side fills
  % every target).
  if ~rhs_active
    d = 0;
  elseif rhs_count == 1 && target_count ~= 1
    d = take(rd, ones(target_count, 1), ':');
  else
    d = rd;
  end
end
