//! What a called name can be, and the only place that knows builtins' source names: one `Prim` variant
//! per operator or builtin (the key of its record in the primitive table), the higher-order builtins
//! the evaluator runs, and the user functions of a program. The front end resolves a call through
//! `lookup`; everything after it dispatches on the variant or reads the facets of its record.

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

prims! {
    Uminus = "uminus",
    Uplus = "uplus",
    Real = "real",
    Conj = "conj",
    Imag = "imag",
    Cbrt = "cbrt",
    Sin = "sin",
    Cos = "cos",
    Tan = "tan",
    Sec = "sec",
    Csc = "csc",
    Cot = "cot",
    Exp = "exp",
    Expm1 = "expm1",
    Log = "log",
    Log2 = "log2",
    Log10 = "log10",
    Log1p = "log1p",
    Sqrt = "sqrt",
    Abs = "abs",
    Asin = "asin",
    Acos = "acos",
    Atan = "atan",
    Sinh = "sinh",
    Cosh = "cosh",
    Tanh = "tanh",
    Asinh = "asinh",
    Acosh = "acosh",
    Atanh = "atanh",
    Erf = "erf",
    Floor = "floor",
    Ceil = "ceil",
    Round = "round",
    Fix = "fix",
    Sign = "sign",
    Plus = "plus",
    Minus = "minus",
    Times = "times",
    Rdivide = "rdivide",
    Ldivide = "ldivide",
    Power = "power",
    Atan2 = "atan2",
    Hypot = "hypot",
    Eq = "eq",
    Ne = "ne",
    Lt = "lt",
    Le = "le",
    Gt = "gt",
    Ge = "ge",
    And = "and",
    Or = "or",
    Mtimes = "mtimes",
    Transpose = "transpose",
    Ctranspose = "ctranspose",
    Diag = "diag",
    Mldivide = "mldivide",
    Mrdivide = "mrdivide",
    Inv = "inv",
    Inverse = "inverse",
    Det = "det",
    Mpower = "mpower",
    Trace = "trace",
    Prod = "prod",
    Cumprod = "cumprod",
    Dot = "dot",
    Kron = "kron",
    Max = "max",
    Min = "min",
    Sort = "sort",
    Norm = "norm",
    Diff = "diff",
    Tril = "tril",
    Triu = "triu",
    Interp1 = "__interp1__",
    Polyval = "polyval",
    Zeros = "zeros",
    Ones = "ones",
    Eye = "eye",
    Pi = "pi",
    E = "e",
    InfCapitalised = "Inf",
    Inf = "inf",
    NaN = "NaN",
    Nan = "nan",
    Eps = "eps",
    Flintmax = "flintmax",
    True = "true",
    False = "false",
    Size = "size",
    Numel = "numel",
    Length = "length",
    Ndims = "ndims",
    Isempty = "isempty",
    Colon = "colon",
    Not = "not",
    Truth = "truth",
    SwitchMatch = "switch_match",
    ForCount = "for_count",
    ForItem = "for_item",
    Horzcat = "horzcat",
    Vertcat = "vertcat",
    Reshape = "reshape",
    Double = "double",
    Sum = "sum",
    Mean = "mean",
    Cumsum = "cumsum",
    Sparse = "sparse",
    Speye = "speye",
    Spdiags = "spdiags",
    Full = "full",
    Issparse = "issparse",
    Nnz = "nnz",
    Struct = "struct",
    Cell = "cell",
    Fieldnames = "fieldnames",
    Isfield = "isfield",
    Repmat = "repmat",
    Permute = "permute",
    Ipermute = "ipermute",
    Squeeze = "squeeze",
    Flip = "flip",
    Fliplr = "fliplr",
    Flipud = "flipud",
    Rot90 = "rot90",
    Circshift = "circshift",
    Cat = "cat",
    Linspace = "linspace",
    Logspace = "logspace",
    Meshgrid = "meshgrid",
    Ndgrid = "ndgrid",
    Find = "find",
    Isnumeric = "isnumeric",
    Isreal = "isreal",
    Isfloat = "isfloat",
    Isinteger = "isinteger",
    Iscomplex = "iscomplex",
    Islogical = "islogical",
    Isbool = "isbool",
    Ischar = "ischar",
    Iscell = "iscell",
    Iscellstr = "iscellstr",
    Isstruct = "isstruct",
    Isobject = "isobject",
    IsFunctionHandle = "is_function_handle",
    Func2str = "func2str",
    Isscalar = "isscalar",
    Isvector = "isvector",
    Isrow = "isrow",
    Iscolumn = "iscolumn",
    Ismatrix = "ismatrix",
    Issquare = "issquare",
    Isnan = "isnan",
    Isinf = "isinf",
    Isfinite = "isfinite",
    Class = "class",
    Isa = "isa",
    Isequal = "isequal",
    SizeEqual = "size_equal",
    Columns = "columns",
    Rows = "rows",
    Logical = "logical",
    Any = "any",
    All = "all",
    Xor = "xor",
    Mod = "mod",
    Rem = "rem",
    Strcmp = "strcmp",
    Strcmpi = "strcmpi",
    Strncmp = "strncmp",
    Strncmpi = "strncmpi",
    Upper = "upper",
    Toupper = "toupper",
    Lower = "lower",
    Tolower = "tolower",
    Strtrim = "strtrim",
    Deblank = "deblank",
    Blanks = "blanks",
    Char = "char",
    Strcat = "strcat",
    Sprintf = "sprintf",
    PrintUsage = "print_usage",
    Num2str = "num2str",
    Int2str = "int2str",
    Mat2str = "mat2str",
    Accumarray = "accumarray",
    Num2cell = "num2cell",
    Deal = "deal",
    Merge = "merge",
    Ifelse = "ifelse",
    Error = "error",
    Rethrow = "rethrow",
    Throw = "throw",
    MException = "MException",
    Int8 = "int8",
    Int16 = "int16",
    Int32 = "int32",
    Int64 = "int64",
    Uint8 = "uint8",
    Uint16 = "uint16",
    Uint32 = "uint32",
    Uint64 = "uint64",
    Intmax = "intmax",
    Intmin = "intmin",
    Idivide = "idivide",
    Bitand = "bitand",
    Bitor = "bitor",
    Bitxor = "bitxor",
    Bitshift = "bitshift",
    Complex = "complex",
    Angle = "angle",
    Arg = "arg",
    Log2Parts = "[f, e] = log2",
    Erfc = "erfc",
    Erfcx = "erfcx",
    Erfinv = "erfinv",
    Erfcinv = "erfcinv",
    Gamma = "gamma",
    Gammaln = "gammaln",
    Lgamma = "lgamma",
    Psi = "psi",
    Beta = "beta",
    Betaln = "betaln",
    Gammainc = "gammainc",
    Betainc = "betainc",
    Expint = "expint",
    Besselj = "besselj",
    Bessely = "bessely",
    Besseli = "besseli",
    Besselk = "besselk",
    Airy = "airy",
    Legendre = "legendre",
    Expm = "expm",
    Logm = "logm",
    Sqrtm = "sqrtm",
    Chol = "chol",
    CholFlag = "[R, p] = chol",
    Eig = "eig",
    EigVectors = "[V, D] = eig",
    Svd = "svd",
    // Complex transforms (issue #22).
    Fft = "fft",
    Ifft = "ifft",
    // Factorisations and implicit solves (issue #24).
    Lu = "lu",
    LuFactors = "[L, U, P] = lu",
    Qr = "qr",
    QrFactors = "[Q, R] = qr",
    SvdVectors = "[U, S, V] = svd",
    Null = "null",
    Orth = "orth",
    Constant = "__constant__",
    // Issue #24, second pass.
    Getfield = "getfield",
    Setfield = "setfield",
}

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
