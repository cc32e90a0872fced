//! Decision-time histograms: log-scale buckets 5 % wide, so percentiles are within 5 %.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Bucket `b` holds times in `[1.05^b, 1.05^(b+1))` nanoseconds.
const BUCKETS: usize = 600;

/// Decision times of one bot (merged exactly: counts and whole nanoseconds).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    count: u64,
    total: Duration,
    max: Duration,
    buckets: Vec<u64>,
}

/// A bot's decision time summary, in microseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionTime {
    /// Bot name.
    pub bot: String,
    /// Decisions timed.
    pub decisions: u64,
    /// Mean.
    pub mean_us: f64,
    /// Median (within 5 %).
    pub p50_us: f64,
    /// 99th percentile (within 5 %).
    pub p99_us: f64,
    /// Longest.
    pub max_us: f64,
}

impl Histogram {
    pub(crate) fn new() -> Histogram {
        Histogram { count: 0, total: Duration::ZERO, max: Duration::ZERO, buckets: vec![0; BUCKETS] }
    }

    pub(crate) fn add(&mut self, time: Duration) {
        self.count += 1;
        self.total += time;
        self.max = self.max.max(time);
        let nanos = time.as_nanos().max(1) as f64;
        let bucket = (nanos.ln() / 1.05f64.ln()) as usize;
        self.buckets[bucket.min(BUCKETS - 1)] += 1;
    }

    pub(crate) fn merge(&mut self, other: &Histogram) {
        if self.buckets.len() < other.buckets.len() {
            self.buckets.resize(other.buckets.len(), 0);
        }
        self.count += other.count;
        self.total += other.total;
        self.max = self.max.max(other.max);
        for (mine, theirs) in self.buckets.iter_mut().zip(&other.buckets) {
            *mine += theirs;
        }
    }

    fn percentile_us(&self, q: f64) -> f64 {
        let rank = ((self.count as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (b, n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return 1.05f64.powi(b as i32 + 1) / 1000.0;
            }
        }
        self.max.as_secs_f64() * 1e6
    }

    pub(crate) fn summary(&self, bot: &str) -> DecisionTime {
        DecisionTime {
            bot: bot.to_owned(),
            decisions: self.count,
            mean_us: if self.count == 0 { 0.0 } else { self.total.as_secs_f64() * 1e6 / self.count as f64 },
            p50_us: self.percentile_us(0.5),
            p99_us: self.percentile_us(0.99).min(self.max.as_secs_f64() * 1e6),
            max_us: self.max.as_secs_f64() * 1e6,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_fall_within_five_percent() {
        let mut h = Histogram::new();
        for micros in 1..=100u64 {
            h.add(Duration::from_micros(micros));
        }
        let s = h.summary("x");
        assert_eq!(s.decisions, 100);
        assert!((s.mean_us - 50.5).abs() < 1e-6);
        assert!((s.p50_us - 50.0).abs() <= 50.0 * 0.051, "{s:?}");
        assert!((s.p99_us - 99.0).abs() <= 99.0 * 0.051, "{s:?}");
        assert!((s.max_us - 100.0).abs() < 1e-6);
    }
}
