//! One primitive applied to given operands and their derivative blocks, outside any compiled function:
//! the forward-mode class `@fmad` runs its operations through this (`msad_apply`), so that MAD-style
//! code and `msad_eval` share one rule set. Derivatives travel as fmad holds them: a `numel x nd`
//! matrix per operand, full or sparse.

use super::jacobian::csr_to_csc;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::primitives::index::{Subscript, assign, index_owned};
use crate::primitives::{self, Forward, Prim};
use crate::value::deriv::{DenseDeriv, Deriv, SparseDeriv};
use crate::value::{Array, SparseMatrix, Value};

/// An operand: its value, and its derivative matrix when it depends on the differentiated input.
pub struct Operand {
    pub value: Value,
    pub derivs: Option<Value>,
}

/// The result of one primitive: its value and its derivative matrix (`numel x nd`, sparse when an
/// operand's was).
pub struct Applied {
    pub value: Value,
    pub derivs: Value,
    /// Every derivative entry is finite. Where a partial is infinite (`sqrt` at 0) the rules give NaN
    /// in directions the operand does not depend on; fmad keeps those zero with its own rule.
    pub finite: bool,
}

/// What `msad_apply` runs: a primitive, or the interpreter's indexing `x(subs...)` and indexed
/// assignment `x(subs...) = rhs` (operations of the IR, not primitives), whose subscripts come as
/// constant operands after the array (and the right side).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    Prim(Prim),
    Index,
    Assign,
}

/// The rule a call by `name` runs: `subsref` and `subsasgn` (the methods fmad routes) or a builtin
/// user code can call (the resolvers are the only places that know names).
pub fn resolve(name: &str) -> Result<Rule> {
    match name {
        "subsref" => Ok(Rule::Index),
        "subsasgn" => Ok(Rule::Assign),
        _ => primitives::builtin(name).map(Rule::Prim).ok_or_else(|| not_applicable(format!("'{name}' is not a primitive"))),
    }
}

/// Runs the rule's kernel on the operands' values and its forward rule on their derivatives. Only
/// real double operands (logical and char constants too) and a real double result: anything else
/// is an error, for the caller to take its own path. The operands' buffers serve later calls
/// (freed, large ones would go back to the system and every call would fault their pages in again).
pub fn apply(rule: Rule, operands: Vec<Operand>) -> Result<Applied> {
    let mut values = Vec::with_capacity(operands.len());
    let mut derivs = Vec::with_capacity(operands.len());
    for operand in operands {
        derivs.push(deriv_block(&operand.value, operand.derivs)?);
        values.push(operand.value);
    }
    let directions = directions(&derivs)?;
    let sparse = derivs.iter().any(|d| matches!(d, Deriv::Sparse(_)));
    let (value, deriv) = match rule {
        Rule::Prim(prim) => primitive(prim, &values, &derivs)?,
        Rule::Index => index_rule(&mut values, &mut derivs)?,
        Rule::Assign => assign_rule(&mut values, &mut derivs)?,
    };
    if !matches!(value, Value::Double(_)) {
        return Err(not_applicable(format!("a {} result", value.class_name())));
    }
    let rows = value.numel();
    values.into_iter().for_each(Value::recycle);
    derivs.into_iter().for_each(Deriv::recycle);
    let (derivs, finite) = derivative_matrix(deriv, rows, directions, sparse)?;
    Ok(Applied { value, derivs, finite })
}

/// The primitive's kernel and forward rule.
fn primitive(prim: Prim, values: &[Value], derivs: &[Deriv]) -> Result<(Value, Deriv)> {
    let operands: Vec<&Value> = values.iter().collect();
    if raises_warning(prim, &operands) {
        return Err(not_applicable(format!("'{}' warns on these operands", prim.name())));
    }
    let value = primitives::eval(prim, &operands, 1)?.swap_remove(0);
    let blocks: Vec<&Deriv> = derivs.iter().collect();
    let deriv = primitives::forward(prim, &Forward { inputs: &operands, derivs: &blocks, output: &value })?;
    Ok((value, deriv))
}

/// `x(subs...)`: operands x, then the subscripts. The array's value and block are moved out (their
/// buffers may become the result's).
fn index_rule(values: &mut Vec<Value>, derivs: &mut Vec<Deriv>) -> Result<(Value, Deriv)> {
    let subs = subscripts(values, derivs, 1)?;
    index_owned(values.remove(0), derivs.remove(0), &subs)
}

/// `x(subs...) = rhs`: operands x, rhs, then the subscripts.
fn assign_rule(values: &mut Vec<Value>, derivs: &mut Vec<Deriv>) -> Result<(Value, Deriv)> {
    let subs = subscripts(values, derivs, 2)?;
    let base = (values.remove(0), derivs.remove(0));
    assign(Some(base), &values[0], &derivs[0], &subs)
}

/// The operands from `first` on as subscripts: constants all (an index that depends on the input
/// is no subscript).
fn subscripts(values: &[Value], derivs: &[Deriv], first: usize) -> Result<Vec<Subscript>> {
    if values.len() < first || !derivs[first..].iter().all(Deriv::is_zero) {
        return Err(not_applicable("indexing takes the array (and the right side), then constant subscripts"));
    }
    let count = values.len() - first;
    values[first..].iter().enumerate().map(|(k, v)| Subscript::from_value(v, k, count)).collect()
}

/// The warning facet of the primitive's record: a call that would warn takes the caller's path,
/// which warns as the host does.
fn raises_warning(prim: Prim, values: &[&Value]) -> bool {
    primitives::get(prim).effects.warning.is_some_and(|warning| warning(values).is_some())
}

/// The operand's derivative as a block: one row per element of its value.
fn deriv_block(value: &Value, derivs: Option<Value>) -> Result<Deriv> {
    let rows = value.numel();
    match (value, derivs) {
        (Value::Double(_) | Value::Logical(_) | Value::Char(_), None) => Ok(Deriv::Zero),
        (Value::Double(_), Some(Value::Double(d))) if d.dims.len() == 2 && d.dims[0] == rows => {
            Ok(Deriv::Dense(DenseDeriv::from_seed(rows, d.dims[1], d.data)))
        }
        (Value::Double(_), Some(Value::Sparse(s))) if s.nrows() == rows => Ok(Deriv::Sparse(by_rows(&s))),
        _ => Err(not_applicable("an operand that is not a real double with a numel x nd derivative matrix")),
    }
}

/// A sparse derivative matrix (compressed columns, one per direction) as rows of directions.
fn by_rows(matrix: &SparseMatrix) -> SparseDeriv {
    let (rows, nd) = (matrix.nrows(), matrix.ncols());
    let (ptr, cols, vals) = matrix.0.to_other_storage().into_raw_storage();
    SparseDeriv::from_csr(rows, nd, ptr, cols, vals)
}

/// The operands' common number of directions.
fn directions(derivs: &[Deriv]) -> Result<usize> {
    let mut counts = derivs.iter().filter_map(Deriv::nd);
    let first = counts.next().ok_or_else(|| not_applicable("no operand carries derivatives"))?;
    match counts.all(|nd| nd == first) {
        true => Ok(first),
        false => Err(not_applicable("operands with different numbers of directions")),
    }
}

/// The block as a `rows x nd` matrix, and whether its entries are all finite.
fn derivative_matrix(deriv: Deriv, rows: usize, nd: usize, sparse: bool) -> Result<(Value, bool)> {
    let deriv = match deriv {
        Deriv::Zero if sparse => return Ok((Value::Sparse(SparseMatrix::empty(rows, nd)), true)),
        Deriv::Zero => Deriv::Dense(DenseDeriv::zeros(rows, nd)),
        other => other,
    };
    match deriv {
        Deriv::Dense(d) if d.rows == rows && d.nd == nd => {
            let finite = d.data.iter().all(|v| v.is_finite());
            Ok((Value::Double(Array::new(vec![rows, nd], d.data)), finite))
        }
        Deriv::Sparse(mut s) if s.rows == rows && s.nd == nd => {
            let finite = s.csr().2.iter().all(|v| v.is_finite());
            Ok((Value::Sparse(csr_to_csc(&mut s, nd)), finite))
        }
        _ => Err(not_applicable("a derivative block of another shape")),
    }
}

fn not_applicable(what: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, what.into()).with_hint("fmad computes this with its own rule")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(data: &[f64]) -> Value {
        Value::Double(Array::new(vec![data.len(), 1], data.to_vec()))
    }

    fn matrix(rows: usize, cols: usize, data: &[f64]) -> Value {
        Value::Double(Array::new(vec![rows, cols], data.to_vec()))
    }

    fn doubles(value: &Value) -> &[f64] {
        match value {
            Value::Double(a) => &a.data,
            other => panic!("expected doubles, got {}", other.class_name()),
        }
    }

    #[test]
    fn a_product_takes_each_operands_derivatives() {
        let x = Operand { value: column(&[2.0, 3.0]), derivs: Some(matrix(2, 2, &[1.0, 0.0, 0.0, 1.0])) };
        let y = Operand { value: column(&[5.0, 7.0]), derivs: None };
        let applied = apply(resolve("times").unwrap(), vec![x, y]).unwrap();
        assert_eq!(doubles(&applied.value), &[10.0, 21.0]);
        assert_eq!(doubles(&applied.derivs), &[5.0, 0.0, 0.0, 7.0]);
        assert!(applied.finite);
    }

    #[test]
    fn sparse_derivatives_stay_sparse() {
        let seed = SparseMatrix::new(2, 2, vec![0, 1, 2], vec![0, 1], vec![1.0, 1.0]);
        let x = Operand { value: column(&[0.5, 1.0]), derivs: Some(Value::Sparse(seed)) };
        let applied = apply(resolve("sin").unwrap(), vec![x]).unwrap();
        let Value::Sparse(d) = &applied.derivs else { panic!("a sparse derivative matrix") };
        assert_eq!(d.values(), &[0.5f64.cos(), 1.0f64.cos()]);
    }

    #[test]
    fn an_infinite_partial_is_reported() {
        let x = Operand { value: column(&[0.0, 1.0]), derivs: Some(matrix(2, 2, &[1.0, 0.0, 0.0, 1.0])) };
        assert!(!apply(resolve("sqrt").unwrap(), vec![x]).unwrap().finite);
    }

    #[test]
    fn what_it_does_not_take_is_an_error() {
        assert!(resolve("no_such_function").is_err());
        assert!(resolve("for_count").is_err(), "internal primitives are not callable");
        let constant = || Operand { value: column(&[1.0]), derivs: None };
        assert!(apply(Rule::Prim(Prim::Plus), vec![constant(), constant()]).is_err(), "no operand carries derivatives");
        let x = Operand { value: column(&[1.0, 2.0]), derivs: Some(matrix(2, 1, &[1.0, 1.0])) };
        let y = Operand { value: column(&[1.0, 2.0]), derivs: Some(matrix(2, 2, &[1.0, 1.0, 0.0, 0.0])) };
        assert!(apply(Rule::Prim(Prim::Plus), vec![x, y]).is_err(), "different numbers of directions");
        let negative = Operand { value: column(&[-1.0]), derivs: Some(matrix(1, 1, &[1.0])) };
        assert!(apply(Rule::Prim(Prim::Sqrt), vec![negative]).is_err(), "a complex result");
        let x = || Operand { value: column(&[1.0, 2.0]), derivs: Some(matrix(2, 1, &[1.0, 1.0])) };
        let active_subscript = Operand { value: column(&[1.0]), derivs: Some(matrix(1, 1, &[1.0])) };
        assert!(apply(Rule::Index, vec![x(), active_subscript]).is_err(), "a subscript with derivatives");
        assert!(apply(Rule::Assign, vec![x()]).is_err(), "an assignment without a right side");
    }

    #[test]
    fn indexing_picks_rows_of_the_block() {
        let x = Operand { value: column(&[2.0, 3.0, 5.0]), derivs: Some(matrix(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])) };
        let subscript = Operand { value: matrix(1, 2, &[3.0, 1.0]), derivs: None };
        let applied = apply(resolve("subsref").unwrap(), vec![x, subscript]).unwrap();
        assert_eq!(doubles(&applied.value), &[5.0, 2.0]);
        assert_eq!(doubles(&applied.derivs), &[3.0, 1.0, 6.0, 4.0]);
    }

    #[test]
    fn assignment_writes_the_right_sides_rows() {
        let x = Operand { value: column(&[2.0, 3.0]), derivs: None };
        let rhs = Operand { value: column(&[7.0]), derivs: Some(matrix(1, 2, &[1.0, 2.0])) };
        let colon = Operand { value: Value::string(":"), derivs: None };
        let at = Operand { value: column(&[2.0]), derivs: None };
        let applied = apply(resolve("subsasgn").unwrap(), vec![x, rhs, at, colon]).unwrap();
        assert_eq!(doubles(&applied.value), &[2.0, 7.0]);
        assert_eq!(doubles(&applied.derivs), &[0.0, 1.0, 0.0, 2.0]);
    }
}
