//! What a called name can be: one `Prim` variant per operator or builtin (the key of its record in the
//! primitive table; each record file declares its variants and their source names, gathered here by
//! build.rs), the higher-order builtins the evaluator runs, and the user functions of a program. The
//! front end resolves a call through `lookup`, the only use of the names besides messages; everything
//! after it dispatches on the variant or reads the facets of its record.

use std::collections::HashMap;
use std::sync::OnceLock;

macro_rules! prims {
    ($($variant:ident = $name:literal,)*) => {
        /// A primitive: the key of its record in the primitive table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Prim {
            $($variant,)*
        }

        impl Prim {
            /// Every primitive, in declaration order (`p as usize` is its position).
            pub const ALL: &'static [Prim] = &[$(Prim::$variant,)*];

            /// The name code calls it by, for the resolver and messages.
            pub fn name(self) -> &'static str {
                match self {
                    $(Prim::$variant => $name,)*
                }
            }
        }
    };
}

// The variants and names: each record file declares its own in a `primitive_names!` block, which
// build.rs gathers (in file order) into one `prims!` invocation.
include!(concat!(env!("OUT_DIR"), "/primitive_names.rs"));

/// The primitive a call by this name resolves to (the front end's resolver).
pub fn lookup(name: &str) -> Option<Prim> {
    static BY_NAME: OnceLock<HashMap<&'static str, Prim>> = OnceLock::new();
    BY_NAME.get_or_init(|| Prim::ALL.iter().map(|&p| (p.name(), p)).collect()).get(name).copied()
}

crate::ids::opaque_id!(
    /// A function of a program.
    FuncId
);

impl FuncId {
    /// The function a program was loaded for (the others are those it calls).
    pub const ENTRY: FuncId = FuncId::new(0);
}

/// What a function name or handle refers to, once resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    Prim(Prim),
    User(FuncId),
    HigherOrder(HigherOrder),
}

/// Builtins that call the function handles they are given: the evaluator runs them, since a primitive's
/// kernel cannot call code. They are resolved before the primitive table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HigherOrder {
    Feval,
    Cellfun,
    Arrayfun,
    /// `accumarray` with a function handle; without one it runs its primitive.
    Accumarray,
    /// `__slope__(f, t)`: the exact derivative of a scalar function at a real scalar (the library's
    /// fzero takes the implicit function theorem's chord steps with it, fminbnd their slope).
    Slope,
}

impl HigherOrder {
    /// Each higher-order builtin and the name code calls it by.
    const NAMES: [(HigherOrder, &'static str); 5] = [
        (HigherOrder::Feval, "feval"),
        (HigherOrder::Cellfun, "cellfun"),
        (HigherOrder::Arrayfun, "arrayfun"),
        (HigherOrder::Accumarray, "accumarray"),
        (HigherOrder::Slope, "__slope__"),
    ];
    /// The names of all higher-order builtins.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Self::NAMES.iter().map(|&(_, n)| n)
    }

    pub fn named(name: &str) -> Option<HigherOrder> {
        Self::NAMES.iter().find(|(_, n)| *n == name).map(|&(h, _)| h)
    }
    /// The legacy string form `cellfun('isempty', c)` that `name` is, where it names no function.
    pub fn legacy_form(self, name: &str) -> Option<CellfunLegacy> {
        let named = CellfunLegacy::NAMES.iter().find(|(_, n)| *n == name).map(|&(form, _)| form);
        named.filter(|_| self == HigherOrder::Cellfun)
    }
    pub fn name(self) -> &'static str {
        Self::NAMES.iter().find(|&&(h, _)| h == self).map(|&(_, n)| n).expect("every higher-order builtin is named")
    }
}

/// `cellfun(name, c)` forms Octave computes itself (`size` and `isclass` take one more argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellfunLegacy {
    Isempty,
    Islogical,
    Isnumeric,
    Isreal,
    Length,
    Ndims,
    Numel,
    Size,
    Isclass,
}

impl CellfunLegacy {
    const NAMES: [(CellfunLegacy, &'static str); 10] = [
        (CellfunLegacy::Isempty, "isempty"),
        (CellfunLegacy::Islogical, "islogical"),
        (CellfunLegacy::Isnumeric, "isnumeric"),
        (CellfunLegacy::Isreal, "isreal"),
        (CellfunLegacy::Length, "length"),
        (CellfunLegacy::Ndims, "ndims"),
        (CellfunLegacy::Numel, "numel"),
        (CellfunLegacy::Numel, "prodofsize"),
        (CellfunLegacy::Size, "size"),
        (CellfunLegacy::Isclass, "isclass"),
    ];
}
