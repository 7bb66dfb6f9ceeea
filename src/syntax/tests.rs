//! Lexing and parsing rules, checked through the canonical printed form (which brackets by precedence, so it
//! shows the tree's structure) or the tree itself.

use super::ast::*;
use super::printer::print_file;
use super::{parse, without_spans};
use crate::diag::SourceFile;

fn parse_text(text: &str) -> File {
    parse(&SourceFile::new("test.m", text)).unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"))
}

/// The canonical text of a script, without the final newline.
fn canon(text: &str) -> String {
    print_file(&parse_text(text)).trim_end().to_string()
}

fn single_stmt(text: &str) -> StmtKind {
    let file = parse_text(text);
    assert_eq!(file.body.len(), 1, "{text:?}");
    file.body[0].kind.clone()
}

#[test]
fn quote_is_transpose_after_operands_and_string_elsewhere() {
    assert_eq!(canon("a'"), "a'");
    assert_eq!(canon("a.'"), "a.'");
    assert_eq!(canon("x = 'str'"), "x = 'str'");
    assert_eq!(canon("x = a' * b'"), "x = a' * b'");
    assert_eq!(canon("[a' b']"), "[a', b']");
    assert_eq!(canon("[a 'b']"), "[a, 'b']");
    assert_eq!(canon("x = a(1)' + [1 2]' + {3}'"), "x = a(1)' + [1, 2]' + {3}'");
    assert_eq!(canon("x = 2'"), "x = 2'");
    assert_eq!(canon("x = ('a')'"), "x = ('a')'");
    assert_eq!(canon("x = a'';"), "x = a'';");
    assert_eq!(canon("x = 'it''s'"), "x = 'it''s'");
    assert_eq!(canon("disp('a', 'b')"), "disp('a', 'b')");
    assert_eq!(canon("x = a ';"), "x = a';");
}

#[test]
fn whitespace_inside_brackets_separates_elements() {
    assert_eq!(canon("[1 -2]"), "[1, -2]");
    assert_eq!(canon("[1 - 2]"), "[1 - 2]");
    assert_eq!(canon("[1 -  2]"), "[1 - 2]");
    assert_eq!(canon("[1 +2]"), "[1, +2]");
    assert_eq!(canon("[a (1)]"), "[a, 1]");
    assert_eq!(canon("[f(1)]"), "[f(1)]");
    assert_eq!(canon("[a ~b]"), "[a, ~b]");
    assert_eq!(canon("[a ~= b]"), "[a ~= b]");
    assert_eq!(canon("[a == b]"), "[a == b]");
    assert_eq!(canon("[1 .5]"), "[1, 0.5]");
    assert_eq!(canon("[a @sin]"), "[a, @sin]");
    assert_eq!(canon("[a{1} b]"), "[a{1}, b]");
    assert_eq!(canon("{a {1}}"), "{a, {1}}");
    assert_eq!(canon("[f(1, 2) 3]"), "[f(1, 2), 3]");
    assert_eq!(canon("[c{f (1)}]"), "[c{f(1)}]");
}

#[test]
fn rows_are_separated_by_semicolons_and_newlines() {
    assert_eq!(canon("[1 2; 3 4]"), "[1, 2; 3, 4]");
    assert_eq!(canon("[1 2\n3 4]"), "[1, 2; 3, 4]");
    assert_eq!(canon("[1 2 % comment\n 3 4\n]"), "[1, 2; 3, 4]");
    assert_eq!(canon("[1, 2, ...\n 3]"), "[1, 2, 3]");
    assert_eq!(canon("[1 ...\n 2]"), "[1, 2]");
    assert_eq!(canon("[\n1\n\n2;\n]"), "[1; 2]");
    assert_eq!(canon("x = []"), "x = []");
    assert_eq!(canon("x = {}"), "x = {}");
}

#[test]
fn anonymous_function_bodies_ignore_whitespace_in_brackets() {
    assert_eq!(canon("{@(x) x +1, 2}"), "{@(x) x + 1, 2}");
    assert_eq!(canon("f = @(x) x.^2 + p"), "f = @(x) x.^2 + p");
    assert_eq!(canon("@(x) x.^2 + p"), "@(x) x.^2 + p");
    assert_eq!(canon("cellfun(@(c) c(1), x)"), "cellfun(@(c) c(1), x)");
    assert_eq!(canon("g = @() disp('hi');"), "g = @() disp('hi');");
    assert_eq!(canon("h = @(~, y) y;"), "h = @(~, y) y;");
    assert_eq!(canon("y = (@() p) - q"), "y = (@() p) - q");
    assert_eq!(canon("y = a - (@() p - q)"), "y = a - @() p - q");
}

#[test]
fn anonymous_function_text_is_one_expression_statement() {
    let file = parse_text("@(x) x.^2 + p");
    assert_eq!(file.kind, FileKind::Script);
    assert!(matches!(&file.body[..], [Stmt { kind: StmtKind::Expr(Expr { kind: ExprKind::AnonFn { .. }, .. }), .. }]));
}

#[test]
fn operator_precedence_follows_matlab() {
    assert_eq!(canon("-2^2"), "-2^2");
    assert_eq!(canon("(-2)^2"), "(-2)^2");
    assert_eq!(canon("2^-1"), "2^-1");
    assert_eq!(canon("2^-2^2"), canon("(2^-2)^2"));
    assert_eq!(canon("2^(-2^2)"), "2^(-2^2)");
    assert_eq!(canon("2^3^2"), "2^3^2");
    assert_eq!(canon("a^b'"), "a^b'");
    // Transposes and powers share one level, left to right.
    assert_eq!(canon("a^b'"), canon("(a^b)'"));
    assert_eq!(canon("a.^b.'"), canon("(a.^b).'"));
    assert_eq!(canon("a^(b')"), "a^(b')");
    assert_eq!(canon("2^-x'"), canon("(2^-x)'"));
    assert_eq!(canon("2^-(x')"), "2^(-x')");
    assert_eq!(canon("a^b'^c"), canon("((a^b)')^c"));
    assert_eq!(canon("-a'"), "-a'");
    assert_eq!(canon("a || b && c | d & e == f"), "a || b && c | d & e == f");
    assert_eq!(canon("(a || b) && c"), "(a || b) && c");
    assert_eq!(canon("a:b+1:c"), "a:b + 1:c");
    assert_eq!(canon("(a:b):c"), "(a:b):c");
    assert_eq!(canon("a < b:c"), "a < b:c");
    assert_eq!(canon("~a == b"), "~a == b");
    assert_eq!(canon("!a != b"), "~a ~= b");
    assert_eq!(canon("a - b - c"), "a - b - c");
    assert_eq!(canon("a - (b - c)"), "a - (b - c)");
    assert_eq!(canon("a .* b ./ c .\\ d \\ e"), "a .* b ./ c .\\ d \\ e");
    assert_eq!(canon("a ** b .** c"), "a^b.^c");
    assert_eq!(canon("a--b"), "a - -b");
    assert_eq!(canon("-(-a)"), "- -a");
    assert_eq!(canon("[a - - -b]"), "[a - - -b]");
}

#[test]
fn numbers() {
    assert_eq!(
        canon("x = [1e3 1d3 1E-3 .5 1.5 0x1F 0b101 20_000 3i 2.5j 1e3i]"),
        "x = [1000, 1000, 0.001, 0.5, 1.5, 31, 5, 20000, 3i, 2.5i, 1000i]"
    );
    assert_eq!(canon("x = 1./y"), "x = 1 ./ y");
    assert_eq!(canon("x = 1.'"), "x = 1.'");
    assert_eq!(canon("x = (2).a"), "x = 2 .a");
    assert_eq!(canon("x = 1e999"), "x = 1e999");
}

#[test]
fn comments_and_continuations() {
    assert_eq!(canon("x = 1 % comment\ny = 2 # comment"), "x = 1\ny = 2");
    assert_eq!(canon("%{\nx = 1\n%}\ny = 2"), "y = 2");
    assert_eq!(canon("%{\n%{\nnested\n%}\nx = 1\n%}\ny = 2"), "y = 2");
    assert_eq!(canon("x = 1 %{ not a block\ny = 2"), "x = 1\ny = 2");
    assert_eq!(canon("x = 1 + ... comment\n 2"), "x = 1 + 2");
    assert_eq!(canon("x = 1 + \\\n 2"), "x = 1 + 2");
    assert_eq!(canon("x = f(1,\n 2)"), "x = f(1, 2)");
    assert_eq!(canon("\u{feff}x = 1"), "x = 1");
}

#[test]
fn double_quoted_strings_process_escapes() {
    let StmtKind::Expr(Expr { kind: ExprKind::Str { value, double_quoted: true }, .. }) = single_stmt(r#""a\tb\n\"q\" ""x"" \101\x41\\""#)
    else {
        panic!("not a string")
    };
    assert_eq!(value, "a\tb\n\"q\" \"x\" AA\\");
    assert_eq!(canon("x = \"a\\\nb\""), "x = \"ab\"");
}

#[test]
fn command_syntax() {
    let command = |text: &str| match single_stmt(text) {
        StmtKind::Command { name, args } => Some((name.name, args)),
        _ => None,
    };
    let words = |name: &str, args: &[&str]| Some((name.to_string(), args.iter().map(|a| a.to_string()).collect()));
    assert_eq!(command("hold on"), words("hold", &["on"]));
    assert_eq!(command("format long"), words("format", &["long"]));
    assert_eq!(command("warning off all;"), words("warning", &["off", "all"]));
    assert_eq!(command("disp 'a b'"), words("disp", &["a b"]));
    assert_eq!(command("pkg load statistics % comment"), words("pkg", &["load", "statistics"]));
    assert_eq!(command("x -1"), words("x", &["-1"]));
    assert_eq!(command("a - 1"), None);
    assert_eq!(command("a = 1"), None);
    assert_eq!(command("a == 1"), None);
    assert_eq!(command("disp (x)"), None);
    assert_eq!(command("x += 1"), None);
    assert_eq!(command("vals {end} = 1"), None);
    assert_eq!(command("hold"), None);
    assert_eq!(canon("if x, hold on, end"), "if x\n  hold on\nend");
}

#[test]
fn indexing_end_colon_fields() {
    assert_eq!(canon("a(end, :)"), "a(end, :)");
    assert_eq!(canon("a(end - 1)"), "a(end - 1)");
    assert_eq!(canon("c{end}{:}"), "c{end}{:}");
    assert_eq!(canon("s.a(2).c"), "s.a(2).c");
    assert_eq!(canon("s.(n)"), "s.(n)");
    assert_eq!(canon("s.end"), "s.end");
    assert_eq!(canon("(end) > 0"), "(end) > 0");
    assert_eq!(canon("x = a(:)'"), "x = a(:)'");
    let StmtKind::Expr(expr) = single_stmt("a(1, :)") else { panic!() };
    let ExprKind::Call { base, args } = expr.kind else { panic!("not a call") };
    assert_eq!(base.kind, ExprKind::Ident("a".into()));
    assert_eq!(args[1].kind, ExprKind::Colon);
}

#[test]
fn assignments() {
    assert_eq!(canon("[a, ~] = f()"), "[a, ~] = f()");
    assert_eq!(canon("[a ~] = f()"), "[a, ~] = f()");
    assert_eq!(canon("[~ b] = f()"), "[~, b] = f()");
    assert_eq!(canon("s.a{2}(3).b = 1;"), "s.a{2}(3).b = 1;");
    assert_eq!(canon("x += 1; y .*= 2; z |= w"), "x += 1;\ny .*= 2;\nz |= w");
    assert_eq!(canon("x++; y--"), "x += 1;\ny -= 1");
    assert_eq!(canon("++x"), "x += 1");
    assert_eq!(canon("a = b = 1;"), "b = 1;\na = b;");
    assert_eq!(canon("y = c{k++}"), "y = c{k++}");
    assert_eq!(canon("if (x = f()) end"), "if (x = f())\nend");
    let StmtKind::Assign { targets, .. } = single_stmt("x(1, :) = 2") else { panic!() };
    let [LValue::Var { name, accessors, .. }] = &targets[..] else { panic!() };
    assert_eq!(name.name, "x");
    assert!(matches!(&accessors[..], [Accessor::Paren(args, _)] if args.len() == 2));
}

#[test]
fn statements_and_end_spellings() {
    let text = "if a\n x\nelseif b\n y\nelse\n z\nendif\nwhile c, d; endwhile\nfor i = 1:n end\n\
                parfor (i = 1:n, 4)\n x\nendparfor\ndo\n x++;\nuntil x > 3\nswitch s\n case {1, 2}\n a\n \
                case 'x'\n b\n otherwise\n c\nendswitch\ntry\n a\ncatch err\n b\nend_try_catch\n\
                unwind_protect\n a\nunwind_protect_cleanup\n b\nend_unwind_protect\nglobal g h\npersistent n = 0\n\
                for k = 1:3, if k, break, else, continue, end, end, return";
    let expected = "if a\n  x\nelseif b\n  y\nelse\n  z\nend\nwhile c\n  d;\nend\nfor i = 1:n\nend\n\
                    parfor i = 1:n\n  x\nend\ndo\n  x += 1;\nuntil x > 3\nswitch s\n  case {1, 2}\n    a\n  \
                    case 'x'\n    b\n  otherwise\n    c\nend\ntry\n  a\ncatch err\n  b\nend\n\
                    unwind_protect\n  a\nunwind_protect_cleanup\n  b\nend_unwind_protect\nglobal g h\n\
                    persistent n = 0\nfor k = 1:3\n  if k\n    break\n  else\n    continue\n  end\nend\nreturn";
    assert_eq!(canon(text), expected);
    assert_eq!(canon("try, a, catch, b, end"), "try\n  a\ncatch\n  b\nend");
    assert_eq!(canon("try\n a\ncatch\n err\nend"), "try\n  a\ncatch\n  err\nend");
    assert_eq!(canon("for [v, k] = s\n x\nend"), "for [v, k] = s\n  x\nend");
}

#[test]
fn function_files() {
    let file = parse_text("function y = f(x)\n y = g(x);\nfunction z = g(x)\n z = x;\n");
    assert_eq!(file.kind, FileKind::Function);
    let names: Vec<&str> = file.functions.iter().map(|f| f.name.name.as_str()).collect();
    assert_eq!(names, ["f", "g"]);

    let file = parse_text("function f\n x = 1;\n function g\n  x = 2;\n end\n g();\nend\nfunction h\nend\n");
    assert_eq!(file.functions.len(), 2);
    assert_eq!(file.functions[0].nested.len(), 1);
    assert_eq!(file.functions[0].body.len(), 2);

    let file = parse_text("function [a, b] = f(x, ~, varargin)\nendfunction");
    let function = &file.functions[0];
    assert_eq!(function.outputs.len(), 2);
    assert!(matches!(function.inputs[..], [Param::Name(_), Param::Ignored(_), Param::Name(_)]));

    assert_eq!(canon("function f(x, opt = 2)\nend"), "function f(x, opt)\n  if nargin < 2\n    opt = 2;\n  end\nend");
}

#[test]
fn scripts_with_local_functions() {
    let file = parse_text("1;\nfunction f\n disp(1)\nendfunction\nf()");
    assert_eq!(file.kind, FileKind::Script);
    assert_eq!(file.body.len(), 2);
    assert_eq!(file.functions.len(), 1);
}

#[test]
fn classdef_files_are_recognised() {
    let file = parse_text("classdef A < handle\n properties\n x = 1;\n end\n methods\n function f(o)\n end\n end\nend");
    assert_eq!(file.kind, FileKind::Classdef);
}

#[test]
fn display_flag_follows_semicolons() {
    let file = parse_text("x = 1\ny = 2;\nz = 3, w = 4;");
    let display: Vec<bool> = file.body.iter().map(|s| s.display).collect();
    assert_eq!(display, [true, false, true, false]);
}

#[test]
fn deep_nesting_is_a_parse_error_not_a_crash() {
    for text in [
        format!("x = {}1{}", "(".repeat(100_000), ")".repeat(100_000)),
        format!("x = {}1", "-".repeat(100_000)),
        format!("x = {}1", "[".repeat(100_000)),
        format!("x = 1{}", "+1".repeat(100_000)),
        format!("x = a{}", "'".repeat(100_000)),
        format!("{}x = 1", "if 1\n".repeat(100_000)),
        format!("x = {}", "@() ".repeat(100_000)),
        format!("x = 2{}", "^-2".repeat(100_000)),
        format!("x = a.^1{}", ".'".repeat(100_000)),
        format!("x = a.^1{}", ".'".repeat(12_500)),
    ] {
        let error = parse(&SourceFile::new("deep.m", text)).expect_err("too deep");
        assert!(error.message.contains("nested more than"), "{}", error.message);
    }
}

#[test]
fn trees_at_the_depth_limit_print_and_compare() {
    let file = parse_text(&format!("x = 1{}", "+1".repeat(1900)));
    let printed = print_file(&file);
    assert_eq!(without_spans(&parse_text(&printed)), without_spans(&file));
    let nested = parse_text(&format!("x = {}1{}", "(".repeat(90), ")".repeat(90)));
    assert_eq!(canon(&print_file(&nested)), "x = 1");
}

#[test]
fn span_erasure_keeps_structure() {
    assert_eq!(without_spans(&parse_text("x = 1")), without_spans(&parse_text("x   =  1")));
    assert_ne!(without_spans(&parse_text("x = 1")), without_spans(&parse_text("x = 2")));
}
