//! Builtins that msad implements in MATLAB: their source ships inside the library and is loaded like
//! user code when called (after the primitive table, before the host's path), so their derivatives come
//! from the primitives they use. For functions whose Octave `.m` version uses what msad does not
//! support.

const FUNCTIONS: &[(&str, &str)] = &[
    ("trapz", include_str!("library/trapz.m")),
    ("sumsq", include_str!("library/sumsq.m")),
    ("bsxfun", include_str!("library/bsxfun.m")),
    ("nth_element", include_str!("library/nth_element.m")),
    ("cumtrapz", include_str!("library/cumtrapz.m")),
    ("__trapezoids__", include_str!("library/__trapezoids__.m")),
    ("interp1", include_str!("library/interp1.m")),
    ("spline", include_str!("library/spline.m")),
    ("pchip", include_str!("library/pchip.m")),
    ("__pchip_slopes__", include_str!("library/__pchip_slopes__.m")),
    ("interp2", include_str!("library/interp2.m")),
    ("fzero", include_str!("library/fzero.m")),
    ("fminbnd", include_str!("library/fminbnd.m")),
    ("ppval", include_str!("library/ppval.m")),
    ("__pp_eval__", include_str!("library/__pp_eval__.m")),
    ("__hermite_pp__", include_str!("library/__hermite_pp__.m")),
    ("__interp_options__", include_str!("library/__interp_options__.m")),
    ("__sorted_samples__", include_str!("library/__sorted_samples__.m")),
    ("polyfit", include_str!("library/polyfit.m")),
    ("pinv", include_str!("library/pinv.m")),
    ("integral", include_str!("library/integral.m")),
    ("quadgk", include_str!("library/quadgk.m")),
    ("__gauss_kronrod__", include_str!("library/__gauss_kronrod__.m")),
    ("optimset", include_str!("library/optimset.m")),
    ("optimget", include_str!("library/optimget.m")),
    ("__optim_name__", include_str!("library/__optim_name__.m")),
];

/// The source of library function `name`, if msad has one.
pub fn source(name: &str) -> Option<&'static str> {
    FUNCTIONS.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// The names of the library functions.
pub fn names() -> impl Iterator<Item = &'static str> {
    FUNCTIONS.iter().map(|(name, _)| *name)
}
