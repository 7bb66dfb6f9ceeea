//! Text form of the IR, for `msad ir` and debugging.

use super::{Function, Op, Program, Terminator};
use crate::primitives;
use std::fmt;

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "function [{}] = {}({})  % {}", self.outputs.join(", "), self.name, self.params.join(", "), self.file.path.display())?;
        for id in self.reverse_postorder() {
            let b = self.block(id);
            let preds: Vec<String> = b.preds.iter().map(|p| format!("b{}", p.0)).collect();
            writeln!(f, "b{}:{}", id.0, if preds.is_empty() { String::new() } else { format!("  % preds {}", preds.join(" ")) })?;
            for phi in &b.phis {
                let inc: Vec<String> = phi.incoming.iter().map(|(p, v)| format!("b{}: v{}", p.0, v.0)).collect();
                writeln!(f, "  v{} = phi [{}]  % {}", phi.dest.0, inc.join(", "), phi.var)?;
            }
            for inst in &b.insts {
                let dests: Vec<String> = inst.dests.iter().map(|d| format!("v{}", d.0)).collect();
                let args: Vec<String> = inst.args.iter().map(|a| format!("v{}", a.0)).collect();
                let op = match &inst.op {
                    Op::Const(v) if v.numel() == 1 => match v.numeric() {
                        Some(a) => format!("const {}", a.data[0]),
                        None => format!("const {}", v.class_name()),
                    },
                    Op::Const(v) => format!("const {} {:?}", v.class_name(), v.dims()),
                    Op::Param(i) => format!("param {i}"),
                    Op::Undefined(n) => format!("undefined '{n}'"),
                    Op::MagicColon => "colon-marker".into(),
                    Op::Prim(p) => primitives::get(*p).name().to_string(),
                    Op::Call(c) => format!("call f{}", c.index()),
                    Op::MakeHandle { text, .. } => format!("handle {text}"),
                    Op::Apply(h) => h.name().to_string(),
                    Op::Index => "index".into(),
                    Op::IndexAssign => "index-assign".into(),
                    Op::End { position, count } => format!("end[{position}/{count}]"),
                    Op::Field { name, .. } => format!("field .{name}"),
                    Op::FieldAssign(name) => format!("field-assign .{name}"),
                    Op::CellIndex { .. } => "cell-index".into(),
                    Op::CellAssign => "cell-assign".into(),
                    Op::Element => "element".into(),
                    Op::ElementAssign => "element-assign".into(),
                    Op::CellLiteral { widths } => format!("cell-literal[{} rows]", widths.len()),
                    Op::Fail(d) => format!("fail '{}'", d.message),
                    Op::Nargin => "nargin".into(),
                    Op::Nargout => "nargout".into(),
                    Op::CaughtError => "caught-error".into(),
                    Op::Warning => "warning".into(),
                    Op::Output(output) => output.name().into(),
                    Op::DeclareShared(var) => format!("declare {}", var.name()),
                    Op::LoadShared(var) => format!("load {}", var.name()),
                    Op::StoreShared(var) => format!("store {}", var.name()),
                    Op::LastError => "lasterr".into(),
                    Op::Timer(timer) => format!("{timer:?}").to_lowercase(),
                    Op::LastWarning => "lastwarn".into(),
                    Op::TargetCount { field } => format!("target-count[field={field}]"),
                    Op::Outputs(inner) => format!("outputs {inner:?}"),
                    Op::ListPart { cell } => format!("list-part[cell={cell}]"),
                    Op::ListAssign { field } => format!("list-assign {field:?}"),
                };
                let lhs = if dests.is_empty() { String::new() } else { format!("{} = ", dests.join(", ")) };
                let args = if args.is_empty() { String::new() } else { format!("({})", args.join(", ")) };
                writeln!(f, "  {lhs}{op}{args}")?;
            }
            if let Some(h) = b.handler {
                writeln!(f, "  % on error: b{}", h.0)?;
            }
            match &b.term {
                Terminator::Jump(t) => writeln!(f, "  jump b{}", t.0)?,
                Terminator::Branch { cond, then_block, else_block } => {
                    writeln!(f, "  branch v{} ? b{} : b{}", cond.0, then_block.0, else_block.0)?
                }
                Terminator::Return(vs) => {
                    let vs: Vec<String> = vs.iter().map(|v| format!("v{}", v.0)).collect();
                    writeln!(f, "  return {}", vs.join(", "))?
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, func) in self.functions.iter().enumerate() {
            writeln!(f, "% f{i}")?;
            write!(f, "{func}")?;
        }
        Ok(())
    }
}
