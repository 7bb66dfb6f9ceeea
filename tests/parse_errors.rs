//! Malformed inputs and the exact diagnostics they give: `line:col` of the offending token and the message.

use msad::diag::{ErrorKind, SourceFile};
use msad::syntax::parse;

/// (source, "line:col: message")
const CASES: &[(&str, &str)] = &[
    ("x = (1 + 2", "1:11: parse error: expected ')' to close '(' opened at 1:5, found end of input"),
    ("x = [1 2", "1:9: parse error: expected ']' to close '[' opened at 1:5, found end of input"),
    ("x = {1, 2", "1:10: parse error: expected '}' to close '{' opened at 1:5, found end of input"),
    ("y = f(1,", "1:9: parse error: expected an expression, found end of input"),
    ("x = 1 +", "1:8: parse error: expected an expression, found end of input"),
    ("x = * 2", "1:5: parse error: expected an expression, found '*'"),
    ("if x\n y = 1", "2:7: parse error: expected 'end' to close 'if' opened at 1:1, found end of input"),
    ("for i = 1:3\n disp(i)", "2:9: parse error: expected 'end' to close 'for' opened at 1:1, found end of input"),
    ("while true\n x = 1;", "2:8: parse error: expected 'end' to close 'while' opened at 1:1, found end of input"),
    ("switch x\n case 1\n y = 2;", "3:8: parse error: expected 'end' to close 'switch' opened at 1:1, found end of input"),
    ("try\n x = 1;", "2:8: parse error: expected 'end' to close 'try' opened at 1:1, found end of input"),
    ("x = 1)", "1:6: parse error: expected ';', ',' or end of line after the statement, found ')'"),
    ("x = ]", "1:5: parse error: expected an expression, found ']'"),
    ("end", "1:1: parse error: expected a statement, found 'end'"),
    ("x = 'abc", "1:5: parse error: string is not terminated before the end of the line"),
    ("x = \"abc", "1:5: parse error: string is not terminated before the end of the line"),
    ("x = 1 2", "1:7: parse error: expected ';', ',' or end of line after the statement, found number '2'"),
    ("function y = f(x\ny = x;", "2:1: parse error: expected ')' to close '(' opened at 1:15, found identifier 'y'"),
    ("function [a, b = f(x)\nend", "1:16: parse error: expected an output name or ']' to close '[' opened at 1:10, found '='"),
    ("function = f(x)\nend", "1:10: parse error: expected a function name, found '='"),
    ("1 = x", "1:1: parse error: expected an assignment target (a name, possibly indexed), found an expression"),
    ("f(x) + 1 = 2", "1:1: parse error: expected an assignment target (a name, possibly indexed), found an expression"),
    ("x = a.", "1:7: parse error: expected a field name or '(' after '.', found end of input"),
    ("x = a.1", "1:6: parse error: expected ';', ',' or end of line after the statement, found number '.1'"),
    ("x = @", "1:6: parse error: expected a function name or '(' after '@', found end of input"),
    ("x = @(a, 1) a", "1:10: parse error: expected a parameter name, found number '1'"),
    ("x = $", "1:5: parse error: unexpected character '$'"),
    ("%{\nnever closed", "1:1: parse error: block comment opened here is never closed"),
    ("if x\n y = 1;\nendwhile", "3:1: parse error: expected 'end' to close 'if' opened at 1:1, found 'endwhile'"),
    ("for = 3", "1:5: parse error: expected an expression, found '='"),
    ("global", "1:7: parse error: expected a variable name, found end of input"),
    ("[a, 1] = f()", "1:5: parse error: expected an assignment target or ']' to close '[' opened at 1:1, found number '1'"),
    ("x = [1, , 2]", "1:9: parse error: expected an expression, found ','"),
    ("x = 2pi", "1:6: parse error: expected ';', ',' or end of line after the statement, found identifier 'pi'"),
    ("do\n x = 1;\nend", "3:1: parse error: expected 'until' to close 'do' opened at 1:1, found 'end'"),
    ("unwind_protect\n x = 1;\nend", "3:1: parse error: expected 'unwind_protect_cleanup' for 'unwind_protect' opened at 1:1, found 'end'"),
    ("case 1", "1:1: parse error: expected a statement, found 'case'"),
    ("x = a(:", "1:8: parse error: expected ')' to close '(' opened at 1:6, found end of input"),
    (
        "function f\n  if x\n  end\nend\nfunction g\n",
        "6:1: parse error: expected 'end' to close 'function' opened at 5:1, found end of input",
    ),
    ("s.(x = 1", "1:6: parse error: expected ')' to close '(' opened at 1:3, found '='"),
    ("elseif x", "1:1: parse error: expected a statement, found 'elseif'"),
    ("x = y'z", "1:7: parse error: expected ';', ',' or end of line after the statement, found identifier 'z'"),
    ("x = [1 2; 3 4", "1:14: parse error: expected ']' to close '[' opened at 1:5, found end of input"),
    ("a(1, 2", "1:7: parse error: expected ')' to close '(' opened at 1:2, found end of input"),
    ("c{1", "1:4: parse error: expected '}' to close '{' opened at 1:2, found end of input"),
    ("if x y = 1 end end", "1:16: parse error: expected a statement, found 'end'"),
    ("x = 1 +* 2", "1:8: parse error: expected an expression, found '*'"),
    ("[a, b] = ", "1:10: parse error: expected an expression, found end of input"),
    ("x.('a' = 1", "1:8: parse error: expected ')' to close '(' opened at 1:3, found '='"),
    ("function f(x, y\nend", "2:1: parse error: expected ')' to close '(' opened at 1:11, found 'end'"),
];

#[test]
fn malformed_inputs_give_exact_diagnostics() {
    let mut mismatches = Vec::new();
    for (source, expected) in CASES {
        let file = SourceFile::new("case.m", *source);
        let actual = match parse(&file) {
            Ok(_) => "parsed without error".to_string(),
            Err(error) => {
                assert_eq!(error.kind, ErrorKind::Parse, "{source:?}");
                let (_, line, col) = error.position().expect("parse errors have a position");
                format!("{line}:{col}: {}", error.message)
            }
        };
        if actual != *expected {
            mismatches.push(format!("{source:?}\n  expected {expected}\n  actual   {actual}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
