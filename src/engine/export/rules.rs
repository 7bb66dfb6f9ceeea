//! How the exported code differentiates each primitive it can write: Octave text, since the exported
//! file runs without msad. A primitive with no rule here is refused by `msad_export` when a
//! differentiated value reaches it (msad_eval itself still differentiates it).

use crate::primitives::{self, Prim, Primitive};
use crate::syntax::ast::BinOp;

/// The exported derivative of one primitive call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum ExportRule {
    /// The result carries no derivative (sizes, comparisons, rounding, constructors).
    Zero,
    /// Elementwise in its one argument: `d_y = slope .* d_a`, the slope written with `A` for the
    /// argument and `Y` for the result.
    Slope(&'static str),
    /// The same as the operator.
    Operator(BinOp),
    /// Elementwise in two arguments: the partials `dy/da` and `dy/db`, written with `A`, `B` and `Y`.
    Partials(&'static str, &'static str),
    /// Moves or copies elements of its first argument (the others are sizes, counts or dimensions):
    /// the same call on the argument's index map says where each result element comes from.
    Structural,
    /// Concatenation of all its arguments (`cat` after its dimension argument).
    Concatenation { skip: usize },
    /// A helper of the exported file's runtime: `d_y = helper(y, a, d_a, rest...)`, only the first
    /// argument differentiated.
    Helper(&'static str),
    /// `helper(a, d_a, b, d_b)`: both arguments may be differentiated.
    PairHelper(&'static str),
    /// `[y, i] = max(a)`: the derivative of the element each result picks.
    Extremum,
}

/// The exported rule of `prim`, or `None` where msad_export has none yet.
pub(super) fn rule(primitive: &Primitive) -> Option<ExportRule> {
    use ExportRule::*;
    // Rules first: `imag` and `angle` have zero derivatives on real values but not on complex ones.
    Some(match primitive.prim {
        Prim::Uminus => Slope("-ones(size(A))"),
        Prim::Uplus | Prim::Double | Prim::Full => Slope("ones(size(A))"),
        // Through complex intermediates the derivative of a part is that part of the derivative.
        Prim::Real => Helper("msad_real"),
        Prim::Conj => Helper("msad_conj"),
        Prim::Imag => Helper("msad_imag"),
        Prim::Angle | Prim::Arg => Helper("msad_angle"),
        Prim::Sin => Slope("cos(A)"),
        Prim::Cos => Slope("-sin(A)"),
        Prim::Tan => Slope("1 + Y.^2"),
        Prim::Sec => Slope("Y .* tan(A)"),
        Prim::Csc => Slope("-Y ./ tan(A)"),
        Prim::Cot => Slope("-(1 + Y.^2)"),
        Prim::Exp => Slope("Y"),
        Prim::Expm1 => Slope("Y + 1"),
        Prim::Log => Slope("1 ./ A"),
        Prim::Log2 => Slope("1 ./ (A * log(2))"),
        Prim::Log10 => Slope("1 ./ (A * log(10))"),
        Prim::Log1p => Slope("1 ./ (1 + A)"),
        Prim::Sqrt => Slope("0.5 ./ Y"),
        Prim::Cbrt => Slope("1 ./ (3 * Y.^2)"),
        Prim::Abs => Helper("msad_abs"),
        Prim::Asin => Slope("1 ./ sqrt(1 - A.^2)"),
        Prim::Acos => Slope("-1 ./ sqrt(1 - A.^2)"),
        Prim::Atan => Slope("1 ./ (1 + A.^2)"),
        Prim::Sinh => Slope("cosh(A)"),
        Prim::Cosh => Slope("sinh(A)"),
        Prim::Tanh => Slope("1 - Y.^2"),
        Prim::Asinh => Slope("1 ./ sqrt(A.^2 + 1)"),
        Prim::Acosh => Slope("1 ./ (sqrt(A - 1) .* sqrt(A + 1))"),
        Prim::Atanh => Slope("1 ./ (1 - A.^2)"),
        Prim::Erf => Slope("2 / sqrt(pi) * exp(-A.^2)"),
        Prim::Plus => Operator(BinOp::Add),
        Prim::Minus => Operator(BinOp::Sub),
        Prim::Times => Operator(BinOp::ElMul),
        Prim::Rdivide => Operator(BinOp::ElDiv),
        Prim::Ldivide => Operator(BinOp::ElLeftDiv),
        Prim::Power => Operator(BinOp::ElPow),
        Prim::Mtimes => Operator(BinOp::Mul),
        Prim::Mrdivide => Operator(BinOp::Div),
        Prim::Mldivide => Operator(BinOp::LeftDiv),
        Prim::Atan2 => Partials("B ./ (A.^2 + B.^2)", "-A ./ (A.^2 + B.^2)"),
        Prim::Hypot => Partials("A ./ Y", "B ./ Y"),
        Prim::Ctranspose => Helper("msad_ctranspose"),
        Prim::Transpose
        | Prim::Reshape
        | Prim::Diag
        | Prim::Tril
        | Prim::Triu
        | Prim::Repmat
        | Prim::Permute
        | Prim::Ipermute
        | Prim::Squeeze
        | Prim::Flip
        | Prim::Fliplr
        | Prim::Flipud
        | Prim::Rot90
        | Prim::Circshift => Structural,
        Prim::Horzcat | Prim::Vertcat => Concatenation { skip: 0 },
        Prim::Cat => Concatenation { skip: 1 },
        Prim::Sum => Helper("msad_sum"),
        Prim::Mean => Helper("msad_mean"),
        Prim::Cumsum => Helper("msad_cumsum"),
        Prim::Norm => Helper("msad_norm"),
        Prim::Dot => PairHelper("msad_dot"),
        Prim::Max | Prim::Min => Extremum,
        _ if !primitives::output_is_differentiable(primitive.prim, 0) => Zero,
        _ => return None,
    })
}

/// Whether the binary operator's result carries a derivative.
pub(super) fn differentiable_operator(op: BinOp) -> bool {
    use BinOp::*;
    !matches!(op, Eq | Ne | Lt | Le | Gt | Ge | And | Or | AndAnd | OrOr)
}
