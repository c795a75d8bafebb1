//! One-dimensional minimisation, for the scale fits of the tuners.

/// The minimum of `f` on `[lo, hi]` by golden-section search (`f` unimodal there), after
/// `iterations` steps (each shrinks the interval by 0.618).
pub fn golden_section(mut lo: f64, mut hi: f64, iterations: usize, f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..iterations {
        let c = hi - g * (hi - lo);
        let d = lo + g * (hi - lo);
        if f(c) < f(d) {
            hi = d;
        } else {
            lo = c;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_the_minimum() {
        let x = super::golden_section(0.0, 10.0, 60, |x| (x - 3.7) * (x - 3.7) + 1.0);
        assert!((x - 3.7).abs() < 1e-6, "{x}");
    }
}
