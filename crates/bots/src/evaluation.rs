//! Calibrated evaluations: every side's winning chance at a position from a few features of
//! each side, for playouts cut short (`madang-analysis`).
//!
//! The model is a **conditional logit** (McFadden's choice model, the multinomial logit with
//! weights shared by the sides): side `s` gets the score `w · f(s)` and its chance is
//! `exp(score_s) / Σ_t exp(score_t)`. The chances sum to 1 for any number of sides. The
//! weights are fitted by maximum likelihood on positions from games between the game's rollout
//! bots, labelled with who won (`cargo run --release -p madang-analysis --example evaluation --
//! fit GAME`; the figures are in `docs/analysis.md`, "A faster estimator").

/// A game's evaluation: the names of its features, their fitted weights, and how far the
/// analysis's playouts run before the evaluation scores them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The features of one side, in the order of `Roster::evaluation_features`.
    pub names: &'static [&'static str],
    /// One weight per feature (the same length as `names`).
    pub weights: &'static [f64],
    /// A playout plays at least this many actions and is then scored by the evaluation at the
    /// next chance node (a position with nothing pending: a roll or throw awaited).
    pub horizon: usize,
    /// How far a difference between two moves measured with cut playouts is from the same
    /// difference measured with whole ones, beyond sampling error: the root mean square,
    /// percentage points, measured on every decision of games between `normal` bots (the
    /// `evaluation bias` example). The analysis widens its intervals by it.
    pub bias: f64,
}

/// Every side's winning chance from per-side `features` (sides × `weights.len()` values) and
/// `weights`: the softmax of the scores. Written into `chances` (cleared first); it sums to 1.
pub fn chances_from(features: &[f64], weights: &[f64], chances: &mut Vec<f64>) {
    chances.clear();
    if weights.is_empty() {
        return;
    }
    chances
        .extend(features.chunks_exact(weights.len()).map(|f| f.iter().zip(weights).map(|(x, w)| x * w).sum::<f64>()));
    let top = chances.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for c in chances.iter_mut() {
        *c = (*c - top).exp();
        total += *c;
    }
    for c in chances.iter_mut() {
        *c /= total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_are_the_softmax_of_the_scores() {
        // Two sides, one feature, weight ln 3: scores ln 3 · 1 and ln 3 · 0, so 3:1.
        let mut chances = Vec::new();
        chances_from(&[1.0, 0.0], &[3f64.ln()], &mut chances);
        assert!((chances[0] - 0.75).abs() < 1e-12 && (chances[1] - 0.25).abs() < 1e-12);
        // Four equal sides share equally, whatever the weights.
        chances_from(&[2.0, 5.0, 2.0, 5.0, 2.0, 5.0, 2.0, 5.0], &[0.3, -1.0], &mut chances);
        assert!(chances.iter().all(|c| (c - 0.25).abs() < 1e-12));
        // Huge scores do not overflow.
        chances_from(&[1000.0, 0.0], &[1.0], &mut chances);
        assert!((chances[0] - 1.0).abs() < 1e-12 && chances[1] < 1e-300);
    }
}
