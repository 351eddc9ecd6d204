//! Checkpoints: the float network, the optimiser's state and where the run stands, written
//! after every epoch so `panoply train --resume` continues exactly where one ended. Layout:
//! magic `PANOPLY-TRAIN`, a `u32` length and a JSON header, then the parameters, Adam's
//! first and second moments as little-endian `f32`, then an FNV-1a 64 checksum.

use super::network::FloatNetwork;
use super::optimizer::AdamW;
use crate::nnue::format::checksum;
use serde_json::{json, Value};
use std::fmt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 13] = b"PANOPLY-TRAIN";
const VERSION: u64 = 1;

/// One finished epoch's losses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    pub train: f64,
    pub validation: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub net: FloatNetwork,
    pub adam: AdamW,
    pub seed: u64,
    pub k: f64,
    pub lambda: f64,
    /// Whether the network is a correction to the classical evaluation (`--on-classical`).
    pub on_classical: bool,
    /// Losses of the epochs done so far (its length is the number of epochs done).
    pub history: Vec<EpochLoss>,
}

#[derive(Debug)]
pub enum CheckpointError {
    Io(PathBuf, std::io::Error),
    Bad(PathBuf, String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CheckpointError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            CheckpointError::Bad(p, why) => {
                write!(f, "{}: not a usable checkpoint: {why}", p.display())
            }
        }
    }
}

impl std::error::Error for CheckpointError {}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let history: Vec<Value> = self
            .history
            .iter()
            .map(|l| json!([l.train.to_bits(), l.validation.to_bits()]))
            .collect();
        let header = json!({
            "version": VERSION,
            "inputs": self.net.inputs,
            "hidden": self.net.hidden,
            "steps": self.adam.steps,
            "weight_decay": self.adam.weight_decay,
            "seed": self.seed,
            "k": self.k.to_bits(),
            "lambda": self.lambda.to_bits(),
            "on_classical": self.on_classical,
            "history": history,
        })
        .to_string();
        let mut out = Vec::with_capacity(self.net.params.len() * 12 + header.len() + 32);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        for x in self
            .net
            .params
            .iter()
            .chain(&self.adam.m)
            .chain(&self.adam.v)
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < MAGIC.len() + 12 || &bytes[..MAGIC.len()] != MAGIC {
            return Err("no PANOPLY-TRAIN magic".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
            return Err("damaged (checksum mismatch)".into());
        }
        let rest = &body[MAGIC.len()..];
        let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        let json = rest.get(4..4 + len).ok_or("truncated header")?;
        let h: Value = serde_json::from_slice(json).map_err(|e| e.to_string())?;
        if h["version"].as_u64() != Some(VERSION) {
            return Err(format!(
                "checkpoint version {}, expected {VERSION}",
                h["version"]
            ));
        }
        let num = |key: &str| h[key].as_u64().ok_or(format!("no '{key}'"));
        // Floats are stored as their bits: a resumed run must see exactly the same numbers.
        let float = |key: &str| Ok::<f64, String>(f64::from_bits(num(key)?));
        let (inputs, hidden) = (num("inputs")? as usize, num("hidden")? as usize);
        let count = inputs * hidden + 3 * hidden + 1;
        let floats = &rest[4 + len..];
        if floats.len() != count * 3 * 4 {
            return Err(format!(
                "{} bytes of weights, expected {}",
                floats.len(),
                count * 12
            ));
        }
        let mut values = floats
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let mut take = || values.by_ref().take(count).collect::<Vec<f32>>();
        let params = take();
        let m = take();
        let v = take();
        let history = h["history"]
            .as_array()
            .ok_or("no history")?
            .iter()
            .map(|l| {
                Some(EpochLoss {
                    train: f64::from_bits(l[0].as_u64()?),
                    validation: f64::from_bits(l[1].as_u64()?),
                })
            })
            .collect::<Option<Vec<_>>>()
            .ok_or("bad history")?;
        Ok(Checkpoint {
            net: FloatNetwork {
                inputs,
                hidden,
                params,
            },
            adam: AdamW {
                m,
                v,
                steps: num("steps")?,
                weight_decay: h["weight_decay"].as_f64().ok_or("no 'weight_decay'")? as f32,
            },
            seed: num("seed")?,
            k: float("k")?,
            lambda: float("lambda")?,
            // Absent in checkpoints written before corrections existed.
            on_classical: h["on_classical"].as_bool().unwrap_or(false),
            history,
        })
    }

    /// Written beside and renamed, so an interrupted save keeps the previous checkpoint.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |e| CheckpointError::Io(path.into(), e);
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = std::fs::read(path).map_err(|e| CheckpointError::Io(path.into(), e))?;
        Checkpoint::from_bytes(&bytes).map_err(|why| CheckpointError::Bad(path.into(), why))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_survives_the_round_trip_and_damage_is_refused() {
        let net = FloatNetwork::new(8, 3, 1);
        let mut adam = AdamW::new(net.params.len(), 0.01);
        adam.m[2] = 0.5;
        adam.v[4] = 0.25;
        adam.steps = 17;
        let c = Checkpoint {
            net,
            adam,
            seed: 9,
            k: 321.5,
            lambda: 0.7,
            on_classical: true,
            history: vec![EpochLoss {
                train: 0.1,
                validation: 0.2,
            }],
        };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
        let mut flipped = bytes.clone();
        flipped[60] ^= 4;
        assert!(Checkpoint::from_bytes(&flipped)
            .unwrap_err()
            .contains("checksum"));
        assert!(Checkpoint::from_bytes(b"PANOPLY-NNUE....").is_err());
    }
}
