//! AdamW (Adam with decoupled weight decay) and the learning-rate schedule. The state (both
//! moments and the step count) is part of a checkpoint, so a resumed run continues exactly.

use std::f64::consts::PI;

#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub steps: u64,
    pub weight_decay: f32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl AdamW {
    pub fn new(params: usize, weight_decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; params],
            v: vec![0.0; params],
            steps: 0,
            weight_decay,
        }
    }

    /// One step against `grad` with step size `lr`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.steps += 1;
        let t = self.steps as i32;
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        let decay = 1.0 - lr * self.weight_decay;
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p = *p * decay - lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        }
    }
}

/// How the step size falls over the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// From the start rate to `start · final_ratio` along half a cosine.
    Cosine { final_ratio: f64 },
    /// Multiplied by `gamma` every `every` epochs.
    Step { every: usize, gamma: f64 },
}

impl Schedule {
    /// The rate at `progress` epochs (fractional) of a run of `epochs`.
    pub fn rate(&self, start: f64, progress: f64, epochs: usize) -> f64 {
        match *self {
            Schedule::Cosine { final_ratio } => {
                let x = (progress / epochs.max(1) as f64).min(1.0);
                let end = start * final_ratio;
                end + 0.5 * (start - end) * (1.0 + (PI * x).cos())
            }
            Schedule::Step { every, gamma } => {
                start * gamma.powi((progress as usize / every.max(1)) as i32)
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Schedule::Cosine { final_ratio } => format!("cosine to {final_ratio} of the rate"),
            Schedule::Step { every, gamma } => format!("times {gamma} every {every} epochs"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_walks_a_bowl_down_and_the_schedules_fall() {
        let mut x = vec![3.0f32, -2.0];
        let mut adam = AdamW::new(2, 0.0);
        for _ in 0..2000 {
            let g: Vec<f32> = x.iter().map(|v| 2.0 * v).collect();
            adam.step(&mut x, &g, 0.01);
        }
        assert!(x.iter().all(|v| v.abs() < 0.05), "{x:?}");
        let cosine = Schedule::Cosine { final_ratio: 0.1 };
        assert_eq!(cosine.rate(1.0, 0.0, 10), 1.0);
        assert!((cosine.rate(1.0, 10.0, 10) - 0.1).abs() < 1e-12);
        assert!((cosine.rate(1.0, 5.0, 10) - 0.55).abs() < 1e-12);
        let step = Schedule::Step {
            every: 4,
            gamma: 0.5,
        };
        assert_eq!(step.rate(1.0, 3.9, 10), 1.0);
        assert_eq!(step.rate(1.0, 8.0, 10), 0.25);
    }
}
