function expect_error(call, identifier, message_part)
% EXPECT_ERROR  Throw unless call() raises an error whose identifier starts with identifier ('' for
%   any) and whose message contains message_part.
  try
    call();
  catch err
    assert(isempty(identifier) || strncmp(err.identifier, identifier, numel(identifier)), 'identifier %s, expected %s (%s)', ...
           err.identifier, identifier, err.message);
    assert(~isempty(strfind(err.message, message_part)), 'message "%s" lacks "%s"', err.message, message_part);
    return;
  end
  error('test:noError', 'expected an error %s', identifier);
end
