//! The few statistical formulas the simulator needs, written out (with tests
//! against values computed by hand or from tables) rather than pulled in with
//! a statistics crate.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Natural log of the gamma function (Lanczos, g = 7, n = 9), for x > 0.
pub fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Upper regularized incomplete gamma Q(a, x) = Γ(a, x) / Γ(a).
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let gln = ln_gamma(a);
    if x < a + 1.0 {
        // Series for P.
        let mut sum = 1.0 / a;
        let mut del = sum;
        let mut ap = a;
        for _ in 0..1000 {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        let p = sum * (-x + a * x.ln() - gln).exp();
        (1.0 - p).clamp(0.0, 1.0)
    } else {
        // Continued fraction for Q (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        ((-x + a * x.ln() - gln).exp() * h).clamp(0.0, 1.0)
    }
}

/// Regularized incomplete beta I_x(a, b).
pub fn beta_i(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    // Modified Lentz's method (Numerical Recipes, betacf): each round takes
    // one even and one odd term of the continued fraction.
    const TINY: f64 = 1e-300;
    let away_from_zero = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / away_from_zero(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..1000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let even = m * (b - m) * x / ((qam + m2) * (a + m2));
        let odd = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        let mut last = 1.0;
        for term in [even, odd] {
            d = 1.0 / away_from_zero(1.0 + term * d);
            c = away_from_zero(1.0 + term / c);
            last = d * c;
            h *= last;
        }
        if (last - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// Two-sided p-value of a standard normal statistic: P(|Z| >= |z|).
pub fn normal_two_sided(z: f64) -> f64 {
    // erfc(|z| / sqrt 2) = Q(1/2, z^2 / 2).
    gamma_q(0.5, z * z / 2.0)
}

/// The standard normal distribution function Φ(z) = P(Z <= z).
pub fn normal_cdf(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    let tail = normal_two_sided(z) / 2.0;
    if z >= 0.0 { 1.0 - tail } else { tail }
}

/// The standard normal quantile: the `z` with Φ(z) = `p`, for 0 < p < 1
/// (-inf at 0, +inf at 1). Acklam's rational approximation, then one
/// Newton step on [`normal_cdf`] (about 1e-12 relative error).
pub fn normal_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let x = if p < 0.024_25 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.024_25 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Newton step: the density at x is exp(-x^2/2)/sqrt(2 pi).
    let density = (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    if density > 0.0 {
        x - (normal_cdf(x) - p) / density
    } else {
        x
    }
}

/// Two-sided p-value of a Student t statistic with `df` degrees of freedom
/// (the normal one when `df` is infinite).
pub fn t_two_sided(t: f64, df: f64) -> f64 {
    if df.is_infinite() {
        normal_two_sided(t)
    } else if df <= 0.0 {
        1.0
    } else {
        beta_i(df / 2.0, 0.5, df / (df + t * t))
    }
}

/// One-sided p-value P(T >= t) of a Student t statistic (normal when `df`
/// is infinite).
pub fn t_upper(t: f64, df: f64) -> f64 {
    let half = t_two_sided(t, df) / 2.0;
    if t >= 0.0 { half } else { 1.0 - half }
}

/// Wilson score interval for `k` successes in `n` trials at z = 1.96.
/// `(0, 1)` when `n` is 0.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let p = k / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // At k = 0 (k = n) the bound is exactly 0 (1); rounding left 1.7e-18.
    let low = if k <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// Pearson's chi-square test that `counts` come from equal probabilities:
/// (statistic, degrees of freedom, p-value). p is 1 with fewer than two
/// categories or no observations.
pub fn chi_square_uniform(counts: &[u64]) -> (f64, u32, f64) {
    let k = counts.len();
    let total: u64 = counts.iter().sum();
    if k < 2 || total == 0 {
        return (0.0, k.saturating_sub(1) as u32, 1.0);
    }
    let expected = total as f64 / k as f64;
    let stat: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let df = (k - 1) as u32;
    (stat, df, gamma_q(f64::from(df) / 2.0, stat / 2.0))
}

/// Two-proportion z-test (pooled): (z, two-sided p). p is 1 when undefined.
pub fn two_proportion(k1: f64, n1: f64, k2: f64, n2: f64) -> (f64, f64) {
    if n1 <= 0.0 || n2 <= 0.0 {
        return (0.0, 1.0);
    }
    let pooled = (k1 + k2) / (n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se == 0.0 {
        return (0.0, 1.0);
    }
    let z = (k1 / n1 - k2 / n2) / se;
    (z, normal_two_sided(z))
}

/// Welch's t-test from two samples' means, standard deviations and sizes:
/// (t, Welch–Satterthwaite degrees of freedom, two-sided p). p is 1 when
/// undefined (a sample of fewer than two, or no spread at all with equal means).
pub fn welch(m1: f64, s1: f64, n1: f64, m2: f64, s2: f64, n2: f64) -> (f64, f64, f64) {
    if n1 < 2.0 || n2 < 2.0 {
        return (0.0, 0.0, 1.0);
    }
    let (v1, v2) = (s1 * s1 / n1, s2 * s2 / n2);
    let se2 = v1 + v2;
    if se2 == 0.0 {
        return if m1 == m2 {
            (0.0, 0.0, 1.0)
        } else {
            (f64::INFINITY, 0.0, 0.0)
        };
    }
    let t = (m1 - m2) / se2.sqrt();
    let df = se2 * se2 / (v1 * v1 / (n1 - 1.0) + v2 * v2 / (n2 - 1.0));
    let p = beta_i(df / 2.0, 0.5, df / (df + t * t));
    (t, df, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn gamma_function_at_known_points() {
        assert!(close(ln_gamma(1.0), 0.0, 1e-12));
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-12));
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-12
        ));
    }

    #[test]
    fn a_zero_rate_has_a_lower_bound_of_zero() {
        // It was 1.7e-18 (rounding in centre - half), printed as such in JSON.
        for n in [1.0, 7.0, 200.0, 1000.0, 123_457.0] {
            assert_eq!(wilson(0.0, n).0, 0.0, "n = {n}");
            assert_eq!(wilson(n, n).1, 1.0, "n = {n}");
        }
    }

    #[test]
    fn wilson_interval_by_hand() {
        // 50 of 100: centre 0.5, half-width 1.96*sqrt(.25/100 + 1.96^2/40000)/(1 + 1.96^2/100).
        let (lo, hi) = wilson(50.0, 100.0);
        assert!(close(lo, 0.403_831, 1e-5), "{lo}");
        assert!(close(hi, 0.596_169, 1e-5), "{hi}");
        // 0 of 10: lower bound 0, upper z^2/(n+z^2) = 3.8415/13.8415.
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.277_533, 1e-5), "{hi}");
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
    }

    #[test]
    fn chi_square_by_hand() {
        // 60 v 40: expected 50 each, statistic (100 + 100) / 50 = 4, df 1,
        // p = P(chi2_1 >= 4) = 0.0455003.
        let (stat, df, p) = chi_square_uniform(&[60, 40]);
        assert!(close(stat, 4.0, 1e-12));
        assert_eq!(df, 1);
        assert!(close(p, 0.045_500_3, 1e-6), "{p}");
        // 12, 9, 6: expected 9 each, statistic (9 + 0 + 9) / 9 = 2, df 2,
        // and with 2 df p = e^(-stat/2) = e^-1.
        let (stat, df, p) = chi_square_uniform(&[12, 9, 6]);
        assert!(close(stat, 2.0, 1e-12));
        assert_eq!(df, 2);
        assert!(close(p, (-1f64).exp(), 1e-9), "{p}");
        assert_eq!(chi_square_uniform(&[5]).2, 1.0);
        assert_eq!(chi_square_uniform(&[0, 0]).2, 1.0);
    }

    #[test]
    fn normal_quantile_inverts_the_distribution() {
        assert!(close(normal_quantile(0.975), Z95, 1e-9));
        assert!(close(normal_quantile(0.5), 0.0, 1e-12));
        assert!(close(normal_quantile(0.05), -1.644_853_626_951, 1e-9));
        assert!(close(normal_quantile(1e-6), -4.753_424_308_8, 1e-7));
        for p in [0.001, 0.02, 0.3, 0.7, 0.99] {
            assert!(close(normal_cdf(normal_quantile(p)), p, 1e-12), "{p}");
        }
        // t with many degrees of freedom is nearly normal; with 1 it is Cauchy.
        assert!(close(t_upper(1.959_963_985, f64::INFINITY), 0.025, 1e-8));
        assert!(close(t_upper(1.0, 1.0), 0.25, 1e-9));
        assert!(close(t_upper(-1.0, 1.0), 0.75, 1e-9));
    }

    #[test]
    fn normal_tail() {
        assert!(close(normal_two_sided(1.959_963_985), 0.05, 1e-8));
        assert!(close(normal_two_sided(0.0), 1.0, 1e-12));
        assert!(close(normal_two_sided(3.0), 0.002_699_8, 1e-7));
    }

    #[test]
    fn two_proportion_by_hand() {
        // 60/100 v 40/100: pooled .5, se sqrt(.25 * .02) = .070711, z = 2.8284.
        let (z, p) = two_proportion(60.0, 100.0, 40.0, 100.0);
        assert!(close(z, 2.828_427, 1e-5), "{z}");
        assert!(close(p, 0.004_677_7, 1e-6), "{p}");
        assert_eq!(two_proportion(0.0, 0.0, 1.0, 2.0), (0.0, 1.0));
    }

    #[test]
    fn welch_by_hand() {
        // Equal sizes and spreads: t = (10 - 9) / sqrt(4/50 + 4/50) = 2.5, df 98,
        // two-sided p about 0.01409 (t table).
        let (t, df, p) = welch(10.0, 2.0, 50.0, 9.0, 2.0, 50.0);
        assert!(close(t, 2.5, 1e-12));
        assert!(close(df, 98.0, 1e-9));
        assert!(close(p, 0.014_09, 2e-4), "{p}");
        // Student t with 1 df is Cauchy: P(|T| >= 1) = 0.5.
        assert!(close(beta_i(0.5, 0.5, 0.5), 0.5, 1e-9));
    }
}
