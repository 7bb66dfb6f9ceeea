//! The primitive table: one entry per operator or builtin, holding everything msad knows about it —
//! its kernel (primal), its forward derivative rule and what the analysis can infer about its result.
//! Adding a builtin means adding, in one record file, its name to the file's `primitive_names!` block
//! and its record to the file's `entries()` (plus its tests).

/// Declares the primitives of a record file, each with the name code calls it by (`Erf = "erf",`):
/// build.rs gathers every file's block into the `Prim` enum (src/prim.rs), so a builtin is added in its
/// record file alone.
macro_rules! primitive_names {
    ($($variant:ident = $name:literal,)*) => {};
}

mod accumulate;
mod arrays;
pub(crate) mod complex;
mod construct;
mod decompositions;
mod diff;
mod dual;
mod elementwise;
pub mod errors;
mod factor;
mod factorizations;
mod find;
mod grids;
pub mod index;
pub(crate) mod integers;
mod interpolate;
mod linalg;
mod linsolve;
mod mantissa;
mod matrix;
mod matrix_functions;
mod matrix_second_order;
mod minmax;
mod norm;
mod predicates;
mod printf;
mod products;
mod reduce;
mod remainder;
pub mod reverse;
pub mod second_order;
mod singular;
mod slices;
mod sort;
mod sparse;
mod sparse_deriv;
mod sparse_factor;
mod sparse_factor_rules;
mod sparse_lu;
pub mod sparse_reverse;
mod special;
mod strings;
mod structs;
#[cfg(test)]
mod testing;
mod triangular;

use super::value::{self, Complex64, Value};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{self, Deriv};
use crate::value::small_list::Few;
use std::sync::OnceLock;

pub use crate::prim::{Prim, lookup};
pub use accumulate::{accumarray_fill, accumarray_groups};
pub(crate) use construct::subscript_range;
pub use elementwise::{Reused, broadcast_dims, row_maps};
pub use integers::IntegerArgs;
pub use sparse_deriv::element_rows;

/// What the IR and the tape store for a primitive.
pub type PrimId = Prim;

/// A result's element index and the index of the operand element it takes (`diag`, grids).
pub(crate) type IndexPair = (usize, usize);

/// Inputs of a general forward rule: the primal inputs and result, and the inputs' derivative blocks.
pub struct Forward<'a> {
    pub inputs: &'a [&'a Value],
    pub derivs: &'a [&'a Deriv],
    pub output: &'a Value,
}

pub type EvalFn = fn(&[&Value], usize) -> Result<Vec<Value>>;
pub type ForwardFn = fn(&Forward) -> Result<Deriv>;
pub type OutputsFn = fn(&Forward, usize) -> Result<Deriv>;
pub type ReverseFn = fn(&reverse::Reverse) -> Result<reverse::Adjoints>;
/// A primitive's own second-order classification, given its operands and which of them are taped.
pub type SecondOrderFn = fn(&[&Value], &[bool]) -> Result<second_order::SecondOrder>;
/// The warning a call raises on these operands: identifier and message.
pub type WarningFn = fn(&[&Value]) -> Option<[&'static str; 2]>;

#[derive(Clone, Copy)]
pub enum Kernel {
    /// Elementwise real function: `f`, the derivative `df(x, f(x))` (None: piecewise constant), the
    /// second derivative `d2f(x, f(x))` (Hessians), and the domain outside which MATLAB's result is
    /// complex (None: all reals).
    Unary { f: fn(f64) -> f64, df: Option<fn(f64, f64) -> f64>, d2f: fn(f64, f64) -> f64, domain: Option<fn(f64) -> bool> },
    /// Elementwise with implicit expansion: `f`, partials `(dz/da, dz/db)` at `(a, b, z)`, second
    /// partials `(d2z/da2, d2z/dadb, d2z/db2)` (Hessians), and the pairs for which MATLAB's result is
    /// complex.
    Binary {
        f: fn(f64, f64) -> f64,
        /// `f` over whole arrays, with `f` inlined.
        pairs: fn(&elementwise::Expanded) -> value::Array<f64>,
        /// `f` written into an operand's buffer, with `f` inlined (`elementwise::update_with`).
        update: fn(&mut [f64], usize, &[f64], &deriv::RowMap),
        partials: fn(f64, f64, f64) -> (f64, f64),
        second: fn(f64, f64, f64) -> (f64, f64, f64),
        complex_result: Option<fn(f64, f64) -> bool>,
    },
    /// Elementwise comparison or logical operation: a logical result with zero derivative.
    Predicate(fn(f64, f64) -> bool),
    /// Anything else: its own kernel and forward rule.
    General { eval: EvalFn, derivative: Derivative },
}

#[derive(Clone, Copy)]
pub enum Derivative {
    /// The result never depends on the inputs' values in a differentiable way (sizes, comparisons,
    /// rounding): its derivative is zero.
    Zero,
    /// A forward rule for the first result.
    Rule(ForwardFn),
    /// Forward rules for several results: `rule(fw, k)` is the derivative of result k (`fw.output`);
    /// `differentiable(k)` says which results carry one (activity analysis asks before running).
    Outputs { rule: OutputsFn, differentiable: fn(usize) -> bool },
    /// Active inputs are an error: msad has no derivative rule for this function yet.
    Missing,
}

pub struct Primitive {
    pub prim: Prim,
    pub kernel: Kernel,
    /// How the result depends on the operands (linearity analysis, second-order terms).
    pub linearity: Linearity,
    /// What the reverse rule and the second-order term read: the tape keeps only these values.
    pub reads: RuleReads,
    /// How it takes integer-class arguments.
    pub integer_args: IntegerArgs,
    /// The entry that computes its results after the first (`[f, e] = log2(x)`), where its own kernel
    /// gives one result.
    pub more_outputs: Option<Prim>,
    /// Its results depend only on the first operand's dims (and the other operands' values), so they
    /// are constants of code specialised for the arguments' sizes (`numel(y)`, `size(y, 1)`).
    pub size_query: bool,
    /// What decides the sparsity pattern of its derivative besides the operands' patterns.
    pub pattern: PatternRule,
    /// Emitted by the lowering for control flow (`for`, `switch`, conditions); not a function users
    /// can call by name.
    pub internal: bool,
    /// The reverse rule of a general kernel with a forward rule (elementwise kernels' follow from
    /// their partials).
    pub vjp: Vjp,
    /// The second-order (Hessian) term.
    pub hessian: Hessian,
    /// What a call does besides computing its results.
    pub effects: Effects,
    /// The elementwise operation it is on scalar operands (`2 * A` is `2 .* A`).
    pub elementwise_twin: Option<ElementwiseTwin>,
    /// An elementwise function's kernel on complex operands (see `complex`).
    pub complex: Option<ComplexKernel>,
}

/// An elementwise function on complex values, and its derivatives where it is holomorphic.
#[derive(Clone, Copy)]
pub struct ComplexKernel {
    pub f: fn(Complex64) -> Complex64,
    /// None: it has no complex derivative (rounding, the inverse functions msad has no complex rule for).
    pub holomorphic: Option<Holomorphic>,
}

type ComplexPartial = fn(Complex64, Complex64) -> Complex64;

/// The first and second derivatives `f'(w)`, `f''(w)` at `w` with `z = f(w)` of a holomorphic
/// elementwise function.
#[derive(Clone, Copy)]
pub struct Holomorphic {
    pub first: ComplexPartial,
    pub second: ComplexPartial,
}

/// A matrix operation's elementwise namesake, and which scalar operands make the two the same.
#[derive(Clone, Copy)]
pub struct ElementwiseTwin {
    pub prim: Prim,
    pub when: ScalarOperands,
}

/// Which of two operands must be scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarOperands {
    Either,
    First,
    Second,
    Both,
}

impl ElementwiseTwin {
    /// The twin, when the two `operands` make the operation elementwise.
    pub fn on(self, operands: &[&Value]) -> Option<Prim> {
        let [a, b] = operands else { return None };
        let (a, b) = (a.numel() == 1, b.numel() == 1);
        let elementwise = match self.when {
            ScalarOperands::Either => a || b,
            ScalarOperands::First => a,
            ScalarOperands::Second => b,
            ScalarOperands::Both => a && b,
        };
        elementwise.then_some(self.prim)
    }
}

/// The elementwise operation primitive `id` is on `operands` (`times` for a product with a scalar).
pub fn elementwise_twin(id: PrimId, operands: &[&Value]) -> Option<Prim> {
    get(id).elementwise_twin?.on(operands)
}

/// The reverse rule (vector-Jacobian product) of a general primitive.
#[derive(Clone, Copy)]
pub enum Vjp {
    /// The forward rule's local Jacobian, transposed (see `reverse`): exact for every rule.
    Transposed,
    /// Its own rule, where the local Jacobian is dense or large (`mtimes` of matrices, `cumsum`).
    Own(ReverseFn),
}

/// How a primitive's second-order term is found (see `second_order`).
#[derive(Clone, Copy)]
pub enum Hessian {
    /// None: linear, piecewise linear or piecewise constant.
    Zero,
    /// The elementwise kernel's second derivatives.
    FromKernel,
    /// A product linear in each operand: the reverse rule with an operand replaced by its tangent;
    /// the pairing says which elements multiply.
    Bilinear(second_order::Pairing),
    /// Its own classification on the operands (norms, products, polynomials, matrix functions).
    Own(SecondOrderFn),
    /// msad has none: a Hessian through it is an error.
    Missing,
}

/// What a call does besides computing its results.
#[derive(Clone, Copy)]
pub struct Effects {
    /// Equal arguments give equal results and nothing else happens: calls with constant operands
    /// fold and equal calls merge. False for the builtins that raise the user's errors.
    pub pure: bool,
    /// The warning a call raises on some operands (issued by the interpreter).
    pub warning: Option<WarningFn>,
}

/// What decides the sparsity pattern of a primitive's derivative besides its operands' patterns: a
/// pattern cached across calls holds only while these stay the same (see `Interpreter::note_selection`).
#[derive(Clone, Copy)]
pub enum PatternRule {
    /// The shapes of the operands and the structure of sparse ones: a structural entry is kept
    /// whatever its value (elementwise kernels, products, concatenation).
    Structural,
    /// Also the values of the operands without derivative (sizes, dimensions, shifts, masks).
    Parameters,
    /// Also the positions a selection picks by the values of the differentiated operands (`sort`'s
    /// permutation, `find`'s hits), given by this function of the operands.
    Selection(fn(&[&Value]) -> Result<Vec<usize>>),
}

impl Primitive {
    /// A nonlinear primitive whose rules may read every value.
    fn new(prim: Prim, kernel: Kernel) -> Primitive {
        let pattern = match kernel {
            Kernel::General { .. } => PatternRule::Parameters,
            _ => PatternRule::Structural,
        };
        let hessian = match kernel {
            Kernel::Unary { df: None, .. } | Kernel::Predicate(_) => Hessian::Zero,
            Kernel::Unary { .. } | Kernel::Binary { .. } => Hessian::FromKernel,
            Kernel::General { .. } => Hessian::Missing,
        };
        Primitive {
            prim,
            kernel,
            pattern,
            hessian,
            vjp: Vjp::Transposed,
            effects: Effects { pure: true, warning: None },
            linearity: Linearity::Nonlinear,
            reads: RuleReads::ALL,
            integer_args: IntegerArgs::Unsupported,
            more_outputs: None,
            size_query: false,
            internal: false,
            elementwise_twin: None,
            complex: None,
        }
    }

    /// Sets the linearity, and what follows from it for the rules: an additive map's Jacobian is
    /// constant (they read no values); a bilinear one's, for one operand, is the other operands.
    fn linear(self, linearity: Linearity) -> Primitive {
        let reads = match linearity {
            Linearity::Additive => RuleReads::NONE,
            Linearity::Bilinear => RuleReads::uniform(Reads::OtherOperands),
            _ => self.reads,
        };
        // A product's constant operands are data: their values never drop a structural entry.
        let pattern = match linearity {
            Linearity::Bilinear | Linearity::Numerator | Linearity::Denominator => PatternRule::Structural,
            _ => self.pattern,
        };
        let hessian = match (linearity, self.kernel) {
            (Linearity::Additive | Linearity::PiecewiseLinear, _) => Hessian::Zero,
            (Linearity::Bilinear, Kernel::General { .. }) => Hessian::Bilinear(second_order::Pairing::Every),
            _ => self.hessian,
        };
        Primitive { linearity, reads, pattern, hessian, ..self }
    }

    fn vjp(self, rule: ReverseFn) -> Primitive {
        Primitive { vjp: Vjp::Own(rule), ..self }
    }

    fn hessian(self, hessian: Hessian) -> Primitive {
        Primitive { hessian, ..self }
    }

    /// A builtin that raises the user's error: never folded or merged.
    fn raises(self) -> Primitive {
        Primitive { effects: Effects { pure: false, ..self.effects }, ..self }
    }

    fn warns(self, warning: WarningFn) -> Primitive {
        Primitive { effects: Effects { warning: Some(warning), ..self.effects }, ..self }
    }

    fn pattern(self, pattern: PatternRule) -> Primitive {
        Primitive { pattern, ..self }
    }

    fn reads(self, reads: RuleReads) -> Primitive {
        Primitive { reads, ..self }
    }

    fn integers(self, integer_args: IntegerArgs) -> Primitive {
        Primitive { integer_args, ..self }
    }

    pub fn name(&self) -> &'static str {
        self.prim.name()
    }

    fn more_outputs(self, entry: Prim) -> Primitive {
        Primitive { more_outputs: Some(entry), ..self }
    }

    fn size_query(self) -> Primitive {
        Primitive { size_query: true, ..self }
    }

    fn internal(self) -> Primitive {
        Primitive { internal: true, ..self }
    }

    fn complex(self, f: fn(Complex64) -> Complex64) -> Primitive {
        Primitive { complex: Some(ComplexKernel { f, holomorphic: None }), ..self }
    }

    fn holomorphic(self, f: fn(Complex64) -> Complex64, first: ComplexPartial, second: ComplexPartial) -> Primitive {
        Primitive { complex: Some(ComplexKernel { f, holomorphic: Some(Holomorphic { first, second }) }), ..self }
    }

    fn elementwise_twin(self, prim: Prim, when: ScalarOperands) -> Primitive {
        Primitive { elementwise_twin: Some(ElementwiseTwin { prim, when }), ..self }
    }
}

/// A primitive with its own kernel and forward rule.
fn general(prim: Prim, eval: EvalFn, rule: ForwardFn) -> Primitive {
    Primitive::new(prim, Kernel::General { eval, derivative: Derivative::Rule(rule) })
}

/// A primitive of its own kernel whose result never carries a derivative (queries, text, casts).
fn zero_derivative(prim: Prim, eval: EvalFn) -> Primitive {
    Primitive::new(prim, Kernel::General { eval, derivative: Derivative::Zero })
}

/// Which values a rule reads besides the operands' and result's shapes (a general primitive's rules
/// also read its parameters: the operands that do not depend on x, such as sizes and dimensions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    Nothing,
    Operands,
    /// The operands other than the one whose adjoint it gives (bilinear products).
    OtherOperands,
    Result,
    Both,
}

impl Reads {
    /// Whether a rule for operand `k`'s adjoint reads operand `i`.
    pub fn operand(self, k: usize, i: usize) -> bool {
        match self {
            Reads::Operands | Reads::Both => true,
            Reads::OtherOperands => i != k,
            Reads::Nothing | Reads::Result => false,
        }
    }

    pub fn result(self) -> bool {
        matches!(self, Reads::Result | Reads::Both)
    }
}

/// What a primitive's reverse rule (for the first operand's adjoint, and for each other operand's) and
/// its second-order term read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleReads {
    pub adjoint: [Reads; 2],
    pub second: Reads,
}

impl RuleReads {
    pub(crate) const ALL: RuleReads = RuleReads::uniform(Reads::Both);
    pub(crate) const NONE: RuleReads = RuleReads::uniform(Reads::Nothing);

    const fn uniform(reads: Reads) -> RuleReads {
        RuleReads { adjoint: [reads; 2], second: reads }
    }

    /// An elementwise function's: its derivative's and its second derivative's.
    const fn unary(adjoint: Reads, second: Reads) -> RuleReads {
        RuleReads { adjoint: [adjoint; 2], second }
    }

    /// An elementwise operator's: its partial in `a`'s, in `b`'s, and its second partials'.
    const fn binary(a: Reads, b: Reads, second: Reads) -> RuleReads {
        RuleReads { adjoint: [a, b], second }
    }

    /// The rule giving operand `k`'s adjoint.
    pub fn adjoint_of(&self, k: usize) -> Reads {
        self.adjoint[k.min(1)]
    }
}

/// The records, one per `Prim` in its order.
struct Table {
    entries: Vec<Primitive>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut entries = Vec::new();
        entries.extend(elementwise::entries());
        entries.extend(matrix::entries());
        entries.extend(linsolve::entries());
        entries.extend(linalg::entries());
        entries.extend(products::entries());
        entries.extend(minmax::entries());
        entries.extend(sort::entries());
        entries.extend(norm::entries());
        entries.extend(diff::entries());
        entries.extend(triangular::entries());
        entries.extend(interpolate::entries());
        entries.extend(construct::entries());
        entries.extend(reduce::entries());
        entries.extend(sparse::entries());
        entries.extend(structs::entries());
        entries.extend(arrays::entries());
        entries.extend(grids::entries());
        entries.extend(find::entries());
        entries.extend(predicates::entries());
        entries.extend(remainder::entries());
        entries.extend(strings::entries());
        entries.extend(accumulate::entries());
        entries.extend(errors::entries());
        entries.extend(integers::entries());
        entries.extend(complex::entries());
        entries.extend(mantissa::entries());
        entries.extend(special::entries());
        entries.extend(matrix_functions::entries());
        entries.extend(decompositions::entries());
        entries.extend(factorizations::entries());
        entries.extend(singular::entries());
        entries.sort_by_key(|p| p.prim);
        for &prim in Prim::ALL {
            let records = entries.iter().filter(|p| p.prim == prim).count();
            assert_eq!(records, 1, "primitive '{}' has {records} records", prim.name());
        }
        Table { entries }
    })
}

/// The builtin a user's code calls as `name`: a primitive the lowering emits for control flow is not one.
pub fn builtin(name: &str) -> Option<PrimId> {
    lookup(name).filter(|&id| !get(id).internal)
}

pub fn get(id: PrimId) -> &'static Primitive {
    &table().entries[id as usize]
}

/// The entry a call of `id` with `nargout` outputs runs: its own, or the one for its further outputs.
pub fn for_outputs(id: PrimId, nargout: usize) -> PrimId {
    match get(id).more_outputs {
        Some(entry) if nargout > 1 => entry,
        _ => id,
    }
}

/// All primitive names, for documentation and coverage counts.
pub fn names() -> impl Iterator<Item = &'static str> {
    Prim::ALL.iter().map(|p| p.name())
}

/// Runs a primitive's kernel.
pub fn eval(id: PrimId, args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    eval_results(id, args, nargout).map(Few::into_vec)
}

/// Fails when a kernel gave fewer results than the call asks for: msad computes only those.
fn check_outputs(id: PrimId, results: Few<Value>, nargout: usize) -> Result<Few<Value>> {
    if results.len() >= nargout {
        return Ok(results);
    }
    let name = get(id).name();
    Err(Diagnostic::new(ErrorKind::Unsupported, format!("'{name}' called with {nargout} outputs: msad computes {} of it", results.len()))
        .with_hint("ask for fewer outputs, or compute the others outside the differentiated function"))
}

/// `eval` without a list on the heap for the single result of an elementwise kernel (the
/// evaluator's hot path).
pub fn eval_results(id: PrimId, args: &[&Value], nargout: usize) -> Result<Few<Value>> {
    check_outputs(id, kernel_results(id, args, nargout)?, nargout)
}

fn kernel_results(id: PrimId, args: &[&Value], nargout: usize) -> Result<Few<Value>> {
    let p = get(id);
    if complex::has_complex(args) {
        return complex::eval(id, args, nargout).map(Few::from);
    }
    if let Some(results) = sparse_factor::eval(id, args, nargout) {
        return results.map(Few::from);
    }
    if integers::needs_doubles(p, args) {
        return integers::through_doubles(p, args, |doubles| eval(id, doubles, nargout)).map(Few::from);
    }
    let single = match p.kernel {
        Kernel::Unary { f, domain, .. } => elementwise::eval_unary(id, f, domain, args),
        Kernel::Binary { pairs, complex_result, .. } => elementwise::eval_pairs(id, pairs, complex_result, args),
        Kernel::Predicate(f) => elementwise::eval_predicate(id, f, args),
        Kernel::General { eval, .. } => return eval(args, nargout).map(Few::from),
    };
    single.map(|value| Few::One([value]))
}

/// Derivative of the first result given the inputs' derivatives (at least one is non-zero). Sparse
/// matrices that depend on x have their own derivative blocks (see `sparse_deriv`).
pub fn forward(id: PrimId, fw: &Forward) -> Result<Deriv> {
    if complex::involved(fw) {
        return complex::forward(id, fw);
    }
    if output_is_differentiable(id, 0)
        && let Some(sparse) = sparse_deriv::forward(id, fw)
    {
        return sparse;
    }
    forward_rule(id, fw)
}

/// The primitive's own forward rule, on blocks with one row per element.
fn forward_rule(id: PrimId, fw: &Forward) -> Result<Deriv> {
    let p = get(id);
    match p.kernel {
        Kernel::Unary { df: Some(df), .. } => elementwise::forward_unary(df, fw, None),
        Kernel::Binary { partials, .. } => elementwise::forward_elementwise(id, partials, fw, None),
        Kernel::Unary { df: None, .. } | Kernel::Predicate(_) => Ok(Deriv::Zero),
        Kernel::General { derivative: Derivative::Zero, .. } => Ok(Deriv::Zero),
        Kernel::General { derivative: Derivative::Rule(rule), .. } => rule(fw),
        Kernel::General { derivative: Derivative::Outputs { rule, differentiable }, .. } => {
            if differentiable(0) {
                rule(fw, 0)
            } else {
                Ok(Deriv::Zero)
            }
        }
        Kernel::General { derivative: Derivative::Missing, .. } => Err(no_derivative_rule(p.name())),
    }
}

/// The elementwise primitive that computes `id` on these operands: itself, or `times` for a product
/// with a scalar.
fn elementwise_kernel(id: PrimId, values: &[&Value]) -> Option<PrimId> {
    match get(id).kernel {
        Kernel::Unary { .. } | Kernel::Binary { .. } => Some(id),
        // Only products take over an operand in place as their twin: the divisions and powers keep
        // their own kernels.
        Kernel::General { .. } if id == Prim::Mtimes => elementwise_twin(id, values),
        Kernel::General { .. } | Kernel::Predicate(_) => None,
    }
}

/// Whether the kernel of `id` can write its result into the value of operand `k` (see `eval_into`):
/// an elementwise operation on full doubles whose result has that operand's shape. With `derivative`
/// (the forward rule runs next and reads the operands' values), only where the rule does not read
/// operand `k`'s value: sums and differences, products whose other operand is constant.
pub fn value_into_operand(id: PrimId, values: &[&Value], derivs: &[&Deriv], k: usize, derivative: bool) -> bool {
    let Some(kernel) = elementwise_kernel(id, values) else { return false };
    let Some(own) = full_dims(values[k]) else { return false };
    let rule_reads_operand = match linearity(kernel) {
        Linearity::Additive => false,
        Linearity::Bilinear => !derivs[1 - k].is_zero(),
        _ => true,
    };
    let keeps_own = |d: &[usize]| elementwise::broadcast_shape(d, own).is_some_and(|shape| *shape == *own);
    values.iter().all(|v| full_dims(v).is_some_and(keeps_own)) && !(derivative && rule_reads_operand)
}

/// The dims of a full double, borrowed: the in-place checks run for every primitive and must not allocate.
fn full_dims(v: &Value) -> Option<&[usize]> {
    match v {
        Value::Double(a) => Some(&a.dims),
        _ => None,
    }
}

/// The result of `id` written into `own`, the value of operand `k` taken out of its register (`args[k]`
/// is not read), for a primitive `value_into_operand` accepts.
pub fn eval_into(id: PrimId, args: &[&Value], k: usize, own: value::Array<f64>) -> Result<Value> {
    let kernel = elementwise_kernel(id, args).ok_or_else(|| Diagnostic::new(ErrorKind::Internal, "not an elementwise kernel"))?;
    let p = get(kernel);
    match p.kernel {
        Kernel::Unary { f, domain, .. } => elementwise::eval_unary_into(kernel, f, domain, own),
        Kernel::Binary { update, complex_result, .. } => elementwise::eval_binary_into(kernel, update, complex_result, own, k, args[1 - k]),
        _ => Err(Diagnostic::new(ErrorKind::Internal, format!("'{}' cannot write into an operand", p.name()))),
    }
}

/// Whether the forward rule of `id` can write its result into the derivative block of operand `k`
/// (see `forward_into`): an elementwise operation, or a product with a scalar, whose result has that
/// operand's shape, on dense blocks and full double operands.
pub fn writes_into_operand(id: PrimId, fw: &Forward, k: usize) -> bool {
    let elementwise = match elementwise_kernel(id, fw.inputs).map(|k| get(k).kernel) {
        Some(Kernel::Unary { df, .. }) => df.is_some(),
        Some(Kernel::Binary { .. }) => true,
        _ => false,
    };
    let full = |v: &&Value| matches!(v, Value::Double(_));
    let dense = |d: &&Deriv| matches!(d, Deriv::Zero | Deriv::Dense(_));
    elementwise
        && fw.inputs.iter().all(full)
        && fw.derivs.iter().all(dense)
        && full_dims(fw.inputs[k]).is_some_and(|d| Some(d) == full_dims(fw.output))
        && matches!(fw.derivs[k], Deriv::Dense(d) if d.rows == fw.output.numel())
}

/// `forward` writing into `reused`, the block of an operand read for the last time (taken out of
/// `fw.derivs`, which holds `Zero` in its place), for a primitive `writes_into_operand` accepts.
pub fn forward_into(id: PrimId, fw: &Forward, reused: elementwise::Reused) -> Result<Deriv> {
    let p = get(elementwise_kernel(id, fw.inputs).unwrap_or(id));
    match p.kernel {
        Kernel::Unary { df: Some(df), .. } => elementwise::forward_unary(df, fw, Some(reused)),
        Kernel::Binary { partials, .. } => elementwise::forward_elementwise(p.prim, partials, fw, Some(reused)),
        _ => Err(Diagnostic::new(ErrorKind::Internal, format!("'{}' cannot write into an operand's block", p.name()))),
    }
}

/// The derivative of result `k` (`fw.output`); results after the first have one only under
/// `Derivative::Outputs`.
pub fn forward_output(id: PrimId, fw: &Forward, k: usize) -> Result<Deriv> {
    if k > 0
        && let Some(rule) = sparse_factor::forward(id, fw, k)
    {
        return rule;
    }
    match get(id).kernel {
        _ if k == 0 => forward(id, fw),
        _ if complex::involved(fw) => Err(complex::unsupported_derivative(id)),
        Kernel::General { derivative: Derivative::Outputs { rule, differentiable }, .. } if differentiable(k) => rule(fw, k),
        _ => Ok(Deriv::Zero),
    }
}

/// How a primitive's result depends on its operands, for linearity analysis and second-order terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linearity {
    /// Linear in all operands together (sums, reshapes, concatenation, selections).
    Additive,
    /// Linear in each operand when the others are constant (products).
    Bilinear,
    /// Linear in the first operand when the others are constant (`a / c`).
    Numerator,
    /// Linear in the second operand when the first is constant (`c \ b`).
    Denominator,
    /// Linear where it is differentiable, but not one linear map for all x (`abs`, `max`, `sort`, `mod`,
    /// and `accumarray`, `merge` and `ifelse`, whose subscripts or masks may vary with x): nonlinear
    /// for linearity analysis, with a zero second-order term.
    PiecewiseLinear,
    Nonlinear,
}

pub fn linearity(id: PrimId) -> Linearity {
    get(id).linearity
}

/// Whether equal arguments always give equal results and a call does nothing else (see `Effects`).
pub fn is_pure(id: PrimId) -> bool {
    get(id).effects.pure
}

/// The warning (identifier, message) a call of `id` on these operands raises, if any.
pub fn warning(id: PrimId, operands: &[&Value]) -> Option<[&'static str; 2]> {
    get(id).effects.warning.and_then(|warning| warning(operands))
}

/// Fails with `msad:notDifferentiable` for a primitive without a derivative rule (its input depends on x).
pub fn require_derivative_rule(id: PrimId) -> Result<()> {
    let p = get(id);
    match p.kernel {
        Kernel::General { derivative: Derivative::Missing, .. } => Err(no_derivative_rule(p.name())),
        _ => Ok(()),
    }
}

fn no_derivative_rule(name: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::NotDifferentiable, format!("msad has no derivative rule for '{name}' and its input depends on x"))
        .with_hint("compute this part outside the differentiated function, or rewrite it with supported functions")
}

/// Whether result `k` (0-based) of a primitive can carry a derivative at all (used by activity analysis).
pub fn output_is_differentiable(id: PrimId, k: usize) -> bool {
    match get(id).kernel {
        _ if k == 0 && complex::varies_on_complex(id) => true,
        Kernel::General { derivative: Derivative::Outputs { differentiable, .. }, .. } => differentiable(k),
        _ if k > 0 => false,
        Kernel::Unary { df, .. } => df.is_some(),
        Kernel::Binary { .. } => true,
        Kernel::Predicate(_) => false,
        Kernel::General { derivative, .. } => !matches!(derivative, Derivative::Zero),
    }
}

// ---- argument helpers shared by the kernels ----

pub(crate) fn runtime(message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Runtime, message)
}

pub(crate) fn check_arity(name: &str, args: &[&Value], min: usize, max: usize) -> Result<()> {
    if args.len() < min {
        return Err(runtime(format!("{name}: not enough input arguments")));
    }
    if args.len() > max {
        return Err(runtime(format!("{name}: too many input arguments")));
    }
    Ok(())
}
